use super::*;
use crate::run::live::SecondAgg;

fn collector(ios: &[u64]) -> Collector {
    let mut c = Collector::new(1);
    c.seconds = ios.iter().map(|&n| SecondAgg { ios: [n, 0], bytes: [n * 4096, 0], ..Default::default() }).collect();
    c
}

fn ss(how: &str, dur: u32, ramp: f64) -> SteadyState {
    SteadyState::parse(how, dur, ramp).unwrap()
}

#[test]
fn a_flat_window_after_the_ramp_is_steady_and_a_rising_one_is_not() {
    // Ramp of 2 s: the first two seconds (wild) are not judged.
    let c = collector(&[10, 5000, 1000, 1000, 1000, 1001, 1000]);
    let mut k = SteadyCheck::new(ss("iops_slope:0.1%", 4, 2.0));
    assert!(!k.feed(&c, 5), "only 3 seconds judged by then");
    assert!(k.feed(&c, 6));
    let o = k.outcome();
    assert!(o.attained);
    assert_eq!(o.iops, [1000, 1000, 1000, 1001]);
    assert_eq!(o.bw, [1000 * 4096, 1000 * 4096, 1000 * 4096, 1001 * 4096]);
    // Least squares through 1000,1000,1000,1001: slope 0.3 per second, 0.03 % of the mean.
    assert!((o.slope - 0.3).abs() < 1e-9, "{}", o.slope);
    assert!((o.criterion - 100.0 * 0.3 / 1000.25).abs() < 1e-9);
    assert!(!k.feed(&c, 7), "attained once");

    let rising = collector(&[100, 200, 300, 400, 500]);
    let mut k = SteadyCheck::new(ss("iops:5%", 3, 0.0));
    assert!(!k.feed(&rising, 5));
    let o = k.outcome();
    // Window 300, 400, 500: mean 400, largest deviation 100 = 25 %.
    assert_eq!((o.attained, o.iops.clone()), (false, vec![300, 400, 500]));
    assert!((o.max_deviation - 100.0).abs() < 1e-9 && (o.criterion - 25.0).abs() < 1e-9);
}

#[test]
fn a_window_that_never_filled_reports_zeros() {
    let c = collector(&[7, 7]);
    let mut k = SteadyCheck::new(ss("bw:1", 5, 0.0));
    assert!(!k.feed(&c, 2));
    let o = k.outcome();
    assert_eq!((o.attained, o.criterion, o.iops), (false, 0.0, vec![7, 7, 0, 0, 0]));
}

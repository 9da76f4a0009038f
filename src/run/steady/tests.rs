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

/// Feeds `rates` (IOPS of each 250 ms sample, 4K I/Os) to an until-steady check of ±5 % over
/// 1 s as the supervisor would, looking every 50 ms; returns the ms into the window at which it
/// was met, if it was.
fn until_steady(rates: &[u64]) -> (Option<u64>, SteadyCheck) {
    let mut k = SteadyCheck::new(SteadyState::until_steady(5.0, 250, 1));
    let (mut ios, mut met) = (0u64, None);
    for ms in (50..=250 * rates.len() as u64).step_by(50) {
        ios += rates[(ms as usize - 1) / 250] / 20;
        if k.sample(ms * 1_000_000, ios, ios * 4096) {
            assert!(met.is_none(), "met once");
            met = Some(ms);
        }
    }
    (met, k)
}

#[test]
fn until_steady_ends_after_one_second_within_five_percent() {
    // A throttle's burst, then 2,000 IOPS ± 2 %: the first window with the burst in it fails,
    // the one after it holds four steady samples.
    let (met, k) = until_steady(&[6000, 2000, 2040, 1960, 2000, 2000, 2000]);
    assert_eq!(met, Some(1250));
    let o = k.outcome();
    assert!(o.attained);
    assert_eq!(o.iops, [2000, 2040, 1960, 2000]);
    assert_eq!(o.bw, [2000 * 4096, 2040 * 4096, 1960 * 4096, 2000 * 4096]);
    // Mean 2,000, largest deviation 40: 2 %.
    assert!((o.max_deviation - 40.0).abs() < 1e-9 && (o.criterion - 2.0).abs() < 1e-9, "{o:?}");
}

#[test]
fn a_noisy_rate_is_never_steady() {
    // ±8 % around 2,000 IOPS: every window of four holds a sample 8 % off its mean.
    let noisy: Vec<u64> = (0..24).map(|i| if i % 2 == 0 { 2160 } else { 1840 }).collect();
    let (met, k) = until_steady(&noisy);
    assert_eq!(met, None);
    let o = k.outcome();
    assert!(!o.attained && (o.criterion - 8.0).abs() < 1e-9, "{o:?}");
    assert_eq!(o.iops, [2160, 1840, 2160, 1840]);
}

#[test]
fn a_sample_spans_an_interval_and_forty_ios_at_least_at_the_rate_of_the_time_that_passed() {
    let mut k = SteadyCheck::new(SteadyState::until_steady(5.0, 250, 1));
    assert!(!k.sample(200_000_000, 30, 0), "before the first interval ended");
    // 39 I/Os in 300 ms are too few to judge a rate by; 40 in 400 ms make one of 100 IOPS.
    assert!(!k.sample(300_000_000, 39, 0));
    assert!(!k.sample(400_000_000, 40, 40 << 20));
    // The supervisor looked 150 ms late: 60 I/Os over 350 ms.
    assert!(!k.sample(750_000_000, 100, 100 << 20));
    assert!(!k.sample(1_000_000_000, 140, 140 << 20));
    assert!(!k.sample(1_400_000_000, 180, 180 << 20));
    let o = k.outcome();
    assert_eq!(o.iops, [100, 171, 160, 100]);
    assert_eq!(o.bw[0], 100 << 20);
    assert!(!o.attained, "171 is 29 % above the mean");
}

#[test]
fn why_a_test_stopped() {
    assert_eq!(stop(true, false, 1.25, 3.0), Stop::Steady);
    assert_eq!(stop(true, true, 1.25, 3.0), Stop::Steady, "met before Ctrl-C");
    assert_eq!(stop(false, true, 1.25, 3.0), Stop::Interrupted);
    assert_eq!(stop(false, false, 3.0, 3.0), Stop::Cap);
    assert_eq!(stop(false, false, 1.7, 3.0), Stop::IoCount);
    assert_eq!(Stop::IoCount.name(), "io count");
    assert_eq!(serde_json::to_string(&Stop::IoCount).unwrap(), "\"io_count\"");
}

use super::*;
use crate::result::shifts::Level;

fn shift(metric: Metric, at_s: u32, before: f64, after: f64, end_s: u32, stayed: bool) -> Shift {
    let lvl = |start_s, end_s, mean| Level { start_s, end_s, mean, spread: 1.0 };
    Shift { at_s, metric, before: lvl(0, at_s, before), after: lvl(at_s, end_s, after), stayed, cause: None }
}

#[test]
fn a_shift_reads_as_one_line_with_its_clock_change_and_how_long_it_held() {
    let s = shift(Metric::Iops, 1900, 4012.0, 3205.0, 2400, true);
    assert_eq!(line(&s), "at 31:40 IOPS fell 4,012 → 3,205 (-20 %) and stayed");
    let s = shift(Metric::LatP99Us, 3725, 480.0, 1210.0, 3770, false);
    assert_eq!(line(&s), "at 1:02:05 p99 latency rose 480 → 1,210 µs (+152 %) for 45 s");
    let s = shift(Metric::Mbps, 65, 16.4, 8.2, 90, true);
    assert_eq!(line(&s), "at 1:05 MB/s fell 16.4 → 8.2 (-50 %) and stayed");
}

#[test]
fn the_text_report_says_each_shift_and_its_cause() {
    let mut s = shift(Metric::Iops, 60, 2000.0, 1000.0, 120, true);
    s.cause = Some("the end of a burst".into());
    let mut o = String::new();
    let t = TestResult { shifts: vec![s], ..crate::report::tests::fixture().tests[0].clone() };
    shift_lines(&mut o, &t);
    assert_eq!(o, "at 1:00 IOPS fell 2,000 → 1,000 (-50 %) and stayed\n    cause: the end of a burst\n");
}

use super::*;

fn fixture() -> RunResult {
    serde_json::from_str(include_str!("../../report/testdata/iolens_randrw_q4.json")).expect("fixture parses")
}

#[test]
fn a_measured_result_passes() {
    assert_eq!(check(&fixture()), Ok(()));
}

#[test]
fn a_figure_that_is_not_finite_or_below_zero_is_named() {
    let mut r = fixture();
    r.tests[0].read.iops = f64::NAN;
    let name = &r.tests[0].name;
    assert_eq!(check(&r), Err(format!("test 1 ({name:?}) read IOPS is NaN, not a figure a run measures")));
    let mut r = fixture();
    r.tests[0].total.mbps = f64::INFINITY;
    assert!(check(&r).unwrap_err().contains("total MB/s is inf,"));
    let mut r = fixture();
    r.tests[0].write.lat_us.percentiles.0[0].1 = Some(-1.0);
    let p = r.tests[0].write.lat_us.percentiles.0[0].0.clone();
    assert!(check(&r).unwrap_err().contains(&format!("write latency {p} (µs) is -1,")));
    let mut r = fixture();
    r.tests[0].duration_s = -0.5;
    assert!(check(&r).unwrap_err().contains("duration (s) is -0.5,"));
}

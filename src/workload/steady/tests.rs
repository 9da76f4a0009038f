use super::*;

#[test]
fn fios_forms_parse_and_print_back() {
    let s = SteadyState::parse("iops_slope:.1%", 5, 3.0).unwrap();
    assert_eq!((s.iops, s.slope, s.pct, s.limit, s.dur), (true, true, true, 0.1, 5));
    assert_eq!(s.name(), "iops_slope:0.100000%");
    assert_eq!(s.debug_line(), "set steady state threshold to 0.100000%");
    assert_eq!(
        SteadyState::parse("iops:10", 1, 0.0).unwrap().debug_line(),
        "set steady state IOPS threshold to 10.000000"
    );
    assert_eq!(SteadyState::parse("bw:12", 1, 0.0).unwrap().debug_line(), "set steady state BW threshold to 12");
    let b = SteadyState::parse("bw:12", 10, 0.0).unwrap();
    assert_eq!((b.iops, b.slope, b.pct, b.limit), (false, false, false, 12.0));
    for bad in ["iops", "lat:5", "bw:-1", "bw:x%"] {
        assert!(SteadyState::parse(bad, 1, 0.0).unwrap_err().contains(bad), "{bad}");
    }
}

use super::*;

fn check_result() -> RunResult {
    serde_json::from_str(include_str!("../../report/testdata/check_p30_quick.json")).expect("fixture parses")
}

#[test]
fn a_stored_check_explains_as_it_did_when_it_ran() {
    let (cat, cfg) = (Catalog::built_in(), Config { count: 1, ..Config::default() });
    let mut r = check_result();
    let stored = r.analysis.clone().expect("the fixture holds its analysis");
    annotate(&mut r, &cat, &cfg, 0.10).unwrap();
    let again = r.analysis.clone().unwrap();
    assert_eq!((again.walls.iops_cap, again.walls.mbps_cap), (stored.walls.iops_cap, stored.walls.mbps_cap));
    let e = explain_results(std::slice::from_ref(&r), &cat, &cfg, 0.10).unwrap();
    assert_eq!(e.walls.iops_cap, again.walls.iops_cap, "one stored result explains as its own tests do");
}

#[test]
fn results_without_a_pure_read_or_write_test_are_refused_naming_result() {
    let mut r = check_result();
    r.tests.clear();
    let e = explain_results(&[r], &Catalog::built_in(), &Config::default(), 0.10).unwrap_err();
    assert_eq!(e.option, "RESULT");
    assert!(e.message.contains("no pure read or write test"), "{e}");
}

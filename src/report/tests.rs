//! Snapshots of the text, CSV and Markdown reports over one fixed result (a 1 s randrw run).

use crate::result::RunResult;

fn fixture() -> RunResult {
    serde_json::from_str(include_str!("testdata/iolens_randrw_q4.json")).expect("fixture parses")
}

#[test]
fn text_snapshot() {
    insta::assert_snapshot!(super::text::render(&fixture()));
}

#[test]
fn csv_snapshot() {
    let csv = super::csv::render(&fixture());
    // Fixed columns: 23 before the latency figures, min, 23 percentiles, max.
    assert!(csv.lines().all(|l| l.split(',').count() == 48), "column count");
    assert_eq!(csv.lines().count(), 4);
    insta::assert_snapshot!(csv);
}

#[test]
fn markdown_snapshot() {
    insta::assert_snapshot!(super::markdown::render(&fixture()));
}

#[test]
fn json_round_trips() {
    let r = fixture();
    let back: RunResult = serde_json::from_str(&super::json::render(&r)).unwrap();
    assert_eq!(back, r);
}

use super::*;

#[test]
fn inject_rates_parse_and_bad_ones_name_the_option() {
    let i = parse_inject("lost:0.01, bitflip:0.5").unwrap();
    assert_eq!((i.lost, i.bitflip, i.torn), (0.01, 0.5, 0.0));
    for (bad, says) in [
        ("lost", "has no rate"),
        ("lost:2", "not a fraction"),
        ("gone:0.1", "'gone' is not a fault"),
        ("lost:0.1,lost:0.2", "given twice"),
        ("lost:0.6,torn:0.6", "at most 1"),
        ("", "names no fault"),
    ] {
        let e = parse_inject(bad).unwrap_err().to_string();
        assert!(e.starts_with("--inject: ") && e.contains(says), "{bad}: {e}");
    }
}

use super::*;
use crate::result::verify::Finding;

fn finding(class: FindingClass, bad_rereads: u32) -> Finding {
    Finding {
        file: "/mnt/f".into(),
        offset: 8192,
        len: 4096,
        class,
        expected_gen: 5,
        found_gen: Some(4),
        found_offset: Some(8192),
        found_file: None,
        diff_at: 32,
        diff: "expected 05 / found 04".into(),
        rereads: 3,
        bad_rereads,
        at_s: 1.5,
    }
}

#[test]
fn verdict_counts_pages_and_classes() {
    let mut v = Verification { pages_checked: 131_072, ..Verification::default() };
    assert_eq!(verdict(&v), "verify: 131,072 pages checked, 0 findings");
    for _ in 0..10 {
        v.add(finding(FindingClass::Stale, 3));
    }
    v.add(finding(FindingClass::Torn, 3));
    v.add(finding(FindingClass::Torn, 0));
    assert_eq!(verdict(&v), "verify: 131,072 pages checked, 12 findings: 10 stale (lost writes), 2 torn");
    let mut o = String::new();
    section(&mut o, &v, false);
    assert!(o.contains("torn                2           1"), "{o}");
    assert!(o.contains("0x2000 stale"), "{o}");
    assert!(o.contains("5→4"), "{o}");
}

#[test]
fn digits_are_grouped_by_three() {
    assert_eq!(grouped(0), "0");
    assert_eq!(grouped(999), "999");
    assert_eq!(grouped(1000), "1,000");
    assert_eq!(grouped(1_234_567), "1,234,567");
}

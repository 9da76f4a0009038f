//! Axes, units and label placement of the charts.

use super::*;

#[test]
fn log_ticks_cover_the_range_in_round_steps() {
    let (lo, hi, t) = log_ticks(3900.0, 6600.0);
    assert_eq!((lo, hi), (2000.0, 10000.0));
    assert_eq!(t, [2000.0, 5000.0, 10000.0]);
    let (lo, hi, t) = log_ticks(80.0, 120_000.0);
    assert_eq!((lo, hi, t.len()), (30.0, 300_000.0, 9));
    assert_eq!(Unit::Micros.label(2000.0), "2 ms");
    assert_eq!(Unit::Bytes.label(16384.0), "16K");
}

#[test]
fn labels_that_would_overlap_are_moved_apart() {
    let mut p = Placer::default();
    let a = p.place("IOPS cap 5,000", 900.0, 100.0, true, 0.0, 300.0);
    let b = p.place("IOPS cap 5,010", 900.0, 101.0, true, 0.0, 300.0);
    assert_eq!(a, (900.0, 100.0));
    assert!((b.1 - a.1).abs() >= FONT, "{a:?} {b:?}");
    let c = p.place("knee QD 1", 100.0, 100.0, false, 0.0, 300.0);
    assert_eq!(c, (100.0, 100.0), "far enough left");
}

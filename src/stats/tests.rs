use super::*;

#[test]
fn exact_moments_and_bounded_percentiles() {
    let mut r = LatRec::default();
    for v in 1..=1000u64 {
        r.record(v * 1000);
    }
    assert_eq!(r.count(), 1000);
    assert_eq!(r.mean_ns(), Some(500_500.0));
    let p50 = r.percentile_ns(50.0).unwrap();
    assert!((p50 - 500_000.0).abs() / 500_000.0 < 0.001, "{p50}");
    assert_eq!(r.percentile_ns(99.9999999).unwrap(), 1_000_000.0);
    let s = r.summary();
    assert_eq!(s.min, Some(1.0));
    assert_eq!(s.max, Some(1000.0));
    assert_eq!(s.percentiles.0.len(), 23);
    assert_eq!(s.percentiles.0[16].0, "99.9");
}

#[test]
fn merge_equals_single_recording_and_dump_round_trips() {
    let (mut a, mut b, mut all) = (LatRec::default(), LatRec::default(), LatRec::default());
    for v in 0..5000u64 {
        let ns = 1000 + v * 37 % 90_000;
        if v % 3 == 0 {
            a.record(ns)
        } else {
            b.record(ns)
        }
        all.record(ns);
    }
    a += &b;
    assert_eq!(a.summary(), all.summary());
    let back = LatRec::from_dump(&all.dump());
    assert_eq!(back.summary(), all.summary());
    assert_eq!(back.dump(), all.dump());
}

#[test]
fn a_recorder_never_made_merges_and_dumps_as_an_empty_one() {
    let mut made = LatRec::default();
    made.prefault();
    let unmade = LatRec::default();
    assert_eq!(unmade.dump(), made.dump());
    let mut one = LatRec::default();
    one.record(4_000);
    // Either side of a merge may be unmade; the merge keeps the recorded side exactly.
    let mut into_unmade = LatRec::default();
    into_unmade += &one;
    let mut into_made = made.clone();
    into_made += &one;
    let mut from_unmade = one.clone();
    from_unmade += &unmade;
    for r in [&into_unmade, &into_made, &from_unmade] {
        assert_eq!(r.dump(), one.dump());
        assert_eq!(r.percentile_ns(50.0), Some(4_000.0));
    }
    // Made on its first record without prefault: the same figures as a prefaulted one.
    made.record(4_000);
    assert_eq!(made.dump(), one.dump());
}

#[test]
fn the_run_clock_keeps_time_with_the_os_clock_from_its_origin() {
    let clock = clock::RunClock::start();
    let mut last = 0;
    for _ in 0..5 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        // Bracketed by the OS clock, so a preemption between the reads cannot fail the test.
        let a = clock.origin().elapsed().as_nanos() as f64;
        let ns = clock.ns();
        let b = clock.origin().elapsed().as_nanos() as f64;
        // Calibration error is parts per million of the time elapsed; the origin is one moment.
        let slack = a * 1e-4 + 5_000.0;
        assert!(ns as f64 >= a - slack && ns as f64 <= b + slack, "run clock {ns} ns, OS clock {a}..{b} ns");
        assert!(ns >= last);
        last = ns;
    }
}

#[test]
fn empty_recorder_reports_nulls() {
    let s = LatRec::default().summary();
    assert_eq!(s.mean, None);
    assert!(s.percentiles.0.iter().all(|(_, v)| v.is_none()));
    let json = serde_json::to_string(&s).unwrap();
    assert!(json.contains("\"99.9999999\":null"), "{json}");
}

#[test]
fn millisecond_histogram() {
    let mut r = LatRec::default();
    for ns in [200_000, 900_000, 1_500_000, 23_500_000, 24_100_000, 90_000_000] {
        r.record(ns);
    }
    let h = r.dump().per_ms();
    assert_eq!((h[0], h[1], h[23], h[24]), (2, 1, 1, 2));
    assert_eq!(h.iter().sum::<u64>(), 6);
}

#[test]
fn dump_percentiles_match_recorder() {
    let mut r = LatRec::default();
    // A few thousand values over five decades, with repeats, so buckets hold several.
    for v in 0..4000u64 {
        r.record(300 + v * v * 7919 % 50_000_000 / (1 + v % 7));
    }
    let d = r.dump();
    for p in PERCENTILES.iter().map(|p| p.parse::<f64>().unwrap()).chain([99.95, 100.0, 0.001]) {
        assert_eq!(d.percentile_ns(p).map(|v| v as f64), r.percentile_ns(p), "p{p}");
    }
    assert_eq!(LatRec::default().dump().percentile_ns(50.0), None);
}

#[test]
fn iops_stddev() {
    assert_eq!(stddev(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]), 2.0);
}

#[test]
fn a_zero_latency_is_one_nanosecond_in_every_figure() {
    let mut r = LatRec::default();
    r.record(0);
    r.record(0);
    let d = r.dump();
    assert_eq!((d.min_ns, d.max_ns, d.sum_ns), (1, 1, 2));
    assert_eq!(d.buckets, vec![(1, 2)]);
    assert_eq!(r.mean_ns(), Some(1.0));
}

//! Verdicts earned: walls found only in points measured together, a point that disagrees with
//! its neighbours not trusted until measured again, and "not sure" where repeats of one point
//! lie further apart than a wall is told by. The figures are the field's (issue reports).

use super::Point;
use crate::analyze::catalog::Catalog;
use crate::analyze::{explain, Config};

fn at(read: bool, set: u32, qd: u32, iops: f64) -> Point {
    Point {
        bs: 4096,
        outstanding: qd,
        read,
        iops,
        mbps: iops * 4096.0 / 1e6,
        lat_us: f64::from(qd) / iops * 1e6,
        workers: 1,
        set,
        ..Point::default()
    }
}

fn explained(pts: &[Point]) -> crate::result::analysis::Explanation {
    explain(pts, &Catalog::load_with(None, None).unwrap(), &Config::default(), 0.10, &Default::default()).unwrap()
}

#[test]
fn a_profile_test_is_not_a_step_of_the_sweep() {
    // check: CrystalDiskMark's RND4K Q1T1 gave 5,458 IOPS; the sweep, minutes later, 2,000 at
    // QD 1 and 3,824 at QD 2, rising to 50,000 at QD 32. Mixed, QD 1 → 2 looked like -30 %.
    let mut pts = vec![at(true, 1, 1, 5458.0), at(true, 1, 32, 73_906.0)];
    for (q, iops) in [(1, 2000.0), (2, 3824.0), (4, 7500.0), (8, 14_000.0), (16, 27_000.0), (32, 50_000.0)] {
        pts.push(at(true, 0, q, iops));
    }
    let e = explained(&pts);
    let r = e.reads.as_ref().unwrap();
    assert_eq!(r.knee_qd, None, "{r:?}");
    let lb = r.latency_bound.as_ref().expect("latency-bound along the sweep");
    assert_eq!((lb.from_qd, lb.to_qd), (1, 32));
    assert!(!e.advice.iter().any(|a| a.because.contains("QD 1 → 2")), "{:?}", e.advice);
    // The repeated workload (4K random read QD 1 in both sets) says how repeatable the disk was.
    let rep = e.repeatability.as_ref().expect("one point measured twice");
    assert_eq!(rep.points, 2);
    assert!(rep.worst.starts_with("4K random read QD "), "{}", rep.worst);
}

#[test]
fn one_noisy_step_makes_no_cache_and_no_knee() {
    // A live explain: writes 1,556 IOPS at QD 1, 30,276 at QD 2 (19× for twice the I/Os), the
    // reads 18.6× faster there and 2.07× at QD 32.
    let reads = [28_940.0, 45_000.0, 60_000.0, 66_000.0, 68_000.0, 70_000.0];
    let writes = [1556.0, 30_276.0, 31_500.0, 32_500.0, 33_000.0, 33_800.0];
    let mut pts = Vec::new();
    for (i, q) in [1, 2, 4, 8, 16, 32].into_iter().enumerate() {
        pts.push(at(true, 0, q, reads[i]));
        pts.push(at(false, 0, q, writes[i]));
    }
    let e = explained(&pts);
    // The median of the pairs: 2.05×, and at QD 2 reads were only 1.5× writes: a read cache is
    // no more than a guess.
    let r = e.read_write_ratio.unwrap();
    assert!((r - 2.046).abs() < 0.01, "{r}");
    assert_eq!(e.ratio_unsure.as_deref(), Some("at 4K random QD 2 reads were 1.5× writes"));
    let cache = e.advice.iter().find(|a| a.advice.contains("read cache")).expect("the cache advice");
    assert_eq!(cache.unsure, e.ratio_unsure);
    assert!(crate::report::findings(&e).contains("- Not sure: Reads are 2.0× faster than writes"));
    // The writes' QD 1 disagrees with QD 2 and was measured once: their knee is not sure.
    let w = e.writes.as_ref().unwrap();
    let why = w.unsure.get("knee_qd").expect("the writes' knee doubted");
    assert_eq!(why, "QD 1's 1,556 IOPS disagrees with its neighbours and was measured once");
    assert!(e.reads.as_ref().unwrap().unsure.is_empty(), "{:?}", e.reads);
}

#[test]
fn a_point_measured_again_counts_by_the_measurement_near_its_neighbours() {
    // The same writes with QD 1 measured again (15,500): taken, and no longer doubted; but the
    // two lie 164 % apart, so every wall is "not sure".
    let writes = [30_276.0, 31_500.0, 32_500.0, 33_000.0, 33_800.0];
    let mut pts = vec![at(false, 0, 1, 1556.0), at(false, 0, 1, 15_500.0)];
    for (i, q) in [2, 4, 8, 16, 32].into_iter().enumerate() {
        pts.push(at(false, 0, q, writes[i]));
    }
    let e = explained(&pts);
    let rep = e.repeatability.clone().unwrap();
    assert_eq!(rep.points, 1);
    assert!((rep.spread_pct - 163.5).abs() < 0.1, "{}", rep.spread_pct);
    // 30,276 → 31,500 at QD 2 → 4 is +4 %: the knee.
    assert_eq!(rep.worst, "4K random write QD 1: 1,556, 15,500 IOPS");
    let w = e.writes.as_ref().unwrap();
    assert_eq!(w.knee_qd, Some(2), "{w:?}");
    let why = w.unsure.get("knee_qd").expect("doubted by the spread");
    assert!(why.starts_with("repeated points lie up to 164 % apart"), "{why}");
    assert!(e.advice.iter().all(|a| a.unsure.is_some()), "{:?}", e.advice);
    let text = crate::report::findings(&e);
    assert!(text.contains("- Not sure: Past QD 2 more outstanding I/O only adds waiting."), "{text}");
    assert!(text.contains("(not sure)"), "{text}");
    assert!(
        text.contains("The same test repeated came out up to 164 % apart (4K random write QD 1: 1,556, 15,500 IOPS)"),
        "the verdict says it: {text}"
    );
    assert!(text.contains("repeatability: 1 point measured more than once; the furthest apart by 164 %"), "{text}");
}

#[test]
fn a_repeatable_target_keeps_its_verdicts() {
    // QD 1 measured twice, 3 % apart; a knee at QD 4.
    let mut pts = vec![at(true, 0, 1, 10_000.0), at(true, 0, 1, 10_300.0)];
    for (q, iops) in [(2, 19_500.0), (4, 30_000.0), (8, 30_500.0), (16, 30_600.0)] {
        pts.push(at(true, 0, q, iops));
    }
    let e = explained(&pts);
    let r = e.reads.as_ref().unwrap();
    assert_eq!(r.knee_qd, Some(4));
    assert!(r.unsure.is_empty(), "{:?}", r.unsure);
    assert!(e.advice.iter().all(|a| a.unsure.is_none()), "{:?}", e.advice);
    assert!((e.repeatability.unwrap().spread_pct - 2.96).abs() < 0.01);
    // Measured once each: nothing to say how repeatable it was, and the report says so.
    let once = explained(&pts[1..]);
    assert!(once.repeatability.is_none());
    assert!(crate::report::findings(&once).contains("repeatability: not measured: no point was measured twice"));
}

//! What a set of measurements says about the walls a disk hits: the latency-bound region and
//! the knee of a queue-depth sweep (Little's law: IOPS = outstanding I/Os ÷ latency), an IOPS
//! cap (IOPS flat across small blocks), a bandwidth cap (MB/s flat across large ones), which
//! binds at each block size, and a throttle that flattens everything.

use crate::result::analysis::{Flat, LatencyBound, Throttle, Wall, Walls};
use crate::result::{RunResult, TestResult};
use std::collections::BTreeMap;

/// Within this fraction two figures are "the same" (a plateau).
const FLAT: f64 = 0.10;
/// Growth below this fraction is no growth (the knee).
const KNEE: f64 = 0.05;
/// Blocks this large are bandwidth's: CrystalDiskMark's sequential tests use 1 MiB.
const LARGE: u64 = 128 << 10;

/// One pure read or pure write test with one block size.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub bs: u64,
    /// I/Os in flight: queue depth × worker threads, every target's and every rank's (a
    /// multi-host test's ranks press on the storage together, even on one shared target).
    pub outstanding: u32,
    pub read: bool,
    pub iops: f64,
    /// 10^6 B/s.
    pub mbps: f64,
    pub lat_us: f64,
}

impl Point {
    pub fn of(t: &TestResult) -> Option<Point> {
        let s = &t.spec;
        if s.blocks.len() != 1 || !(s.read_pct == 0 || s.read_pct == 100) || t.total.ios == 0 {
            return None;
        }
        let workers = match t.threads.len() {
            0 => s.threads * s.targets.len().max(1) as u32,
            n => n as u32,
        };
        Some(Point {
            bs: s.blocks[0].size,
            outstanding: t.depth * workers,
            read: s.read_pct == 100,
            iops: t.total.iops,
            mbps: t.total.mbps,
            lat_us: t.total.lat_us.mean?,
        })
    }
}

pub fn points(results: &[RunResult]) -> Vec<Point> {
    results.iter().flat_map(|r| r.tests.iter()).filter_map(Point::of).collect()
}

fn median(values: impl Iterator<Item = f64>) -> Option<f64> {
    let mut v: Vec<f64> = values.collect();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= FLAT * a.abs().max(b.abs())
}

/// The series with the most distinct values of `vary` among points sharing `key`; ties go to
/// the smallest key when `smallest`.
fn series<K: Ord + Copy>(
    pts: &[&Point],
    key: impl Fn(&Point) -> K,
    vary: impl Fn(&Point) -> u64,
    smallest: bool,
) -> Vec<Point> {
    let mut groups: BTreeMap<K, BTreeMap<u64, Point>> = BTreeMap::new();
    for p in pts {
        let g = groups.entry(key(p)).or_default();
        // The best of repeated measurements of one point.
        match g.get(&vary(p)) {
            Some(q) if q.iops >= p.iops => {}
            _ => {
                g.insert(vary(p), (*p).clone());
            }
        }
    }
    let best = groups.values().map(BTreeMap::len).max().unwrap_or(0);
    let mut pick = groups.into_values().filter(|g| g.len() == best);
    let g = if smallest { pick.next() } else { pick.last() };
    g.map(|g| g.into_values().collect()).unwrap_or_default()
}

/// The walls found in the points of one direction.
pub fn walls(pts: &[&Point]) -> Walls {
    let mut w = Walls::default();
    let qd = series(pts, |p| p.bs, |p| p.outstanding as u64, true);
    if qd.len() >= 2 {
        w.sweep_bs = Some(qd[0].bs);
        // Latency-bound: IOPS grows (nearly) in step with the outstanding I/Os.
        let mut end = 0;
        while end + 1 < qd.len() {
            let (a, b) = (&qd[end], &qd[end + 1]);
            if b.iops / a.iops < 0.7 * (b.outstanding as f64 / a.outstanding as f64) {
                break;
            }
            end += 1;
        }
        if end > 0 {
            let lat = qd[..=end].iter().map(|p| p.lat_us).sum::<f64>() / (end + 1) as f64;
            w.latency_bound =
                Some(LatencyBound { from_qd: qd[0].outstanding, to_qd: qd[end].outstanding, latency_us: lat });
        }
        w.knee_qd = qd
            .windows(2)
            .find(|p| p[1].iops < p[0].iops * (1.0 + KNEE) && p[1].lat_us > p[0].lat_us)
            .map(|p| p[0].outstanding);
    }
    // Even one I/O at a time reaches the limit, and block sizes do not move it either.
    let spread = qd.last().map_or(1, |p| p.outstanding) / qd.first().map_or(1, |p| p.outstanding.max(1));
    let qd_flat = qd.len() >= 2 && spread >= 4 && qd.iter().all(|p| same(p.iops, qd[0].iops));
    let bs = series(pts, |p| p.outstanding, |p| p.bs, false);
    if bs.len() >= 2 {
        w.sweep_qd = Some(bs[0].outstanding);
        let flat_iops = bs.iter().take_while(|p| same(p.iops, bs[0].iops)).count();
        let last = bs.last().expect("two or more");
        let flat_mbps = bs.iter().rev().take_while(|p| same(p.mbps, last.mbps)).count();
        if flat_iops >= 2 {
            w.iops_cap = bs[..flat_iops].iter().map(|p| p.iops).reduce(f64::max);
        }
        if flat_mbps >= 2 && flat_iops < bs.len() {
            // The plateau's median, not its top: a throttle's slice (and a cloud disk's burst
            // bucket) lets one short step run above the cap, which the others do not repeat.
            w.mbps_cap = median(bs[bs.len() - flat_mbps..].iter().map(|p| p.mbps));
        } else if flat_iops < bs.len() {
            w.mbps_cap = plateau_beyond(pts, last);
        }
        if qd_flat && (flat_iops == bs.len() || flat_mbps == bs.len()) {
            w.throttle = Some(throttle(&qd, if flat_iops == bs.len() { Flat::Iops } else { Flat::Mbps }));
        }
        if let (Some(i), Some(m)) = (w.iops_cap, w.mbps_cap) {
            w.crossover_bs = Some((m * 1e6 / i).round() as u64);
        }
        for p in &bs {
            let b = if w.iops_cap.is_some_and(|c| p.iops >= (1.0 - FLAT) * c) {
                Wall::Iops
            } else if w.mbps_cap.is_some_and(|c| p.mbps >= (1.0 - FLAT) * c) {
                Wall::Mbps
            } else if w.throttle.is_some() {
                Wall::Throttle
            } else {
                Wall::Latency
            };
            w.binding.insert(crate::workload::size::format_block(p.bs), b);
        }
    }
    if qd_flat && bs.len() < 2 {
        let t = throttle(&qd, Flat::Iops);
        w.iops_cap = Some(t.iops);
        w.throttle = Some(t);
    }
    w
}

/// A sweep its budget cut short, which left the IOPS cap at `last` (or jumped from there to 1M):
/// blocks as large or larger measured at other depths (check's SEQ1M Q8T1 and Q1T1) complete
/// the plateau when one of them repeats `last`'s MB/s and none goes above it.
fn plateau_beyond(pts: &[&Point], last: &Point) -> Option<f64> {
    let larger: Vec<f64> = pts
        .iter()
        .filter(|p| p.bs >= last.bs.max(LARGE) && (p.bs, p.outstanding) != (last.bs, last.outstanding))
        .map(|p| p.mbps)
        .collect();
    let on = larger.iter().filter(|&&m| same(m, last.mbps)).count();
    let above = larger.iter().any(|&m| m > last.mbps * (1.0 + FLAT));
    (on > 0 && !above).then(|| median(larger.iter().copied().filter(|&m| same(m, last.mbps)).chain([last.mbps])))?
}

fn throttle(qd: &[Point], on: Flat) -> Throttle {
    let top = qd.iter().fold(&qd[0], |m, p| if p.iops > m.iops { p } else { m });
    Throttle { iops: top.iops, mbps: top.mbps, on }
}

/// The largest ratio of read to write IOPS at the same block size and outstanding I/Os.
pub fn read_write_ratio(pts: &[Point]) -> Option<f64> {
    pts.iter()
        .filter(|p| p.read)
        .filter_map(|r| {
            let w = pts
                .iter()
                .filter(|w| !w.read && w.bs == r.bs && w.outstanding == r.outstanding)
                .map(|w| w.iops)
                .reduce(f64::max)?;
            (w > 0.0).then(|| r.iops / w)
        })
        .reduce(f64::max)
}

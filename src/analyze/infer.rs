//! What a set of measurements says about the walls a disk hits: the latency-bound region and
//! the knee of a queue-depth sweep (Little's law: IOPS = outstanding I/Os ÷ latency), an IOPS
//! cap (IOPS flat across small blocks), a bandwidth cap (MB/s flat across large ones), which
//! binds at each block size, and a throttle that flattens everything.

use super::noise;
use crate::result::analysis::{Flat, LatencyBound, Throttle, Wall, Walls};
use crate::result::{RunResult, TestResult};
use std::collections::BTreeMap;

/// Within this fraction two figures are "the same" (a plateau).
pub const FLAT: f64 = 0.10;
/// Growth below this fraction is no growth (the knee).
const KNEE: f64 = 0.05;
/// Blocks this large are bandwidth's: CrystalDiskMark's sequential tests use 1 MiB.
const LARGE: u64 = 128 << 10;

/// One pure read or pure write test with one block size.
#[derive(Debug, Clone, PartialEq, Default)]
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
    pub seq: bool,
    pub workers: u32,
    /// Which result it came from (of those explained together), which set of tests measured
    /// together within it (check's CrystalDiskMark profile is one, its sweep another), and
    /// its test's position there.
    pub result: u32,
    pub set: u32,
    pub test: u32,
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
            seq: s.pattern == crate::workload::Pattern::Sequential,
            workers,
            ..Point::default()
        })
    }

    /// The workload it measured: points alike in this are repeats of one another.
    fn workload(&self) -> (u32, bool, bool, u64, u32, u32) {
        (self.result, self.read, self.seq, self.bs, self.outstanding, self.workers)
    }

    /// "4K random read QD 1".
    pub fn describe(&self) -> String {
        format!(
            "{} {} {} QD {}",
            crate::workload::size::format_block(self.bs),
            if self.seq { "sequential" } else { "random" },
            if self.read { "read" } else { "write" },
            self.outstanding
        )
    }
}

/// The points of `r`'s tests, as the `result`th of those explained together.
pub fn of_result(r: &RunResult, result: u32) -> Vec<Point> {
    r.tests
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let p = Point::of(t)?;
            Some(Point { result, set: u32::from(r.in_check_profile(t)), test: i as u32, ..p })
        })
        .collect()
}

pub fn points(results: &[RunResult]) -> Vec<Point> {
    results.iter().enumerate().flat_map(|(i, r)| of_result(r, i as u32)).collect()
}

/// How far repeated measurements of one workload in one result lie apart; None when no point
/// was measured twice.
pub fn repeatability(pts: &[Point]) -> Option<crate::result::analysis::Repeatability> {
    let mut by: BTreeMap<_, Vec<&Point>> = BTreeMap::new();
    for p in pts {
        by.entry(p.workload()).or_default().push(p);
    }
    let repeated: Vec<&Vec<&Point>> = by.values().filter(|v| v.len() >= 2).collect();
    let spread = |v: &Vec<&Point>| noise::spread(&v.iter().map(|p| p.iops).collect::<Vec<_>>());
    let worst = repeated.iter().max_by(|a, b| spread(a).total_cmp(&spread(b)))?;
    let figures: Vec<String> = worst.iter().map(|p| crate::analyze::thousands(p.iops)).collect();
    Some(crate::result::analysis::Repeatability {
        points: repeated.len() as u32,
        spread_pct: spread(worst),
        worst: format!("{}: {} IOPS", worst[0].describe(), figures.join(", ")),
    })
}

/// One point of a line: the measurement taken of it, and whether it disagrees with its
/// neighbours though measured only once.
#[derive(Debug, Clone)]
pub struct Measured {
    pub p: Point,
    pub doubtful: bool,
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

/// Where a MB/s cap was seen: the queue depths and the MB/s range of the points at `sizes`
/// (as the binding map names them) within 10 % of `cap`, e.g. "QD 1, 8 and 32: 2,575–2,981 MB/s".
pub fn cap_span(pts: &[&Point], sizes: &[&String], cap: f64) -> Option<String> {
    let on: Vec<&&Point> = pts
        .iter()
        .filter(|p| same(p.mbps, cap) && sizes.iter().any(|s| **s == crate::workload::size::format_block(p.bs)))
        .collect();
    let lo = on.iter().map(|p| p.mbps).reduce(f64::min)?;
    let hi = on.iter().map(|p| p.mbps).fold(lo, f64::max);
    let qd: std::collections::BTreeSet<u32> = on.iter().map(|p| p.outstanding).collect();
    let qd: Vec<String> = qd.iter().map(u32::to_string).collect();
    let qd = match qd.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => qd.join(""),
    };
    let (lo, hi) = (super::thousands(lo), super::thousands(hi));
    Some(if lo == hi { format!("QD {qd}: {lo} MB/s") } else { format!("QD {qd}: {lo}–{hi} MB/s") })
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= FLAT * a.abs().max(b.abs())
}

/// The line with the most distinct values of `vary` among points sharing `key` (ties go to the
/// smallest key when `smallest`), each point's measurements resolved by `noise::pick` on
/// `value` and judged against its neighbours.
pub fn line<K: Ord + Copy>(
    pts: &[&Point],
    key: impl Fn(&Point) -> K,
    vary: impl Fn(&Point) -> u64,
    smallest: bool,
    value: fn(&Point) -> f64,
) -> Vec<Measured> {
    let mut groups: BTreeMap<K, BTreeMap<u64, Vec<Point>>> = BTreeMap::new();
    for p in pts {
        groups.entry(key(p)).or_default().entry(vary(p)).or_default().push((*p).clone());
    }
    let best = groups.values().map(BTreeMap::len).max().unwrap_or(0);
    let mut pick = groups.into_values().filter(|g| g.len() == best);
    let Some(g) = (if smallest { pick.next() } else { pick.last() }) else { return Vec::new() };
    let reps: Vec<(u64, Vec<Point>)> = g.into_iter().collect();
    let values: Vec<Vec<f64>> = reps.iter().map(|(_, ps)| ps.iter().map(value).collect()).collect();
    let chosen: Vec<Point> = noise::resolve(&values).into_iter().zip(&reps).map(|(k, (_, ps))| ps[k].clone()).collect();
    let x: Vec<u64> = reps.iter().map(|(x, _)| *x).collect();
    let v: Vec<f64> = chosen.iter().map(value).collect();
    chosen
        .into_iter()
        .enumerate()
        .map(|(i, p)| Measured { p, doubtful: reps[i].1.len() == 1 && noise::outlier(&x, &v, i) })
        .collect()
}

/// The queue-depth line (IOPS by I/Os in flight at one block size, one set of tests).
pub fn qd_line(pts: &[&Point]) -> Vec<Measured> {
    line(pts, |p| (p.bs, p.result, p.set, p.seq), |p| p.outstanding as u64, true, |p| p.iops)
}

/// The block-size line (MB/s by block size at one depth, one set of tests).
pub fn bs_line(pts: &[&Point]) -> Vec<Measured> {
    line(pts, |p| (p.outstanding, p.result, p.set, p.seq), |p| p.bs, false, |p| p.mbps)
}

/// Why the walls a line's doubtful points sit in cannot be trusted: "QD 2's 30,276 IOPS
/// disagrees with its neighbours and was measured once".
fn doubt(l: &[Measured], what: impl Fn(&Point) -> String) -> Option<String> {
    let d: Vec<String> = l.iter().filter(|m| m.doubtful).map(|m| what(&m.p)).collect();
    (!d.is_empty()).then(|| {
        let one = d.len() == 1;
        format!(
            "{} {} with {} neighbours and {} measured once",
            d.join(", "),
            if one { "disagrees" } else { "disagree" },
            if one { "its" } else { "their" },
            if one { "was" } else { "were" }
        )
    })
}

/// The walls found in the points of one direction.
pub fn walls(pts: &[&Point]) -> Walls {
    let mut w = Walls::default();
    let qd_measured = qd_line(pts);
    let qd: Vec<Point> = qd_measured.iter().map(|m| m.p.clone()).collect();
    if qd.len() >= 2 {
        w.sweep_bs = Some(qd[0].bs);
        w.deepest_qd = qd.last().map(|p| p.outstanding);
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
    let bs_measured = bs_line(pts);
    let bs: Vec<Point> = bs_measured.iter().map(|m| m.p.clone()).collect();
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
    let by_qd = doubt(&qd_measured, |p| format!("QD {}'s {} IOPS", p.outstanding, crate::analyze::thousands(p.iops)));
    let by_bs = doubt(&bs_measured, |p| format!("{}'s {:.1} MB/s", crate::workload::size::format_block(p.bs), p.mbps));
    let mut unsure = |field: &str, why: &Option<String>| {
        if let Some(y) = why {
            w.unsure.insert(field.into(), y.clone());
        }
    };
    if qd.len() >= 2 {
        unsure("knee_qd", &by_qd);
        unsure("latency_bound", &by_qd);
    }
    if bs.len() >= 2 {
        unsure("iops_cap", &by_bs);
        unsure("mbps_cap", &by_bs);
    }
    if w.throttle.is_some() {
        unsure("throttle", &by_qd.or(by_bs));
    }
    w
}

/// A sweep its budget cut short, which left the IOPS cap at `last` (or jumped from there to 1M):
/// blocks as large or larger measured at other depths (check's SEQ1M Q8T1 and Q1T1) complete
/// the plateau when one of them repeats `last`'s MB/s and none goes above it.
fn plateau_beyond(pts: &[&Point], last: &Point) -> Option<f64> {
    let larger: Vec<f64> = pts
        .iter()
        .filter(|p| p.result == last.result)
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

/// Read over write IOPS at the same workload measured together: the median over such pairs
/// (a repeated point counts by its median), with why it may not hold when it says 2× or more:
/// pairs that disagree about it, or repeats further apart than the margin over 2×.
pub fn read_write_ratio(pts: &[Point], spread_pct: Option<f64>) -> (Option<f64>, Option<String>) {
    // Per (result, set, sequential, block size, I/Os in flight): the reads' and writes' IOPS.
    type Pair = (Vec<f64>, Vec<f64>);
    let mut by: BTreeMap<(u32, u32, bool, u64, u32), Pair> = BTreeMap::new();
    for p in pts {
        let e = by.entry((p.result, p.set, p.seq, p.bs, p.outstanding)).or_default();
        if p.read { &mut e.0 } else { &mut e.1 }.push(p.iops);
    }
    let mid = |v: &[f64]| v[noise::pick(v, None)];
    let mut pairs: Vec<(f64, String)> = by
        .iter()
        .filter(|(_, (r, w))| !r.is_empty() && !w.is_empty() && mid(w) > 0.0)
        .map(|((_, _, seq, bs, q), (r, w))| {
            let at = format!(
                "{} {} QD {q}",
                crate::workload::size::format_block(*bs),
                if *seq { "sequential" } else { "random" }
            );
            (mid(r) / mid(w), at)
        })
        .collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let Some(r) = (!pairs.is_empty()).then(|| median(pairs.iter().map(|p| p.0))).flatten() else { return (None, None) };
    let why = if r < 2.0 {
        None
    } else if pairs[0].0 < 2.0 * (1.0 - FLAT) {
        Some(format!("at {} reads were {:.1}× writes", pairs[0].1, pairs[0].0))
    } else {
        spread_pct
            .filter(|s| r < 2.0 * (1.0 + s / 100.0))
            .map(|s| format!("repeated points lie up to {s:.0} % apart: more than {r:.1}× is above 2×"))
    };
    (Some(r), why)
}

#[cfg(test)]
mod tests;

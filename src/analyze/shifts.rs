//! Level shifts in a test's per-second figures: where IOPS, MB/s or latency moved to a new
//! level and held it for a while (a burst bucket running dry, a throttle stepping in, a write
//! cache filling).
//!
//! The method, and why (docs/shifts.md has the long form): optimal partitioning of the series
//! into segments of constant mean (PELT: Killick, Fearnhead & Eckley 2012, exact and linear in
//! practice) under a penalty scaled by the series' own noise, estimated robustly from its
//! second-to-second differences so that the level changes themselves and a stalled second do
//! not inflate it. A real disk's seconds are heavy-tailed and correlated, so the partition
//! over-splits; neighbouring segments are then merged, weakest boundary first, until every
//! boundary left is a change of at least `MIN_CHANGE` of the level and at least `SPREADS`
//! robust spreads of the noisier side. What is left is what a person looking at the chart
//! would call a new level.

pub mod cause;
pub mod signature;

use super::{catalog::Catalog, Config};
use crate::result::shifts::{Level, Metric, Shift, TestShifts};
use crate::result::{SecondStats, TestResult};

/// No level lasts less than this many seconds: shorter moves are noise or a hiccup.
pub const MIN_SECONDS: usize = 5;
/// The smallest change reported, as a fraction of the larger level.
pub const MIN_CHANGE: f64 = 0.10;
/// And it must stand out of the seconds' scatter by this many robust spreads.
pub const SPREADS: f64 = 3.0;
/// The partition's penalty per segment, in units of σ² ln n (BIC's is 2; more, as the noise
/// is not independent from second to second).
const PENALTY: f64 = 4.0;

/// The shifts of every metric of a test's per-second rows, in time order. `duration_s` is the
/// measured window: a last second cut short is left out, as its rate is a fraction's.
pub fn find(seconds: &[SecondStats], duration_s: f64) -> Vec<Shift> {
    let full = ((duration_s + 1e-6).floor() as usize).min(seconds.len());
    let rows = &seconds[..full];
    let mut out: Vec<Shift> = Vec::new();
    for metric in Metric::ALL {
        let Some(xs) = series(rows, metric) else { continue };
        for s in in_series(&xs, metric) {
            // MB/s moving with IOPS by the same ratio says nothing more (one block size).
            let echo = metric == Metric::Mbps
                && out.iter().any(|o| {
                    o.metric == Metric::Iops && o.at_s.abs_diff(s.at_s) <= 2 && (o.change() - s.change()).abs() < 0.03
                });
            if !echo {
                out.push(s);
            }
        }
    }
    out.sort_by_key(|s| (s.at_s, s.metric as u8));
    out
}

/// The shifts of `tests` with their causes named; a test stored before shifts were kept has
/// them found now.
pub fn explained<'a>(
    tests: impl Iterator<Item = &'a TestResult>,
    cat: &Catalog,
    cfg: &Config,
    tol: f64,
) -> Vec<TestShifts> {
    let mut out: Vec<TestShifts> = tests
        .filter_map(|t| {
            let mut shifts = if t.shifts.is_empty() { find(&t.seconds, t.duration_s) } else { t.shifts.clone() };
            for s in &mut shifts {
                s.cause = cause::name(s, t, cat, cfg, tol);
            }
            let h = &t.histograms;
            let throttle_signature = signature::token_bucket(&h.read).or_else(|| signature::token_bucket(&h.write));
            (!shifts.is_empty() || throttle_signature.is_some()).then(|| TestShifts {
                test: t.name.clone(),
                shifts,
                throttle_signature,
            })
        })
        .collect();
    // A sweep under a throttle shows the signature at every deep enough point: said once.
    let marked: Vec<usize> = (0..out.len()).filter(|&i| out[i].throttle_signature.is_some()).collect();
    if let Some((first, rest)) = marked.split_first().filter(|(_, rest)| !rest.is_empty()) {
        for &i in rest {
            out[i].throttle_signature = None;
        }
        if let Some(s) = out[*first].throttle_signature.as_mut() {
            *s += &format!("; {} more tests show it too", rest.len());
        }
        out.retain(|t| !t.shifts.is_empty() || t.throttle_signature.is_some());
    }
    out
}

/// One metric's values, a second without a latency figure (no I/O completed) taking the
/// one before it; None when no second has one.
fn series(rows: &[SecondStats], metric: Metric) -> Option<Vec<f64>> {
    let pick = |r: &SecondStats| match metric {
        Metric::Iops => Some(r.iops),
        Metric::Mbps => Some(r.mbps),
        Metric::LatP50Us => r.p50_us,
        Metric::LatP99Us => r.p99_us,
    };
    let first = rows.iter().find_map(pick)?;
    let mut last = first;
    Some(
        rows.iter()
            .map(|r| {
                last = pick(r).unwrap_or(last);
                last
            })
            .collect(),
    )
}

/// The shifts of one series.
pub fn in_series(xs: &[f64], metric: Metric) -> Vec<Shift> {
    let mut bounds = partition(xs);
    while let Some((i, _)) = weakest(xs, &bounds).filter(|(_, score)| *score < 1.0) {
        bounds.remove(i);
    }
    let levels: Vec<Level> = bounds.windows(2).map(|w| level(xs, w[0], w[1])).collect();
    levels
        .windows(2)
        .enumerate()
        .map(|(i, w)| Shift {
            at_s: w[1].start_s,
            metric,
            before: w[0],
            after: w[1],
            stayed: i + 2 == levels.len(),
            cause: None,
        })
        .collect()
}

/// The inner boundary that is the least of a shift, and how much of one it is: below 1 it is
/// not one (too small a change, or lost in the scatter).
fn weakest(xs: &[f64], bounds: &[usize]) -> Option<(usize, f64)> {
    (1..bounds.len().saturating_sub(1))
        .map(|i| {
            let (a, b) = (level(xs, bounds[i - 1], bounds[i]), level(xs, bounds[i], bounds[i + 1]));
            let d = (b.mean - a.mean).abs();
            let need = (MIN_CHANGE * a.mean.abs().max(b.mean.abs())).max(SPREADS * a.spread.max(b.spread));
            (i, if need > 0.0 { d / need } else { f64::INFINITY })
        })
        .min_by(|x, y| x.1.total_cmp(&y.1))
}

fn level(xs: &[f64], a: usize, b: usize) -> Level {
    let part = &xs[a..b];
    let mean = part.iter().sum::<f64>() / part.len() as f64;
    let med = median(part);
    let dev: Vec<f64> = part.iter().map(|x| (x - med).abs()).collect();
    Level { start_s: a as u32, end_s: b as u32, mean, spread: 1.4826 * median(&dev) }
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => s[n / 2],
        _ => (s[n / 2 - 1] + s[n / 2]) / 2.0,
    }
}

/// Segment boundaries, from 0 to `xs.len()`, of the penalised least-squares partition into
/// segments of at least `MIN_SECONDS` (PELT).
fn partition(xs: &[f64]) -> Vec<usize> {
    let n = xs.len();
    if n < 2 * MIN_SECONDS {
        return vec![0, n];
    }
    let diffs: Vec<f64> = xs.windows(2).map(|w| w[1] - w[0]).collect();
    let md = median(&diffs);
    let mad: Vec<f64> = diffs.iter().map(|d| (d - md).abs()).collect();
    // A difference of two seconds carries twice the variance of one.
    let sigma = (1.4826 * median(&mad) / 2f64.sqrt()).max(1e-3 * median(xs).abs()).max(1e-9);
    let beta = PENALTY * sigma * sigma * (n as f64).ln();
    let (mut p1, mut p2) = (vec![0.0; n + 1], vec![0.0; n + 1]);
    for (i, x) in xs.iter().enumerate() {
        p1[i + 1] = p1[i] + x;
        p2[i + 1] = p2[i] + x * x;
    }
    let cost = |a: usize, b: usize| {
        let s = p1[b] - p1[a];
        (p2[b] - p2[a]) - s * s / (b - a) as f64
    };
    let mut best = vec![f64::INFINITY; n + 1];
    let mut prev = vec![0usize; n + 1];
    best[0] = -beta;
    let mut cands: Vec<usize> = vec![0];
    for t in MIN_SECONDS..=n {
        if t >= 2 * MIN_SECONDS {
            cands.push(t - MIN_SECONDS);
        }
        let (s, f) = cands
            .iter()
            .map(|&s| (s, best[s] + cost(s, t) + beta))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("the best candidate is never pruned");
        best[t] = f;
        prev[t] = s;
        // No segment starting at a candidate that is already worse can win later (PELT).
        cands.retain(|&c| best[c] + cost(c, t) <= f);
    }
    let mut bounds = vec![n];
    let mut t = n;
    while t > 0 {
        t = prev[t];
        bounds.push(t);
    }
    bounds.reverse();
    bounds
}

#[cfg(test)]
mod tests;

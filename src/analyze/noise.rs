//! Noise in a sweep. On a busy VM one step can come out at a fraction, or a multiple, of its
//! neighbours (11,340 and 38,825 IOPS for the same 4K QD 1 three minutes apart): which of a
//! repeated point's measurements to take, which points disagree with their neighbours, and how
//! far repeats of one point lie apart. A verdict must not rest on one such step.

/// A point further than this fraction below both neighbours, or above both, disagrees with
/// them: the width of the plateaus the walls are found by.
pub const DISAGREE: f64 = 0.10;
/// Doubling the I/Os in flight can at most double IOPS, and doubling the block size at most
/// double MB/s; growth beyond this factor over that is a step that went wrong, not the device.
pub const SUPERLINEAR: f64 = 1.3;
/// Nor does one step more of either halve it.
const COLLAPSE: f64 = 0.5;

/// Whether `v[i]` disagrees with its neighbours along `x` (rising): an inner point below both
/// or above both by more than `DISAGREE`; the first point when the step after it grows more
/// than a device can (it came out low), the last when it falls to less than half the one
/// before (it came out low: a busy host slows a step down far more often than it speeds one up).
pub fn outlier(x: &[u64], v: &[f64], i: usize) -> bool {
    let n = v.len().min(x.len());
    if n < 2 || i >= n {
        return false;
    }
    if i > 0 && i + 1 < n {
        let (a, b) = (v[i - 1], v[i + 1]);
        return v[i] < a.min(b) * (1.0 - DISAGREE) || v[i] > a.max(b) * (1.0 + DISAGREE);
    }
    if i == 0 {
        v[1] > v[0] * (x[1] as f64 / x[0].max(1) as f64) * SUPERLINEAR
    } else {
        v[i] < v[i - 1] * COLLAPSE
    }
}

/// Which of a point's measurements to take, by index: the only one; of two, the one nearer
/// (by ratio) to `near`, its neighbours' level, since the second was taken because the first
/// disagreed with them; of more, the median (of an even count, the middle one nearer `near`).
pub fn pick(values: &[f64], near: Option<f64>) -> usize {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let n = order.len();
    if n <= 1 {
        return 0;
    }
    let mid = [order[(n - 1) / 2], order[n / 2]];
    let off = |i: usize| near.filter(|m| *m > 0.0 && values[i] > 0.0).map_or(0.0, |m| (values[i] / m).ln().abs());
    if off(mid[1]) < off(mid[0]) {
        mid[1]
    } else {
        mid[0]
    }
}

/// Which measurement of each point of a line counts (`pick`), each judged against the level of
/// its neighbours' first picks.
pub fn resolve(line: &[Vec<f64>]) -> Vec<usize> {
    let first: Vec<f64> = line.iter().map(|v| v[pick(v, None)]).collect();
    line.iter()
        .enumerate()
        .map(|(i, v)| {
            let around: Vec<f64> =
                [i.checked_sub(1), Some(i + 1)].into_iter().flatten().filter_map(|j| first.get(j).copied()).collect();
            pick(v, level(&around))
        })
        .collect()
}

/// How far apart a point's measurements lie: (max − min) ÷ mean, %.
pub fn spread(values: &[f64]) -> f64 {
    let (lo, hi) = values.iter().fold((f64::INFINITY, 0.0f64), |(l, h), &v| (l.min(v), h.max(v)));
    let mean = values.iter().sum::<f64>() / values.len().max(1) as f64;
    if values.len() < 2 || mean <= 0.0 {
        0.0
    } else {
        (hi - lo) / mean * 100.0
    }
}

/// The level a point's neighbours set: the geometric mean of their values.
pub fn level(neighbours: &[f64]) -> Option<f64> {
    let v: Vec<f64> = neighbours.iter().copied().filter(|v| *v > 0.0).collect();
    (!v.is_empty()).then(|| (v.iter().map(|v| v.ln()).sum::<f64>() / v.len() as f64).exp())
}

#[cfg(test)]
mod tests;

//! The token-bucket signature of a throttle in a test's latency: I/Os pass at once while the
//! bucket holds tokens and the rest wait for its next refill, so latency falls into two modes
//! with almost nothing between, the upper one tight at the refill period (Linux's blk-throttle
//! refills every 100 ms: the throttled loop devices of the tests show 80 % of reads under
//! 0.5 ms and the rest at 98-102 ms). It shows even while IOPS do not look flat yet.

use crate::stats::HistDump;

/// Bins per factor of 2 of latency.
const PER_OCTAVE: f64 = 2.0;
/// The modes lie at least this factor apart, each holds at least `MIN_SHARE` of the I/Os, and
/// the bins between hold at most `VALLEY` of the smaller mode's peak bin.
const APART: f64 = 8.0;
const MIN_SHARE: f64 = 0.05;
const VALLEY: f64 = 0.1;

/// The signature in words, if `h` (a direction's latency histogram) has it.
pub fn token_bucket(h: &HistDump) -> Option<String> {
    if h.count < 200 {
        return None;
    }
    let bin = |ns: u64| ((ns.max(1) as f64).log2() * PER_OCTAVE).floor() as usize;
    let mut bins = vec![0u64; bin(u64::MAX) + 1];
    for &(ns, n) in &h.buckets {
        bins[bin(ns)] += n;
    }
    let total = h.count as f64;
    let peak = (0..bins.len()).max_by_key(|&i| bins[i])?;
    let gap = (APART.log2() * PER_OCTAVE).ceil() as usize;
    // The other mode: the fullest bin far enough away on either side.
    let other = (0..bins.len()).filter(|&i| i.abs_diff(peak) >= gap).max_by_key(|&i| bins[i])?;
    let (lo, hi) = (peak.min(other), peak.max(other));
    let smaller = bins[lo].min(bins[hi]) as f64;
    let valley = bins[lo + 1..hi].iter().copied().min().unwrap_or(0) as f64;
    // Each mode with its shoulders: the bins from the valley's deepest point outwards.
    let deepest = lo + 1 + bins[lo + 1..hi].iter().position(|&b| b as f64 == valley)?;
    let (below, above) = (bins[..deepest].iter().sum::<u64>() as f64, bins[deepest + 1..].iter().sum::<u64>() as f64);
    if below / total < MIN_SHARE || above / total < MIN_SHARE || valley > VALLEY * smaller {
        return None;
    }
    // Each mode's median, ms.
    let at = |side: &dyn Fn(usize) -> bool| {
        let part: Vec<(u64, u64)> = h.buckets.iter().copied().filter(|&(ns, _)| side(bin(ns))).collect();
        let half = part.iter().map(|b| b.1).sum::<u64>() / 2;
        let mut seen = 0;
        part.iter()
            .find(|b| {
                seen += b.1;
                seen > half
            })
            .map_or(0.0, |b| b.0 as f64 / 1e6)
    };
    let (lo, hi) = (at(&|b| b < deepest), at(&|b| b > deepest));
    Some(format!(
        "latency in two modes, {:.0} % of I/Os near {} ms and {:.0} % near {} ms with few between: the token-bucket \
         signature of a throttle (I/Os pass at once while tokens last, the rest wait for the next refill)",
        below / total * 100.0,
        ms(lo),
        above / total * 100.0,
        ms(hi),
    ))
}

fn ms(v: f64) -> String {
    if v < 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.0}")
    }
}

#[cfg(test)]
mod tests;

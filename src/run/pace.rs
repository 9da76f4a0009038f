//! Pacing: the intended start of each I/O, advanced by a schedule fixed in advance, so that a
//! slow device makes later I/Os late (and their response latency long) instead of silently
//! stretching the schedule (coordinated omission). Gaps are even (fio's linear rate process)
//! or exponential with the same mean (poisson).

use crate::workload::trace::TraceIo;
use crate::workload::{RateProcess, Spec};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

pub(super) enum Pace {
    Free,
    /// `period`: mean ns between I/Os.
    Iops {
        next: f64,
        period: f64,
        poisson: Option<SmallRng>,
    },
    /// `ns_per_byte`: mean ns per byte; an I/O's gap is its length's share.
    Bytes {
        next: f64,
        ns_per_byte: f64,
        poisson: Option<SmallRng>,
    },
    /// A replayed trace's clock: each I/O is due at its time in the trace, `delay` ns after the
    /// start; `next` is the index of the next one.
    Trace {
        ios: Arc<Vec<TraceIo>>,
        next: usize,
        delay: u64,
    },
}

impl Pace {
    /// The schedule of worker `rank` of `workers`, which share the spec's total rate.
    pub(super) fn new(spec: &Spec, rank: u32, workers: u32, seed: u64) -> Pace {
        let poisson = (spec.rate_process == RateProcess::Poisson).then(|| SmallRng::seed_from_u64(seed ^ 0x9015_5011));
        if let Some(r) = spec.replay.as_ref().filter(|r| !r.no_stall) {
            return Pace::Trace { ios: r.ios.clone(), next: 0, delay: 0 };
        }
        match (spec.rate_iops, spec.rate_mbps) {
            (Some(r), _) => {
                let period = 1e9 * workers as f64 / r;
                Pace::Iops { next: period * rank as f64 / workers as f64, period, poisson }
            }
            (_, Some(m)) => Pace::Bytes { next: 0.0, ns_per_byte: 1e9 * workers as f64 / (m * 1e6), poisson },
            _ => Pace::Free,
        }
    }

    /// Starts the schedule `ns` later (a worker with a start delay).
    pub(super) fn delay(&mut self, ns: u64) {
        match self {
            Pace::Iops { next, .. } | Pace::Bytes { next, .. } => *next += ns as f64,
            Pace::Trace { delay, .. } => *delay += ns,
            Pace::Free => {}
        }
    }

    pub(super) fn is_free(&self) -> bool {
        matches!(self, Pace::Free)
    }

    /// When the next I/O is due, ns; None unpaced.
    #[inline]
    pub(super) fn due(&self) -> Option<f64> {
        match self {
            Pace::Free => None,
            Pace::Iops { next, .. } | Pace::Bytes { next, .. } => Some(*next),
            Pace::Trace { ios, next, delay } => ios.get(*next).map(|io| (io.at_ns + delay) as f64),
        }
    }

    /// The intended start of the next I/O, or None while the schedule says not yet. Unpaced,
    /// 0 (the submission time stands in for it). A byte schedule advances in `took`, once the
    /// I/O's length is known.
    #[inline]
    pub(super) fn next_intended(&mut self, now: u64) -> Option<u64> {
        match self {
            Pace::Free => Some(0),
            Pace::Iops { next, period, poisson } => {
                if *next > now as f64 {
                    return None;
                }
                let t = *next as u64;
                *next += gap(*period, poisson);
                Some(t)
            }
            Pace::Bytes { next, .. } => (*next <= now as f64).then_some(*next as u64),
            Pace::Trace { ios, next, delay } => {
                let at = ios.get(*next)?.at_ns + *delay;
                if at > now {
                    return None;
                }
                *next += 1;
                Some(at)
            }
        }
    }

    /// The chosen I/O is `len` bytes: a byte schedule moves on by its share.
    #[inline]
    pub(super) fn took(&mut self, len: u32) {
        if let Pace::Bytes { next, ns_per_byte, poisson } = self {
            *next += gap(len as f64 * *ns_per_byte, poisson);
        }
    }

    /// An I/O that is not one of the paced ones (an fsync) gives its place in the schedule back.
    #[inline]
    pub(super) fn give_back(&mut self) {
        if let Pace::Iops { next, period, poisson: None } = self {
            *next -= *period;
        }
    }
}

/// The gap after an I/O whose mean gap is `mean` ns: exactly it, or exponentially distributed.
#[inline]
fn gap(mean: f64, poisson: &mut Option<SmallRng>) -> f64 {
    match poisson {
        None => mean,
        // 1 - u lies in (0, 1]: its logarithm is finite.
        Some(rng) => -mean * (1.0 - rng.random::<f64>()).ln(),
    }
}

#[cfg(test)]
mod tests;

//! Pacing: the intended start of each I/O, advanced by a schedule fixed in advance, so that a
//! slow device makes later I/Os late (and their response latency long) instead of silently
//! stretching the schedule (coordinated omission). Gaps are even (fio's linear rate process)
//! or exponential with the same mean (poisson).

use crate::workload::{RateProcess, Spec};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

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
}

impl Pace {
    /// The schedule of worker `rank` of `workers`, which share the spec's total rate.
    pub(super) fn new(spec: &Spec, rank: u32, workers: u32, seed: u64) -> Pace {
        let poisson = (spec.rate_process == RateProcess::Poisson).then(|| SmallRng::seed_from_u64(seed ^ 0x9015_5011));
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
        if let Pace::Iops { next, .. } | Pace::Bytes { next, .. } = self {
            *next += ns as f64;
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
mod tests {
    use super::*;

    /// Mean and coefficient of variation of the gaps between 100,000 scheduled starts.
    fn gaps(process: RateProcess) -> (f64, f64) {
        let spec = Spec { rate_iops: Some(2000.0), rate_process: process, ..Spec::default() };
        let mut p = Pace::new(&spec, 0, 1, 7);
        let starts: Vec<f64> = (0..100_000).map(|_| p.next_intended(u64::MAX).unwrap() as f64).collect();
        let g: Vec<f64> = starts.windows(2).map(|w| w[1] - w[0]).collect();
        let mean = g.iter().sum::<f64>() / g.len() as f64;
        let var = g.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / g.len() as f64;
        (mean, var.sqrt() / mean)
    }

    #[test]
    fn poisson_keeps_the_mean_rate_with_exponential_gaps() {
        let (mean, cv) = gaps(RateProcess::Linear);
        assert!((mean - 500_000.0).abs() < 1.0 && cv < 1e-6, "linear: mean {mean} ns, cv {cv}");
        let (mean, cv) = gaps(RateProcess::Poisson);
        // 2000/s: a 500 µs mean gap within 3 %, and the exponential's coefficient of variation 1.
        assert!((mean / 500_000.0 - 1.0).abs() < 0.03, "poisson: mean {mean} ns");
        assert!((cv - 1.0).abs() < 0.03, "poisson: cv {cv}");
    }

    #[test]
    fn poisson_byte_schedule_keeps_the_mean() {
        let spec = Spec { rate_mbps: Some(4.096), rate_process: RateProcess::Poisson, ..Spec::default() };
        let mut p = Pace::new(&spec, 0, 1, 3);
        for _ in 0..50_000 {
            p.next_intended(u64::MAX).unwrap();
            p.took(4096);
        }
        // 4.096 MB/s of 4 KiB I/Os: 1,000 per second, 1 ms each on average.
        let per_io = p.due().unwrap() / 50_000.0;
        assert!((per_io / 1e6 - 1.0).abs() < 0.03, "{per_io} ns per I/O");
    }
}

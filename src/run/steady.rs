//! fio's steady-state check, once a second on the runner's side: each finished second of a
//! job (all its workers merged, as fio's group_reporting) enters a window of `dur` seconds
//! after the ramp; once the window's slope or largest deviation is under the limit, the job
//! ends. Computed as fio's steadystate.c does, on whole IOPS and bytes/s.
//!
//! The until-steady mode (`SteadyState::interval_ms`) judges the same window of `dur` seconds
//! made of finer samples: the job's measured I/O count (`IoCount`, which its workers publish
//! once per batch of completions) read by the supervisor at each interval, so neither the
//! workers' loop nor their once-a-second hand-off changes.

use super::live::Collector;
use crate::result::{SteadyOutcome, Stop};
use crate::workload::SteadyState;
use std::collections::VecDeque;

/// The fewest I/Os in a sample of the until-steady mode: one more or less moves its rate by
/// 2.5 % at most, so counting alone cannot keep a slow step (large blocks under a MB/s cap)
/// from being judged steady, nor make it look steady after a second of a handful of I/Os.
pub(super) const MIN_SAMPLE_IOS: u64 = 40;

pub(super) struct SteadyCheck {
    ss: SteadyState,
    /// Seconds of the collector already looked at.
    fed: usize,
    /// The until-steady mode's last sample: ns into the measured window, I/Os and bytes by then.
    last: (u64, u64, u64),
    /// (IOPS, bytes/s) per sample, oldest first, at most `dur` seconds of them.
    window: VecDeque<(u64, u64)>,
    out: SteadyOutcome,
}

impl SteadyCheck {
    pub fn new(ss: SteadyState) -> SteadyCheck {
        let window = VecDeque::with_capacity(ss.samples());
        SteadyCheck { ss, fed: 0, last: (0, 0, 0), window, out: SteadyOutcome::default() }
    }

    /// Takes the seconds before `complete` (those every worker has handed over); true when the
    /// job has just reached steady state.
    pub fn feed(&mut self, c: &Collector, complete: usize) -> bool {
        let before = self.out.attained;
        while self.ss.interval_ms == 0 && !self.out.attained && self.fed < complete {
            let (ios, bytes) =
                c.seconds.get(self.fed).map_or((0, 0), |s| (s.ios[0] + s.ios[1], s.bytes[0] + s.bytes[1]));
            let sec = self.fed;
            self.fed += 1;
            if (sec as f64) < self.ss.ramp {
                continue;
            }
            self.take(ios, bytes);
        }
        self.out.attained && !before
    }

    /// The until-steady mode: the job's measured I/Os and bytes `at` ns into its measured
    /// window. Once an interval and `MIN_SAMPLE_IOS` have passed since the last sample, their
    /// rates (over the time that really passed, however late the supervisor looked) enter the
    /// window. True when the job has just reached steady state.
    pub fn sample(&mut self, at: u64, ios: u64, bytes: u64) -> bool {
        let (t0, i0, b0) = self.last;
        let interval = u64::from(self.ss.interval_ms) * 1_000_000;
        if interval == 0 || self.out.attained || at < t0 + interval || ios < i0 + MIN_SAMPLE_IOS {
            return false;
        }
        self.last = (at, ios, bytes);
        if (t0 as f64 / 1e9) < self.ss.ramp {
            return false;
        }
        let secs = (at - t0) as f64 / 1e9;
        let rate = |n: u64, n0: u64| (n.saturating_sub(n0) as f64 / secs).round() as u64;
        self.take(rate(ios, i0), rate(bytes, b0));
        self.out.attained
    }

    /// One sample into the window; judged once the window is full.
    fn take(&mut self, iops: u64, bw: u64) {
        let dur = self.ss.samples();
        if self.window.len() == dur {
            self.window.pop_front();
        }
        self.window.push_back((iops, bw));
        if self.window.len() < dur {
            return;
        }
        let ys: Vec<f64> = self.window.iter().map(|&(i, b)| if self.ss.iops { i } else { b } as f64).collect();
        let (slope, deviation) = judge(&ys);
        let mean = ys.iter().sum::<f64>() / ys.len() as f64;
        let raw = if self.ss.slope { slope } else { deviation };
        let criterion = if self.ss.pct {
            if mean > 0.0 {
                100.0 * raw / mean
            } else {
                0.0
            }
        } else {
            raw
        };
        self.out.slope = slope;
        self.out.max_deviation = deviation;
        self.out.criterion = criterion;
        self.out.attained = criterion.abs() < self.ss.limit;
    }

    pub fn outcome(&self) -> SteadyOutcome {
        let dur = self.ss.samples();
        let pad = |v: Vec<u64>| v.into_iter().chain(std::iter::repeat(0)).take(dur).collect();
        SteadyOutcome {
            iops: pad(self.window.iter().map(|w| w.0).collect()),
            bw: pad(self.window.iter().map(|w| w.1).collect()),
            ..self.out.clone()
        }
    }
}

/// Feeds each job's check (`checks[k]` of job `k`) what the supervisor has at `t` ns after the
/// start: its whole seconds up to `complete`, and in the until-steady mode its measured I/O
/// count; a job that has just reached steady state stops at `t`.
pub(super) fn judge_all(
    checks: &mut [Option<SteadyCheck>],
    collectors: &[Collector],
    complete: usize,
    (shared, layout): (&super::Shared, &super::Layout),
    t: u64,
) {
    let into = t.checked_sub(shared.measure_start);
    for (k, s) in checks.iter_mut().enumerate() {
        let Some(s) = s.as_mut() else { continue };
        let fine = shared.io_count.as_ref().zip(into).is_some_and(|(c, at)| {
            let (ios, bytes) = c.measured(layout.of_job(k));
            s.sample(at, ios, bytes)
        });
        if s.feed(&collectors[k], complete) || fine {
            shared.job_stop[k].fetch_min(t, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// Why a test with a steady-state check ended, from whether the check was met, Ctrl-C, and its
/// measured seconds against its duration (short of it, its workers ran out of I/Os).
pub(super) fn stop(attained: bool, interrupted: bool, secs: f64, duration: f64) -> Stop {
    if attained {
        Stop::Steady
    } else if interrupted {
        Stop::Interrupted
    } else if secs < duration * 0.99 {
        Stop::IoCount
    } else {
        Stop::Cap
    }
}

/// The least-squares slope through (0, y0) … (n−1, yn−1), and the largest |y − mean|.
fn judge(ys: &[f64]) -> (f64, f64) {
    let n = ys.len() as f64;
    let mean = ys.iter().sum::<f64>() / n;
    let sx = n * (n - 1.0) / 2.0;
    let sxx = (n - 1.0) * n * (2.0 * n - 1.0) / 6.0;
    let sxy: f64 = ys.iter().enumerate().map(|(i, y)| i as f64 * y).sum();
    let denom = sxx - sx * sx / n;
    let slope = if denom > 0.0 { (sxy - sx * mean) / denom } else { 0.0 };
    let dev = ys.iter().map(|y| (y - mean).abs()).fold(0.0, f64::max);
    (slope, dev)
}

#[cfg(test)]
mod tests;

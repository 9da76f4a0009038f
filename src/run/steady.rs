//! fio's steady-state check, once a second on the runner's side: each finished second of a
//! job (all its workers merged, as fio's group_reporting) enters a window of `dur` seconds
//! after the ramp; once the window's slope or largest deviation is under the limit, the job
//! ends. Computed as fio's steadystate.c does, on whole IOPS and bytes/s.

use super::live::Collector;
use crate::result::SteadyOutcome;
use crate::workload::SteadyState;
use std::collections::VecDeque;

pub(super) struct SteadyCheck {
    ss: SteadyState,
    /// Seconds of the collector already looked at.
    fed: usize,
    /// (IOPS, bytes/s) per second, oldest first, at most `dur`.
    window: VecDeque<(u64, u64)>,
    out: SteadyOutcome,
}

impl SteadyCheck {
    pub fn new(ss: SteadyState) -> SteadyCheck {
        SteadyCheck { ss, fed: 0, window: VecDeque::with_capacity(ss.dur as usize), out: SteadyOutcome::default() }
    }

    /// Takes the seconds before `complete` (those every worker has handed over); true when the
    /// job has just reached steady state.
    pub fn feed(&mut self, c: &Collector, complete: usize) -> bool {
        let before = self.out.attained;
        while !self.out.attained && self.fed < complete {
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

    /// One second into the window; judged once the window is full.
    fn take(&mut self, iops: u64, bw: u64) {
        let dur = self.ss.dur.max(1) as usize;
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
        let dur = self.ss.dur as usize;
        let pad = |v: Vec<u64>| v.into_iter().chain(std::iter::repeat(0)).take(dur).collect();
        SteadyOutcome {
            iops: pad(self.window.iter().map(|w| w.0).collect()),
            bw: pad(self.window.iter().map(|w| w.1).collect()),
            ..self.out.clone()
        }
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

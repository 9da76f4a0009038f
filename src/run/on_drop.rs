//! `--stop-on-drop`: once a second, on the supervisor's side, each finished second's I/Os of a
//! job enter a bounded history; once the last `window_s` seconds sit below the level before
//! them by the asked share, the job ends (exit 0; the result says where and why).

use super::live::Collector;
use crate::result::shifts::Dropped;
use crate::workload::DropStop;
use std::collections::VecDeque;

/// The level a drop is measured from: the median of at most this many seconds before the
/// window. Bounded, so a 30-day run holds no more than a short one.
const REFERENCE_S: usize = 300;

pub(super) struct DropCheck {
    stop: DropStop,
    fed: usize,
    /// I/Os per second, oldest first: the reference seconds, then the window's.
    history: VecDeque<f64>,
    pub out: Option<Dropped>,
}

impl DropCheck {
    pub fn new(stop: DropStop) -> DropCheck {
        let cap = REFERENCE_S + stop.window_s as usize;
        DropCheck { stop, fed: 0, history: VecDeque::with_capacity(cap), out: None }
    }

    /// Takes the seconds before `complete`; true when the job has just dropped.
    pub fn feed(&mut self, c: &Collector, complete: usize) -> bool {
        let before = self.out.is_some();
        while self.out.is_none() && self.fed < complete {
            let ios = c.seconds.get(self.fed).map_or(0, |s| s.ios[0] + s.ios[1]);
            self.fed += 1;
            self.take(ios as f64);
        }
        self.out.is_some() && !before
    }

    /// One more second of `iops`.
    pub fn take(&mut self, iops: f64) {
        let w = self.stop.window_s as usize;
        if self.history.len() == REFERENCE_S + w {
            self.history.pop_front();
        }
        self.history.push_back(iops);
        // A reference at least as long as the window, and five seconds.
        let n = self.history.len();
        if n < w + w.max(5) {
            return;
        }
        let (reference, window) = self.history.make_contiguous().split_at(n - w);
        let before = median(reference);
        let after = median(window);
        let cut = 1.0 - self.stop.pct / 100.0;
        let half = 1.0 - self.stop.pct / 200.0;
        if before > 0.0 && after <= before * cut && window.iter().all(|x| *x < before * half) {
            self.out = Some(Dropped {
                at_s: self.fed as u32,
                before,
                after,
                pct: self.stop.pct,
                window_s: self.stop.window_s,
            });
        }
    }
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// Feeds every job's check; a job that dropped stops at `t`.
pub(super) fn judge_all(
    checks: &mut [Option<DropCheck>],
    collectors: &[Collector],
    complete: usize,
    shared: &super::Shared,
    t: u64,
) {
    for (k, d) in checks.iter_mut().enumerate() {
        if d.as_mut().is_some_and(|d| d.feed(&collectors[k], complete)) {
            shared.job_stop[k].fetch_min(t, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests;

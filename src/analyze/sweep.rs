//! The adaptive sweep of `explain` and `check`: queue depth 1 → 256 at 4K, then block size
//! 4K → 1M at a deep queue; reads, then writes. Each climb stops once throughput stops growing,
//! all within a time budget. A pure state machine over the results so far and the time: the
//! caller runs each step (through `run/`) and hands back what it measured.

use crate::compare::test_key;
use crate::result::TestResult;
use crate::workload::{BlockShare, Pattern, Spec};
use std::time::{Duration, Instant};

pub const QDS: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];
pub const SIZES: [u64; 9] = [4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20];

/// One test the sweep asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub name: String,
    pub spec: Spec,
}

/// Where the sweep is, and when it must stop.
pub struct Sweeper {
    base: Spec,
    reads: bool,
    writes: bool,
    step: f64,
    budget: f64,
    /// Set at the first step, so a profile run before the sweep does not eat its budget.
    deadline: Option<Instant>,
    /// (read?, phase 0 = queue depth / 1 = block size, index) of the last step issued.
    at: Option<(bool, u8, usize)>,
    flat: u32,
    deep: u32,
    /// Tests run before the sweep (check's profile) are not the sweep's.
    skip: usize,
    /// Before each step's name, to tell them from a profile's tests with the same name.
    pub prefix: &'static str,
}

impl Sweeper {
    pub fn new(base: Spec, budget: f64, reads: bool, writes: bool, skip: usize) -> Sweeper {
        // About two dozen steps fit the budget; long enough for throttles to settle.
        let step = (budget / 24.0).clamp(1.0, 5.0);
        Sweeper { base, reads, writes, step, budget, deadline: None, at: None, flat: 0, deep: 32, skip, prefix: "" }
    }

    /// One step: `read`s or writes of `bs` bytes at `qd`, random, one thread.
    pub fn step(&self, read: bool, qd: u32, bs: u64) -> Step {
        // Large blocks are few a second under a bandwidth cap (20 MB/s is 19 I/Os of 1M): a longer
        // step counts enough of them, and a longer warm-up lets a throttle settle.
        let large = bs >= 512 << 10;
        let warmup = if large { (self.step * 0.4).max(1.0) } else { self.step * 0.25 };
        let duration = if large { self.step * 2.0 } else { self.step };
        let spec = Spec {
            blocks: vec![BlockShare { size: bs, pct: 100 }],
            pattern: Pattern::Random,
            read_pct: if read { 100 } else { 0 },
            qd,
            threads: 1,
            duration,
            warmup,
            ..self.base.clone()
        };
        Step { name: format!("{}{}", self.prefix, test_key(&spec)), spec }
    }

    /// Whether `left` seconds (of which the writes keep half while reads run) are too few for
    /// the next block size and then 1M, and enough for 1M alone; not before two sizes show
    /// whether IOPS stays flat across them (an IOPS cap).
    fn short(&self, read: bool, left: f64, i: usize) -> bool {
        let own = if read && self.writes { left - self.budget / 2.0 } else { left };
        let cost = |bs: u64| {
            let s = self.step(read, self.deep, bs).spec;
            s.warmup + s.duration
        };
        let large = cost(SIZES[SIZES.len() - 1]);
        i >= 1 && i + 2 < SIZES.len() && own < cost(SIZES[i + 1]) + large && own >= 0.75 * large
    }

    /// The next step from what the sweep measured so far, at time `now`; None when done.
    pub fn next(&mut self, done: &[TestResult], now: Instant) -> Option<Step> {
        let mine = &done[self.skip.min(done.len())..];
        let grew =
            |k: usize, f: fn(&TestResult) -> f64| match (mine.len().checked_sub(2).map(|i| &mine[i]), mine.last()) {
                (Some(a), Some(b)) if k > 0 => f(b) >= f(a) * 1.05,
                _ => true,
            };
        let deadline = *self.deadline.get_or_insert_with(|| now + Duration::from_secs_f64(self.budget));
        let left = deadline.saturating_duration_since(now).as_secs_f64();
        if left < self.step * 1.5 {
            return None;
        }
        // Reads get half the budget when writes follow; what they did not reach stays unmeasured.
        if let (Some((true, _, _)), true) = (self.at, self.writes) {
            if left < self.budget / 2.0 {
                (self.reads, self.at, self.flat) = (false, None, 0);
            }
        }
        let (read, phase, i) = match self.at {
            None if self.reads => (true, 0, 0),
            None if self.writes => (false, 0, 0),
            None => return None,
            Some((read, 0, i)) => {
                self.flat = if grew(i, |t| t.total.iops) { 0 } else { self.flat + 1 };
                if self.flat == 1 && i > 0 {
                    // The knee: sweep block sizes at twice its depth (at least 16).
                    self.deep = (QDS[i - 1] * 2).clamp(16, 64);
                }
                if self.flat >= 2 || i + 1 == QDS.len() {
                    self.flat = 0;
                    (read, 1, 0)
                } else {
                    (read, 0, i + 1)
                }
            }
            Some((read, _, i)) => {
                self.flat = if grew(i, |t| t.total.mbps) { 0 } else { self.flat + 1 };
                if i + 1 == SIZES.len() {
                    self.flat = 0;
                    if read && self.writes {
                        (false, 0, 0)
                    } else {
                        return None;
                    }
                } else if self.flat >= 2 || self.short(read, left, i) {
                    // Throughput stopped growing: one more step at 1M confirms the wall there.
                    // Or the time left would end the climb before the large blocks, where a
                    // MB/s cap shows: 1M now, rather than a sweep that never reaches it.
                    (read, 1, SIZES.len() - 1)
                } else {
                    (read, 1, i + 1)
                }
            }
        };
        if phase == 0 && i == 0 {
            self.deep = 32;
        }
        self.at = Some((read, phase, i));
        Some(if phase == 0 { self.step(read, QDS[i], 4 << 10) } else { self.step(read, self.deep, SIZES[i]) })
    }
}

#[cfg(test)]
mod tests;

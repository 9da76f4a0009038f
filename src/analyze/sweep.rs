//! The adaptive sweep of `explain` and `check`: queue depth 1 → 256 at 4K, then block size
//! 4K → 1M at a deep queue; reads, then writes. Each climb stops once throughput stops growing,
//! all within a time budget. A pure state machine over the results so far and the time: the
//! caller runs each step (through `run/`) and hands back what it measured.
//!
//! Each step ends once its rate is steady (`STEADY_PCT`, `STEADY_INTERVAL_MS`) or at its full
//! length, whichever comes first. The time steady steps save goes to more block sizes: the
//! climb takes the next size while what is left still pays for the five of `SKELETON` after it,
//! else the next of those five, else 1M at once.

use super::noise;
use crate::compare::test_key;
use crate::result::TestResult;
use crate::workload::{BlockShare, Pattern, Spec, SteadyState};
use std::time::{Duration, Instant};

pub const QDS: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];
pub const SIZES: [u64; 9] = [4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20];
/// Indexes in `SIZES` of the block sizes a climb measures however tight its time: 4K, 16K,
/// 64K, 256K and 1M, enough to draw where a MB/s cap takes over from an IOPS cap.
pub const SKELETON: [usize; 5] = [0, 2, 4, 6, 8];
/// A step is steady once its IOPS of each interval of this length (and of at least 40 I/Os)…
/// Four samples a second: enough to tell a drift from noise within the one second a step
/// lasts at least. A throttle that lets I/Os through in bursts (cgroup blkio: one slice's worth
/// every 100 ms) gives samples of two or three bursts, never steady: its steps run their full
/// length, which its figure needs, since one burst more or less in a window of a second would
/// move it by a tenth.
pub const STEADY_INTERVAL_MS: u32 = 250;
/// …are within ± this % of their mean over one second: four samples or more. Looser would take
/// a throttle's first slices for its rate; tighter would rarely end a step on a busy host.
pub const STEADY_PCT: f64 = 5.0;

/// One test the sweep asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub name: String,
    pub spec: Spec,
}

/// What the finished steps took: the seconds they measured of their full lengths, and the
/// seconds around their warm-up and measured time (set-up, the runner's edges, the result).
#[derive(Default)]
struct Spent {
    measured: f64,
    full: f64,
    between: f64,
    steps: u32,
}

impl Spent {
    fn add(&mut self, took: f64, warmup: f64, full: f64, measured: f64) {
        self.measured += measured.min(full);
        self.full += full;
        self.between += (took - warmup - measured).max(0.0);
        self.steps += 1;
    }

    /// The share of their full length steps measure, now that steady ones end early.
    fn share(&self) -> f64 {
        if self.full > 0.0 {
            (self.measured / self.full).clamp(0.2, 1.0)
        } else {
            1.0
        }
    }

    fn between(&self) -> f64 {
        if self.steps > 0 {
            self.between / f64::from(self.steps)
        } else {
            0.0
        }
    }
}

/// Where the sweep is, and when it must stop.
pub struct Sweeper {
    base: Spec,
    reads: bool,
    writes: bool,
    /// A step's full length at small blocks (twice this at large ones), s.
    step: f64,
    budget: f64,
    /// Set at the first step, so a profile run before the sweep does not eat its budget.
    deadline: Option<Instant>,
    /// (read?, phase 0 = queue depth / 1 = block size, index) of the last step issued.
    at: Option<(bool, u8, usize)>,
    deep: u32,
    /// Tests run before the sweep (check's profile) are not the sweep's.
    skip: usize,
    /// When the last step was issued, and its warm-up and full length, s.
    issued: Option<(Instant, f64, f64)>,
    /// What the finished steps took: the price of those left.
    spent: Spent,
    /// Before each step's name, to tell them from a profile's tests with the same name.
    pub prefix: &'static str,
    /// The climb under way: each step's index (in `QDS` or `SIZES`) and its measurements
    /// (IOPS, MB/s), more than one where it was measured again.
    climb: Vec<(usize, Vec<(f64, f64)>)>,
    /// The step issued last measures the climb's point at this position again.
    again: Option<usize>,
    /// The step issued last repeats QD 1 at a direction's end (no step of a climb).
    repeating: bool,
    /// The direction under way owes that repeat: nothing before the sweep measured QD 1.
    owed: bool,
}

impl Sweeper {
    pub fn new(base: Spec, budget: f64, reads: bool, writes: bool, skip: usize) -> Sweeper {
        // About two dozen full-length steps fit the budget; long enough for throttles to settle.
        let step = (budget / 24.0).clamp(1.0, 5.0);
        let (deadline, at, issued, spent) = (None, None, None, Spent::default());
        Sweeper {
            base,
            reads,
            writes,
            step,
            budget,
            deadline,
            at,
            deep: 32,
            skip,
            issued,
            spent,
            prefix: "",
            climb: Vec::new(),
            again: None,
            repeating: false,
            owed: false,
        }
    }

    /// One step: `read`s or writes of `bs` bytes at `qd`, random, one thread, ending once steady.
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
            steady: Some(SteadyState::until_steady(STEADY_PCT, STEADY_INTERVAL_MS, 1)),
            ..self.base.clone()
        };
        Step { name: format!("{}{}", self.prefix, test_key(&spec)), spec }
    }

    /// What a step of `SIZES[i]` should cost, s: its warm-up, the share of its full length the
    /// steps so far measured (all of it until one finished), and their time between.
    fn cost(&self, read: bool, i: usize) -> f64 {
        self.priced(read, i, self.spent.share())
    }

    /// A step of `SIZES[i]` measuring `share` of its full length, with its warm-up and the
    /// time between steps, s.
    fn priced(&self, read: bool, i: usize, share: f64) -> f64 {
        let s = self.step(read, self.deep, SIZES[i]).spec;
        s.warmup + share * s.duration + self.spent.between()
    }

    /// A step of `SIZES[i]` at its full length, s: what it costs when never steady.
    fn full(&self, read: bool, i: usize) -> f64 {
        let s = self.step(read, self.deep, SIZES[i]).spec;
        s.warmup + s.duration + self.spent.between()
    }

    /// What the sizes of `SKELETON` past index `i` (all of them for None) should cost, s.
    fn rest(&self, read: bool, i: Option<usize>) -> f64 {
        SKELETON.iter().filter(|&&j| i.is_none_or(|i| j > i)).map(|&j| self.cost(read, j)).sum()
    }

    /// The five sizes of `SKELETON` priced halfway between the share of their full length the
    /// steps so far measured and all of it: a few of them running to their full length must
    /// not push 256K out. What the queue-depth climb leaves them.
    fn reserve(&self, read: bool) -> f64 {
        let share = (self.spent.share() + 1.0) / 2.0;
        SKELETON.iter().map(|&j| self.priced(read, j, share)).sum()
    }

    /// The seconds of `left` that `read`s may take: half the budget stays for the writes.
    /// The time a repeat of QD 1 still owed at the direction's end is kept from the climbs.
    fn own(&self, read: bool, left: f64) -> f64 {
        let owed = if self.owed { self.full(read, 0) } else { 0.0 };
        if read && self.writes {
            left - self.budget / 2.0 - owed
        } else {
            left - owed
        }
    }

    /// The size after `SIZES[i]`: the next one while `own` seconds pay for it at its full length
    /// and the five sizes past it (a size between them must not take their time), else the next
    /// of the five while 1M still fits after it, else 1M (where a MB/s cap shows) at once.
    fn next_size(&self, read: bool, own: f64, i: usize) -> usize {
        let last = SIZES.len() - 1;
        if own >= self.full(read, i + 1) + self.rest(read, Some(i + 1)) {
            return i + 1;
        }
        match SKELETON.iter().copied().find(|&j| j > i) {
            Some(j) if j == last || own >= self.cost(read, j) + self.cost(read, last) => j,
            _ => last,
        }
    }

    /// The climb's figures, one a step: IOPS along the queue depths, MB/s along the block
    /// sizes; a point measured again as the analysis takes it (`noise::pick`).
    fn levels(&self, phase: u8) -> (Vec<u64>, Vec<f64>) {
        let f = |m: &(f64, f64)| if phase == 0 { m.0 } else { m.1 };
        let line: Vec<Vec<f64>> = self.climb.iter().map(|(_, m)| m.iter().map(f).collect()).collect();
        let v = noise::resolve(&line).into_iter().zip(&line).map(|(k, vs)| vs[k]).collect();
        let x = self.climb.iter().map(|(i, _)| if phase == 0 { u64::from(QDS[*i]) } else { SIZES[*i] }).collect();
        (x, v)
    }

    /// Steps at the climb's end that did not grow 5 % over the one before.
    fn flat(&self, phase: u8) -> u32 {
        let (_, v) = self.levels(phase);
        v.windows(2).rev().take_while(|w| w[1] < w[0] * 1.05).count() as u32
    }

    /// Twice the depth of the climb's last knee (its last step before IOPS stopped growing), at
    /// least 16 and at most 64; 32 where IOPS never stopped.
    fn knee_deep(&self) -> u32 {
        let (_, v) = self.levels(0);
        let stop = |k: usize| v[k] < v[k - 1] * 1.05;
        (1..v.len())
            .rev()
            .find(|&k| stop(k) && (k == 1 || !stop(k - 1)))
            .map_or(32, |k| (QDS[self.climb[k - 1].0] * 2).clamp(16, 64))
    }

    /// The step measuring the climb's point at `pos` again.
    fn again_step(&mut self, read: bool, phase: u8, pos: usize) -> Step {
        self.again = Some(pos);
        let i = self.climb[pos].0;
        let s = if phase == 0 { self.step(read, QDS[i], 4 << 10) } else { self.step(read, self.deep, SIZES[i]) };
        Step { name: format!("{} (again)", s.name), ..s }
    }

    /// A point measured once that disagrees with its neighbours (`noise::outlier`) is measured
    /// again before it decides a knee or a cap, while `own` seconds pay for that and one more.
    fn recheck(&mut self, read: bool, phase: u8, own: f64) -> Option<Step> {
        let (x, v) = self.levels(phase);
        let n = v.len();
        // The newest point first: the others were judged before it came.
        let judged = [n.checked_sub(1), (n >= 3).then(|| n - 2), (n == 2).then_some(0)];
        let pos = judged.into_iter().flatten().find(|&p| self.climb[p].1.len() == 1 && noise::outlier(&x, &v, p))?;
        let i = if phase == 0 { 0 } else { self.climb[pos].0 };
        (own >= 2.0 * self.full(read, i)).then(|| self.again_step(read, phase, pos))
    }

    /// How repeatable the target is: QD 1 at 4K measured once more at the end of a direction,
    /// as far from its first measurement as the sweep allows, unless something measured it
    /// twice already (check's RND4K Q1T1 before the sweep, or a step measured again) or the
    /// direction's time is spent.
    fn repeat_first(&mut self, read: bool, done: &[TestResult], left: f64) -> Option<Step> {
        let s = self.step(read, QDS[0], 4 << 10);
        let alike = done.iter().filter(|t| same_workload(&t.spec, &s.spec)).count();
        // The climbs left its time (`own`), unless a step ran over its price.
        let room = std::mem::take(&mut self.owed) && self.own(read, left) >= 0.5 * self.full(read, 0);
        (alike == 1 && room).then(|| {
            self.repeating = true;
            Step { name: format!("{} (again)", s.name), ..s }
        })
    }

    /// A direction begins: it owes QD 1 a repeat unless a test before the sweep measured it.
    fn begin(&mut self, read: bool, done: &[TestResult]) -> (bool, u8, usize) {
        let s = self.step(read, QDS[0], 4 << 10);
        self.owed = !done.iter().any(|t| same_workload(&t.spec, &s.spec));
        (read, 0, 0)
    }

    /// Files what the step issued last measured.
    fn record(&mut self, t: &TestResult) {
        if std::mem::take(&mut self.repeating) {
            return;
        }
        let m = (t.total.iops, t.total.mbps);
        match (self.again.take(), self.at) {
            (Some(pos), _) => {
                if let Some(c) = self.climb.get_mut(pos) {
                    c.1.push(m);
                }
            }
            (None, Some((_, _, i))) => self.climb.push((i, vec![m])),
            (None, None) => {}
        }
    }

    /// The next step from what the sweep measured so far, at time `now`; None when done.
    pub fn next(&mut self, done: &[TestResult], now: Instant) -> Option<Step> {
        let mine = &done[self.skip.min(done.len())..];
        if let (Some((at, warmup, full)), Some(t)) = (self.issued.take(), mine.last()) {
            let took = now.saturating_duration_since(at).as_secs_f64();
            self.spent.add(took, warmup, full, t.duration_s);
            self.record(t);
        }
        let s = self.decide(done, now)?;
        self.issued = Some((now, s.spec.warmup, s.spec.duration));
        Some(s)
    }

    fn decide(&mut self, done: &[TestResult], now: Instant) -> Option<Step> {
        let deadline = *self.deadline.get_or_insert_with(|| now + Duration::from_secs_f64(self.budget));
        let left = deadline.saturating_duration_since(now).as_secs_f64();
        if left < self.step * 1.5 {
            return None;
        }
        // Reads get half the budget when writes follow; what they did not reach stays unmeasured.
        if let (Some((true, _, _)), true) = (self.at, self.writes) {
            if left < self.budget / 2.0 {
                (self.reads, self.at) = (false, None);
                self.climb.clear();
            }
        }
        if let Some((read, phase, _)) = self.at {
            if let Some(s) = self.recheck(read, phase, self.own(read, left)) {
                return Some(s);
            }
        }
        let (read, phase, i) = match self.at {
            None if self.reads => self.begin(true, done),
            None if self.writes => self.begin(false, done),
            None => return None,
            Some((read, 0, i)) => {
                // Deeper queues while the block sizes' five still fit after one more at its
                // full length.
                let own = self.own(read, left);
                if self.flat(0) >= 2 || i + 1 == QDS.len() || own < self.full(read, 0) + self.reserve(read) {
                    // The knee: block sizes at twice its depth (at least 16).
                    self.deep = self.knee_deep();
                    // 4K at the deep queue was the climb's last step: the next size follows it.
                    let last = self.climb.iter().rev().find(|(j, _)| *j == i).map(|(_, m)| m.clone());
                    self.climb.clear();
                    match last.filter(|_| QDS[i] == self.deep) {
                        Some(m) => {
                            self.climb.push((0, m));
                            (read, 1, self.next_size(read, own, 0))
                        }
                        None => (read, 1, 0),
                    }
                } else {
                    (read, 0, i + 1)
                }
            }
            Some((read, _, i)) => {
                if i + 1 == SIZES.len() {
                    if let Some(s) = self.repeat_first(read, done, left) {
                        return Some(s);
                    }
                    self.climb.clear();
                    if read && self.writes {
                        self.begin(false, done)
                    } else {
                        return None;
                    }
                } else if self.flat(1) >= 2 {
                    // Throughput stopped growing: one more step at 1M confirms the wall there.
                    (read, 1, SIZES.len() - 1)
                } else {
                    (read, 1, self.next_size(read, self.own(read, left), i))
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

/// Whether two specs ask for the same workload: one block size, pattern, mix, depth, threads.
fn same_workload(a: &Spec, b: &Spec) -> bool {
    a.blocks == b.blocks && a.pattern == b.pattern && a.read_pct == b.read_pct && a.qd == b.qd && a.threads == b.threads
}

#[cfg(test)]
mod tests;

//! A run seen from outside while it runs (an `--mpi` rank's watcher, for stonewalling): the
//! I/Os its workers have measured so far, and a budget of I/Os that ends the run at a count
//! rather than at its time. Each worker stores into its own cache line once per batch of
//! completions and takes from the budget only once one is set; nothing waits on a lock.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;
use std::time::Instant;

/// No budget: the run's time and limits decide.
const NONE: u64 = u64::MAX;

pub struct IoCount {
    open_ended: bool,
    slots: OnceLock<Box<[Slot]>>,
    budget: AtomicU64,
    /// When the measured window began, and when the run was over.
    start: OnceLock<Instant>,
    end: OnceLock<Instant>,
    /// The measured window's length, s, where the run's time ends it (I/Os after it, in the
    /// cool-down, do not count).
    window: OnceLock<f64>,
}

#[repr(align(64))]
#[derive(Default)]
struct Slot {
    ios: AtomicU64,
    bytes: AtomicU64,
}

/// What a run had measured at one moment: I/Os, bytes and seconds since its window began.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Progress {
    pub ios: u64,
    pub bytes: u64,
    pub seconds: f64,
}

impl IoCount {
    /// `open_ended`: the run does not end at its duration, but when `limit`'s budget is spent
    /// (or the run is halted); the watcher decides when its time is up.
    pub fn new(open_ended: bool) -> IoCount {
        let (slots, start, end, window) = (OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new());
        IoCount { open_ended, slots, budget: AtomicU64::new(NONE), start, end, window }
    }

    pub fn open_ended(&self) -> bool {
        self.open_ended
    }

    /// The measured I/Os and bytes of every worker so far, and the seconds they took (until the
    /// run was over, once it is).
    pub fn progress(&self) -> Progress {
        let (mut ios, mut bytes) = (0, 0);
        for s in self.slots.get().map_or(&[][..], |s| &s[..]) {
            ios += s.ios.load(Relaxed);
            bytes += s.bytes.load(Relaxed);
        }
        let now = self.end.get().copied().unwrap_or_else(Instant::now);
        let seconds = self.start.get().map_or(0.0, |s| now.saturating_duration_since(*s).as_secs_f64());
        let seconds = seconds.min(self.window.get().copied().unwrap_or(f64::MAX));
        Progress { ios, bytes, seconds }
    }

    /// The measured I/Os and bytes of `workers` so far (one job of a group).
    pub(super) fn measured(&self, workers: std::ops::Range<usize>) -> (u64, u64) {
        let slots = self.slots.get().map_or(&[][..], |s| &s[..]);
        let of = slots.get(workers).unwrap_or(&[]);
        of.iter().fold((0, 0), |(i, b), s| (i + s.ios.load(Relaxed), b + s.bytes.load(Relaxed)))
    }

    /// When the measured window began and when the run was over, once they are known.
    pub fn window(&self) -> (Option<Instant>, Option<Instant>) {
        (self.start.get().copied(), self.end.get().copied())
    }

    /// From now on the workers issue at most `n` more I/Os between them; 0 ends the run (once
    /// the I/Os in flight are done, which still count).
    pub fn limit(&self, n: u64) {
        self.budget.store(n.min(NONE - 1), Relaxed);
    }

    pub(super) fn begin(&self, workers: usize, window: f64) {
        let _ = self.slots.set((0..workers).map(|_| Slot::default()).collect());
        if !self.open_ended {
            let _ = self.window.set(window);
        }
    }

    pub(super) fn measuring_from(&self, at: Instant) {
        let _ = self.start.set(at);
    }

    /// The run is over: its seconds stop here.
    pub(super) fn ended(&self) {
        let _ = self.end.set(Instant::now());
    }

    #[inline]
    pub(super) fn publish(&self, worker: usize, ios: u64, bytes: u64) {
        if let Some(s) = self.slots.get().and_then(|s| s.get(worker)) {
            s.ios.store(ios, Relaxed);
            s.bytes.store(bytes, Relaxed);
        }
    }

    /// Takes one I/O from the budget; false when it is spent.
    #[inline]
    pub(super) fn claim(&self) -> bool {
        if self.budget.load(Relaxed) == NONE {
            return true;
        }
        self.budget.fetch_update(Relaxed, Relaxed, |b| if b == NONE { Some(b) } else { b.checked_sub(1) }).is_ok()
    }

    /// An I/O claimed but not issued.
    pub(super) fn give_back(&self) {
        let _ = self.budget.fetch_update(Relaxed, Relaxed, |b| (b != NONE).then_some(b + 1));
    }

    #[inline]
    pub(super) fn spent(&self) -> bool {
        self.budget.load(Relaxed) == 0
    }
}

#[cfg(test)]
mod tests;

//! fio's thinktime: after every so many completed I/Os (or so long issuing), the worker stops
//! queuing, waits for what is in flight, spins, then sleeps out the rest of the pause. Nothing
//! is in flight while it thinks, so no latency includes the pause.

use crate::workload::ThinkTime;

pub(super) struct Think {
    blocks: u64,
    on_issue: bool,
    iotime_ns: u64,
    spin_ns: u64,
    pause_ns: u64,
    /// I/Os counted (issued or completed) and the time at the end of the last pause.
    since_done: u64,
    since_t: u64,
}

impl Think {
    pub(super) fn new(t: &ThinkTime, start: u64) -> Think {
        Think {
            blocks: t.blocks as u64,
            on_issue: t.on_issue,
            iotime_ns: t.iotime_us * 1000,
            spin_ns: t.spin_us * 1000,
            pause_ns: t.us * 1000,
            since_done: 0,
            since_t: start,
        }
    }

    /// Whether the worker should stop queuing and pause, having issued `issued` and completed
    /// `done` I/Os by `now`.
    #[inline]
    pub(super) fn due(&self, issued: u64, done: u64, now: u64) -> bool {
        let n = if self.on_issue { issued } else { done };
        (self.blocks > 0 && n >= self.since_done + self.blocks)
            || (self.iotime_ns > 0 && now >= self.since_t + self.iotime_ns)
    }

    /// (end of the spin, end of the pause) for a pause starting at `now`.
    pub(super) fn pause(&self, now: u64) -> (u64, u64) {
        (now + self.spin_ns, now + self.pause_ns)
    }

    /// The pause is over at `now` with `issued` I/Os issued and `done` completed: count afresh.
    pub(super) fn resumed(&mut self, issued: u64, done: u64, now: u64) {
        self.since_done = if self.on_issue { issued } else { done };
        self.since_t = now;
    }
}

//! The worker's clock and its waits: the window's ends, fio's limits and thinktime pauses,
//! and sleeping without overshooting (kept apart from the submit/complete loop).

use super::Worker;
use crate::engine::Engine;
use crate::workload::Spec;
use std::sync::atomic::Ordering;
use std::time::Duration;

impl<E: Engine> Worker<'_, E> {
    #[inline]
    pub(super) fn clock(&self) -> u64 {
        self.clock.ns()
    }

    /// `t` (ns on the group's clock) lies in this worker's measured window.
    #[inline]
    pub(super) fn measuring(&self, t: u64) -> bool {
        t >= self.m_start && t < self.m_end
    }

    /// The window's ends as they stand: Ctrl-C or a failed worker moves them to `stop`.
    #[inline]
    pub(super) fn refresh_window(&mut self) {
        let stop = self.sh.stop.load(Ordering::Relaxed).min(self.sh.job_stop[self.job].load(Ordering::Relaxed));
        self.m_end = (self.sh.measure_end.load(Ordering::Relaxed) + self.delay).min(stop).min(self.own.0);
        self.end = (self.sh.end.load(Ordering::Relaxed) + self.delay).min(stop).min(self.own.1);
    }

    /// Whether the worker has issued all the I/O its limits allow (fio's io_size, number_ios).
    #[inline]
    pub(super) fn limit_reached(&self) -> bool {
        self.limits.0.is_some_and(|n| self.issued >= n)
            || self.limits.1.is_some_and(|b| self.issued_bytes >= b)
            || self.io_count.is_some_and(|t| t.spent())
            || self.gen.replay_done()
    }

    /// fio's thinktime with nothing in flight: spin, then sleep out the pause (in steps, so
    /// that Ctrl-C and the end of the run still stop the worker on time).
    pub(super) fn pause(&mut self, now: u64) {
        let Some(t) = &self.think else { return };
        let (spun, over) = t.pause(now);
        while self.clock() < spun.min(self.end) {
            std::hint::spin_loop();
        }
        self.idle_until(over);
        let now = self.clock();
        self.resume_at = now;
        let (issued, done) = (self.issued, self.completed);
        if let Some(t) = &mut self.think {
            t.resumed(issued, done, now);
        }
    }

    /// Held back by the flow group: sleep `flow_sleep`, or with none only give the partners
    /// the CPU, as fio retries at once. Paced I/Os due meanwhile count from the end, as after
    /// a thinktime pause.
    pub(super) fn flow_pause(&mut self) {
        match self.flow.as_ref().map_or(0, |f| f.sleep_us) {
            0 => std::thread::yield_now(),
            us => {
                let now = self.clock();
                self.idle_until(now + us * 1000);
            }
        }
        self.resume_at = self.clock();
    }

    /// Waits until `t` in steps of at most 100 ms, cut short when the run ends (Ctrl-C, a
    /// failed worker, the end of the phase).
    pub(super) fn idle_until(&mut self, t: u64) {
        loop {
            self.refresh_window();
            let until = t.min(self.end);
            let now = self.clock();
            if now >= until {
                return;
            }
            self.wait_until(until.min(now + 100_000_000));
        }
    }

    /// Sleeps until shortly before `t`, then spins: a plain sleep overshoots by tens of µs,
    /// which would show up as response latency that is iolens's own.
    pub(super) fn wait_until(&self, t: u64) {
        const SPIN_NS: u64 = 80_000;
        let now = self.clock();
        if t > now + SPIN_NS {
            std::thread::sleep(Duration::from_nanos(t - now - SPIN_NS));
        }
        while self.clock() < t {
            std::hint::spin_loop();
        }
    }
}

/// A job's own measured window end and run end, ns after the group's start: a job shorter
/// than its group stops at its own runtime (and cool-down), as a fio job does; one as long as
/// the group follows the group's window.
pub(super) fn own_window(spec: &Spec, m_start: u64, group: u64) -> (u64, u64) {
    let ns = |s: f64| (s * 1e9) as u64;
    if ns(spec.duration) >= group {
        return (u64::MAX, u64::MAX);
    }
    let m_end = m_start.saturating_add(ns(spec.duration));
    (m_end, m_end.saturating_add(ns(spec.cooldown)))
}

/// A thread's number_ios and io_size, shared among the workers of its targets as fio's
/// round-robin over a job's files shares them: (I/Os, bytes) for one worker. With trim+write
/// pairs each byte is trimmed and written, so both count twice, as in fio's do_io.
pub(super) fn limits(spec: &Spec) -> (Option<u64>, Option<u64>) {
    let files = (spec.targets.len() / spec.files_per_worker()).max(1) as u64;
    let pairs = if spec.trim_write { 2 } else { 1 };
    (spec.number_ios.map(|n| pairs * n.div_ceil(files)), spec.io_limit.map(|b| pairs * b.div_ceil(files)))
}

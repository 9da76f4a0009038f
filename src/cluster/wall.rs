//! One test on one rank of an `--mpi` run, watched from the main thread for what the other
//! ranks say while it runs: that one of them failed (all stop at once, instead of at the end of
//! the test, and the run ends at the next meeting), and when the first rank is done.
//!
//! Stonewalling, as IOR has it. When the first rank is done (its time is up or its I/O
//! limit reached), rank 0 asks every rank what it has measured by then: those counts are the
//! "first done" figures, over the common window. Then, by `--stonewall`:
//! - none: each rank runs its own course;
//! - first-done: every rank stops there, so all measure the same window;
//! - wear-out: every rank goes on until it has done as many I/Os as the rank that had done the
//!   most by then (IOR's stoneWallingWearOut), so each did the same amount of work; its test
//!   ends on that count, not at its time.

use super::comm::{Comm, GRACE};
use super::Stonewall;
use crate::result::ranks::FirstDone;
use crate::result::TestResult;
use crate::run::io_count::{IoCount, Progress};
use crate::{run, targets};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where a rank stands in one test's stonewalling.
#[derive(Default)]
struct Wall {
    /// This rank's own course is done (the run ended, or its time is up).
    own: bool,
    /// Rank 0: done notices from the others; elsewhere: whether this rank sent its own.
    dones: u32,
    /// What this rank had measured when the first rank was done.
    at_first: Option<FirstDone>,
    /// Rank 0: each rank's count when the first was done.
    counts: Vec<Option<u64>>,
    /// The count every rank goes on to (wear-out), once known.
    target: Option<u64>,
}

/// What a rank looks at, once a millisecond, while its test runs.
struct Step<'a> {
    comm: &'a Comm,
    wall: Stonewall,
    io_count: &'a IoCount,
    halt: &'a AtomicBool,
    /// The rank's figures so far.
    p: Progress,
}

impl Wall {
    /// Rank 0: notes the others' done notices and counts; when the first rank is done, takes
    /// its own snapshot and asks every rank for theirs; under wear-out, sends every rank the
    /// count to reach. True once its test and every rank's part in the wall are over.
    fn step_root(&mut self, s: &Step, finished: bool) -> bool {
        let (comm, size) = (s.comm, s.comm.size());
        while comm.wall_from().is_some() {
            self.dones += 1;
        }
        if self.at_first.is_none() && (self.own || self.dones > 0) {
            self.at_first = Some(snapshot(&s.p));
            self.counts[0] = Some(s.p.ios);
            if s.wall == Stonewall::FirstDone {
                s.halt.store(true, Ordering::Relaxed);
            }
            (1..size).for_each(|r| comm.wall(r));
        }
        while let Some((r, n)) = comm.count_from() {
            self.counts[r as usize] = Some(n);
        }
        if s.wall == Stonewall::WearOut && self.target.is_none() && self.counts.iter().all(Option::is_some) {
            let most = self.counts.iter().flatten().copied().max().unwrap_or(0);
            (1..size).for_each(|r| comm.count(r, most));
            self.target = Some(most);
            s.io_count.limit(most.saturating_sub(s.io_count.progress().ios));
        }
        finished && self.dones == size - 1 && self.counts.iter().all(Option::is_some)
    }

    /// Another rank: tells rank 0 when its own course is done, answers the first-done call with
    /// its count, and under wear-out takes the count to reach. True once both are over.
    fn step_rank(&mut self, s: &Step, finished: bool) -> bool {
        if self.own && self.dones == 0 {
            self.dones = 1;
            s.comm.wall(0);
        }
        if self.at_first.is_none() && s.comm.wall_from().is_some() {
            self.at_first = Some(snapshot(&s.p));
            s.comm.count(0, s.p.ios);
            if s.wall == Stonewall::FirstDone {
                s.halt.store(true, Ordering::Relaxed);
            }
        }
        if s.wall == Stonewall::WearOut && self.target.is_none() {
            if let Some((_, most)) = s.comm.count_from() {
                self.target = Some(most);
                s.io_count.limit(most.saturating_sub(s.io_count.progress().ios));
            }
        }
        finished && self.dones == 1 && self.at_first.is_some()
    }

    /// Says on the test why it stopped where it did: another rank's failure or the stonewall.
    fn note(&self, t: &mut TestResult, failed: Option<u32>, interrupt: &AtomicBool) {
        if let Some(r) = failed {
            t.notices.push(format!("stopped when rank {r} failed"));
        } else if t.interrupted && !interrupt.load(Ordering::Relaxed) {
            // Cut short by the stonewall, not by Ctrl-C: its figures cover the common window.
            t.interrupted = false;
            t.notices.push("stopped when the first rank was done (--stonewall first-done)".into());
        }
        if let Some(n) = self.target {
            t.notices.push(format!(
                "went on to {n} I/Os or more, the most any rank had done when the first was done (--stonewall wear-out)"
            ));
        }
    }
}

fn snapshot(p: &Progress) -> FirstDone {
    FirstDone { ios: p.ios, bytes: p.bytes, seconds: p.seconds }
}

/// One test on this rank as watched: its result, what it had measured when the first rank was
/// done, and when its measured window began and its run was over.
pub(super) struct Watched {
    pub t: TestResult,
    pub first_done: Option<FirstDone>,
    pub window: (Option<Instant>, Option<Instant>),
}

/// One test on this rank, watched.
pub(super) fn run_watched(
    comm: &Comm,
    wall: Stonewall,
    spec: &crate::workload::Spec,
    targets: &[targets::Prepared],
    interrupt: &AtomicBool,
    opts: &run::RunOptions,
) -> anyhow::Result<Watched> {
    let halt = AtomicBool::new(false);
    let (rank, size) = (comm.rank(), comm.size());
    let io_count = Arc::new(IoCount::new(wall == Stonewall::WearOut));
    let opts = run::RunOptions {
        progress: opts.progress,
        trace: opts.trace.clone(),
        io_count: Some(io_count.clone()),
        hush: opts.hush,
        agg_bw: opts.agg_bw.clone(),
    };
    let mut w = Wall { counts: vec![None; size as usize], ..Default::default() };
    // The rank whose failure stopped this one, if one did; whether this one failed, and has
    // said so (at once: the others stop now, not at the end of their test).
    let mut failed = None;
    let (errored, mut said) = (AtomicBool::new(false), false);
    let r = std::thread::scope(|s| {
        let h = s.spawn(|| {
            let r = run::run_test(spec, targets, &halt, &opts);
            errored.store(r.is_err(), Ordering::SeqCst);
            r
        });
        // Once the run is stopped, a rank whose notice does not come is not waited for.
        let mut since = None;
        loop {
            let finished = h.is_finished();
            if finished && comm.stopped() && since.get_or_insert_with(Instant::now).elapsed() > GRACE {
                break;
            }
            if interrupt.load(Ordering::Relaxed) {
                halt.store(true, Ordering::Relaxed);
            }
            if finished && !said && errored.load(Ordering::SeqCst) {
                said = true;
                say_failed(comm);
            }
            while let Some(r) = comm.failed_rank() {
                if failed.is_none() && rank == 0 {
                    (1..size).filter(|&k| k != r).for_each(|k| comm.fail_notice(k, r));
                }
                failed.get_or_insert(r);
                halt.store(true, Ordering::Relaxed);
            }
            let p = io_count.progress();
            w.own |= finished || (io_count.open_ended() && p.seconds >= spec.duration);
            let step = Step { comm, wall, io_count: &io_count, halt: &halt, p };
            let over = if rank == 0 { w.step_root(&step, finished) } else { w.step_rank(&step, finished) };
            if over && (wall != Stonewall::WearOut || w.target.is_some()) {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        h.join().unwrap_or_else(|_| Err(anyhow::anyhow!("the run panicked")))
    });
    let mut t = match r {
        Ok(t) => t,
        Err(e) => {
            if !said {
                say_failed(comm);
            }
            return Err(e);
        }
    };
    w.note(&mut t, failed, interrupt);
    Ok(Watched { t, first_done: w.at_first, window: io_count.window() })
}

/// This rank failed: rank 0 tells the others, another rank tells rank 0 (which tells the rest).
fn say_failed(comm: &Comm) {
    if comm.rank() == 0 {
        (1..comm.size()).for_each(|k| comm.fail_notice(k, 0));
    } else {
        comm.fail_notice(0, comm.rank());
    }
}

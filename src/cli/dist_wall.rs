//! One test on one rank of an `--mpi` run, watched from the main thread for what the other
//! ranks say while it runs: that one of them failed (all stop at once, instead of at the end of
//! the test, and the run ends at the next meeting), or with `--stonewall first-done` that the
//! first one is done.

use super::dist::Stonewall;
use crate::dist::comm::{Comm, GRACE};
use crate::result::TestResult;
use crate::{run, target};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// One test on this rank. A rank whose test fails tells rank 0, which tells the others to stop.
/// With `first-done`, every rank stops when the first is done: each tells rank 0 when its run
/// ends, and rank 0 tells all to stop at the first such end (its own included), so all measure
/// the same window.
pub(super) fn run_watched(
    comm: &Comm,
    wall: Stonewall,
    spec: &crate::spec::Spec,
    targets: &[target::Prepared],
    interrupt: &AtomicBool,
    opts: &run::RunOptions,
) -> anyhow::Result<TestResult> {
    let halt = AtomicBool::new(false);
    let (rank, size) = (comm.rank(), comm.size());
    let walled = wall == Stonewall::FirstDone;
    // The rank whose failure stopped this one, if one did.
    let mut failed = None;
    let r = std::thread::scope(|s| {
        let h = s.spawn(|| run::run_test(spec, targets, &halt, opts));
        let (mut stopped, mut told, mut ended) = (false, false, 0);
        // Once the run is stopped, a rank whose notice does not come is not waited for.
        let mut since = None;
        loop {
            let finished = h.is_finished();
            if finished && (!walled || (comm.stopped() && since.get_or_insert_with(Instant::now).elapsed() > GRACE)) {
                break;
            }
            if interrupt.load(Ordering::Relaxed) {
                halt.store(true, Ordering::Relaxed);
            }
            while let Some(r) = comm.failed_rank() {
                if failed.is_none() && rank == 0 {
                    (1..size).filter(|&k| k != r).for_each(|k| comm.fail_notice(k, r));
                }
                failed.get_or_insert(r);
                halt.store(true, Ordering::Relaxed);
            }
            if !walled {
                std::thread::sleep(Duration::from_millis(1));
                continue;
            }
            if rank == 0 {
                while comm.wall_from().is_some() {
                    ended += 1;
                }
                if !stopped && (finished || ended > 0) {
                    stopped = true;
                    halt.store(true, Ordering::Relaxed);
                    (1..size).for_each(|r| comm.wall(r));
                }
                if finished && ended == size - 1 {
                    break;
                }
            } else {
                if !stopped && comm.wall_from().is_some() {
                    stopped = true;
                    halt.store(true, Ordering::Relaxed);
                }
                if finished && !told {
                    told = true;
                    comm.wall(0);
                }
                if finished && stopped {
                    break;
                }
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        h.join().unwrap_or_else(|_| Err(anyhow::anyhow!("the run panicked")))
    });
    let mut t = match r {
        Ok(t) => t,
        Err(e) => {
            if rank == 0 {
                (1..size).for_each(|k| comm.fail_notice(k, 0));
            } else {
                comm.fail_notice(0, rank);
            }
            return Err(e);
        }
    };
    if let Some(r) = failed {
        t.notices.push(format!("stopped when rank {r} failed"));
    } else if t.interrupted && !interrupt.load(Ordering::Relaxed) {
        // Cut short by the stonewall, not by Ctrl-C: its figures cover the common window.
        t.interrupted = false;
        t.notices.push("stopped when the first rank was done (--stonewall first-done)".into());
    }
    Ok(t)
}

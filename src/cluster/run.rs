//! `--mpi` on MPI: every rank prepares its own targets and says whether it could; then, test
//! by test, the ranks meet, take a common start time from rank 0 and run; at the end each rank
//! sends rank 0 what it measured. A rank that fails sends its error in place of its next
//! "ready", so the others stop at their next meeting instead of waiting for it, and rank 0
//! names it; what the others measured is still reported, marked partial.
//!
//! A rank that dies (killed, its host gone) sends nothing: mpirun then stops the others with
//! SIGTERM and kills them a second later. Each rank stops measuring and removes its test files;
//! rank 0 waits a moment for the others' last words (`comm::GRACE`), names the ranks that gave
//! none as lost, and reports what it has: its own measurements, the survivors', and every
//! test the lost ranks had finished (each rank sends its finished tests at the next meeting).

use super::combine::{combine, rank_row, RankMeta};
use super::comm::{now_ns, wait_until, ClockOffset, Comm};
use super::group::{Final, Group, Stopped};
use super::{expand_rank, rank_file, share_region, shared_targets, Stonewall};
use crate::error::{EXIT_FAIL, EXIT_USAGE};
use crate::result::Kind;
use crate::result::TestResult;
use crate::run::RunOptions;
use crate::session::{
    finish, install_interrupt, prepare, run_items, Item, Output, Passes, Ready, Request, Runner, REMOVE_AT_STOP,
};
use crate::targets;
use crate::workload::Spec;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How far ahead of now rank 0 sets a common start: enough for the message to reach every rank.
const LEAD: Duration = Duration::from_millis(100);

/// Runs `items` on every rank and reports on rank 0. Returns the exit code, the same on
/// every rank.
pub fn execute(req: &Request, wall: Stonewall) -> anyhow::Result<i32> {
    let Request { command, items, output, passes } = *req;
    let shared = shared_targets(items.iter().flat_map(|i| i.spec.targets.iter()))?;
    let mut group = Group::join(Comm::init(install_interrupt())?);
    crate::run::keep_mergeable();
    let rank = group.comm.rank();
    let items: Vec<Item> = items
        .iter()
        .map(|i| {
            let mut i = i.clone();
            i.spec.targets = i.spec.targets.iter().map(|t| expand_rank(t, rank)).collect();
            i
        })
        .collect();
    let started_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let host = group.comm.host().to_string();
    let mut fin = Final { host, error: None, targets: Vec::new(), tests: Vec::new() };
    let on = Rank { shared, wall, passes };
    match prepare_rank(&mut group, &items, shared, output) {
        Err(e) => fin.error = Some(format!("{e:#}")),
        Ok(mut p) => run_rank(&mut group, &items, &on, &mut p, &mut fin),
    }
    let code = match group.done(fin)? {
        None => 0,
        // Whatever happens to the report, the other ranks wait for this exit code.
        Some(finals) => report(command, started_at, finals, output).unwrap_or_else(|e| crate::error::exit_code(&e)),
    };
    let code = group.exit_code(code);
    if group.comm.stopped() {
        group.comm.abandon();
    }
    Ok(code)
}

/// How this rank runs its tests.
struct Rank<'a> {
    /// The ranks share their targets, each on its own part.
    shared: bool,
    wall: Stonewall,
    passes: &'a Passes,
}

/// This rank's targets, prepared. A shared file is created once, by rank 0, before the others
/// open it; they then treat it as this run's (written to without --allow-write, removed by
/// rank 0). A region too small to split is refused before any file is made.
fn prepare_rank(group: &mut Group, items: &[Item], shared: bool, output: &Output) -> anyhow::Result<Ready> {
    let (rank, n) = (group.comm.rank(), group.comm.size());
    if shared && rank != 0 {
        let made: Vec<String> =
            group.comm.receive(0).ok().and_then(|m| serde_json::from_slice(&m).ok()).unwrap_or_default();
        targets::adopt(made.iter().map(Into::into));
    }
    let too_small = items
        .iter()
        .filter(|_| shared)
        .find_map(|i| my_part(&i.spec, &targets::plan(&i.spec).unwrap_or_default(), rank, n).err());
    let prepared = match too_small {
        Some(e) => Err(e),
        None => prepare(items, output),
    };
    if shared && rank == 0 {
        let made: Vec<String> = prepared.as_ref().map_or(Vec::new(), |p| {
            p.targets.iter().filter(|t| t.info.created).map(|t| t.plan.path.display().to_string()).collect()
        });
        let _ = group.comm.broadcast(&serde_json::to_vec(&made).expect("serialisable"));
    }
    prepared
}

/// Runs the tests on this rank, each started with the others, and cleans up; what it measured
/// and why it stopped early, if it did, go into `fin`.
fn run_rank(group: &mut Group, items: &[Item], on: &Rank, p: &mut Ready, fin: &mut Final) {
    let size = group.comm.size();
    REMOVE_AT_STOP.store(!p.base.keep, Ordering::SeqCst);
    p.opts.trace = p.opts.trace.take().map(|t| rank_file(&t.to_string_lossy(), group.comm.rank(), size).into());
    // Before the ranks meet, so that no rank's first test starts late by it.
    crate::stats::clock::RunClock::calibrate();
    let result = if group.ready().unwrap_or(false) {
        let clock = group.comm.clock_offset();
        let mut it = items.iter();
        let (interrupt, opts) = (&p.interrupt, &p.opts);
        // Both closures below talk to the other ranks, one at a time.
        let cell = std::cell::RefCell::new(&mut *group);
        let mut measure = |spec: &Spec, targets: &mut [targets::Prepared]| {
            let part = if on.shared {
                let plans: Vec<targets::Plan> = targets.iter().map(|t| t.plan.clone()).collect();
                Some(my_part(spec, &plans, cell.borrow().comm.rank(), size)?)
            } else {
                None
            };
            let test = Test {
                spec: part.as_ref().unwrap_or(spec),
                region: part.as_ref().map(|s| (s.offset, s.range.unwrap_or(0))),
            };
            measure_together(&mut cell.borrow_mut(), &test, targets, on.wall, clock, interrupt, opts)
        };
        let mut choose = |runs: &[TestResult]| cell.borrow_mut().agree_pass(runs);
        let mut next = |done: &[TestResult]| {
            cell.borrow_mut().finished(done);
            it.next().cloned()
        };
        let runner = Runner { measure: &mut measure, choose: &mut choose };
        let (tests, r) = run_items(&mut next, &mut p.targets, interrupt, false, on.passes, runner);
        fin.tests = tests;
        r
    } else {
        Err(Stopped.into())
    };
    targets::cleanup(&p.targets, p.base.keep);
    fin.targets = p.targets.iter().map(|t| t.info.clone()).collect();
    if let Err(e) = result {
        if !e.is::<Stopped>() {
            fin.error = Some(format!("{e:#}"));
        }
    }
}

/// One test as this rank runs it: its spec, on its part of a shared region if it has one.
struct Test<'a> {
    spec: &'a Spec,
    /// (offset, length) of this rank's part.
    region: Option<(u64, u64)>,
}

/// Meets the other ranks, starts at the common time and runs the test watched; its result
/// carries this rank's row: where its I/O began and ended on rank 0's clock.
fn measure_together(
    group: &mut Group,
    test: &Test,
    targets: &mut [targets::Prepared],
    wall: Stonewall,
    clock: ClockOffset,
    interrupt: &AtomicBool,
    opts: &RunOptions,
) -> anyhow::Result<TestResult> {
    if !group.ready()? {
        return Err(Stopped.into());
    }
    let start = group.comm.start_time(LEAD)?;
    wait_until(start, clock);
    let waited = Instant::now();
    let w = super::wall::run_watched(&group.comm, wall, test.spec, targets, interrupt, opts)?;
    // Where the rank's I/O began (its measured window less the warm-up) and ended, after the
    // common start on rank 0's clock: the start spread is the ranks' set-up (threads, files,
    // rings) as much as their clocks.
    let on_root_clock = |at: Instant| {
        let ago = Instant::now().saturating_duration_since(at).as_nanos() as i64;
        (now_ns() - ago - clock.offset_ns - start) as f64 / 1e6
    };
    let warmup = Duration::from_secs_f64(test.spec.warmup);
    let began = w.window.0.map_or(waited, |m| m.checked_sub(warmup).unwrap_or(m));
    let (mut t, first_done) = (w.t, w.first_done);
    let meta = RankMeta {
        rank: group.comm.rank(),
        host: group.comm.host().to_string(),
        start_offset_ms: on_root_clock(began),
        end_offset_ms: on_root_clock(w.window.1.unwrap_or_else(Instant::now)),
        clock_offset_ms: clock.offset_ns as f64 / 1e6,
        clock_rtt_ms: clock.rtt_ns as f64 / 1e6,
        region: test.region,
        first_done,
    };
    t.ranks = vec![rank_row(&t, &meta)];
    Ok(t)
}

/// This rank's part of the shared targets' region (the smallest target's, if several). Before
/// the targets are prepared, `plans` may be empty (a planning error, which preparing reports).
fn my_part(spec: &Spec, plans: &[targets::Plan], rank: u32, size: u32) -> anyhow::Result<Spec> {
    let Some(smallest) = plans.iter().min_by_key(|p| p.size) else { return Ok(spec.clone()) };
    share_region(spec, smallest.size, rank, size).map_err(|e| {
        anyhow::Error::new(crate::error::UsageError::new("--mpi", format!("{}: {e}", smallest.path.display())))
    })
}

/// Rank 0: the combined result, printed and saved; failed ranks named. Returns the exit code.
fn report(command: Kind, started_at: String, finals: Vec<Final>, output: &Output) -> anyhow::Result<i32> {
    let failed: Vec<String> = finals
        .iter()
        .enumerate()
        .filter_map(|(r, f)| f.error.as_ref().map(|e| format!("rank {r} ({}) failed: {e}", f.host)))
        .collect();
    let n = finals.iter().map(|f| f.tests.len()).max().unwrap_or(0);
    let mut tests = Vec::new();
    for k in 0..n {
        let per: Vec<TestResult> = finals.iter().filter_map(|f| f.tests.get(k).cloned()).collect();
        let Some(mut t) = combine(&per) else { continue };
        if per.len() < finals.len() {
            let mut why = format!("partial: {} of {} ranks measured this test", per.len(), finals.len());
            if !failed.is_empty() {
                why = format!("{why}; {}", failed.join("; "));
            }
            t.failed = Some(t.failed.map_or(why.clone(), |f| format!("{why}; {f}")));
        }
        tests.push(t);
    }
    // The same bad input on every rank (a region too small to split): one line, as for one host.
    let errors: Vec<&String> = finals.iter().filter_map(|f| f.error.as_ref()).collect();
    let same = errors.windows(2).all(|w| w[0] == w[1]);
    if tests.is_empty() && errors.len() == finals.len() && errors[0].starts_with("--mpi: ") && same {
        eprintln!("error: {}", errors[0]);
        return Ok(EXIT_USAGE);
    }
    // Named first: when a rank died, mpirun may not pass on all of a long report.
    if !failed.is_empty() {
        eprintln!("error: {}", failed.join("; "));
    }
    let mut code = 0;
    if !tests.is_empty() {
        let targets = finals.iter().flat_map(|f| f.targets.iter().cloned()).collect();
        let interrupt = std::sync::atomic::AtomicBool::new(false);
        code = finish(command, started_at, targets, tests, &interrupt, output, &|_| Ok(()))?;
    }
    Ok(if failed.is_empty() { code } else { EXIT_FAIL })
}

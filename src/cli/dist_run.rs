//! `--mpi` on MPI: every rank prepares its own targets and says whether it could; then, test
//! by test, the ranks meet, take a common start time from rank 0 and run; at the end each rank
//! sends rank 0 what it measured. A rank that fails sends its error in place of its next
//! "ready", so the others stop at their next meeting instead of waiting for it, and rank 0
//! names it; what the others measured is still reported, marked partial.

use super::dist::{Dist, Stonewall};
use super::exec::{best_pass, finish, pass_keys, prepare, run_items, Item, Output, Passes, Runner};
use super::EXIT_FAIL;
use crate::dist::combine::{combine, rank_row, RankMeta};
use crate::dist::comm::{now_ns, wait_until, Comm};
use crate::dist::{expand_rank, rank_file};
use crate::result::{TargetInfo, TestResult};
use crate::{run, target};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How far ahead of now rank 0 sets a common start: enough for the message to reach every rank.
const LEAD: Duration = Duration::from_millis(100);

#[derive(Serialize, Deserialize)]
enum Msg {
    Ready,
    /// (complete, MB/s) of each pass of a test, to keep the pass that was best for all ranks.
    Passes(Vec<(bool, f64)>),
    Done(Box<Final>),
}

/// Everything a rank measured, and why it stopped early if it did.
#[derive(Serialize, Deserialize)]
struct Final {
    host: String,
    error: Option<String>,
    targets: Vec<TargetInfo>,
    tests: Vec<TestResult>,
}

/// Another rank stopped: this one stops too, without an error of its own.
#[derive(Debug)]
struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("stopped because another rank did")
    }
}

impl std::error::Error for Stopped {}

struct Group {
    comm: Comm,
    /// On rank 0: what each rank sent once it was done.
    finals: Vec<Option<Final>>,
}

impl Group {
    fn post(&self, to: u32, m: &Msg) {
        self.comm.send(to, &serde_json::to_vec(m).expect("serialisable"));
    }

    /// Rank 0: the next message of every rank not yet done, but for "done".
    fn collect(&mut self) -> anyhow::Result<Vec<(u32, Msg)>> {
        let mut live = Vec::new();
        for r in 1..self.comm.size() {
            if self.finals[r as usize].is_some() {
                continue;
            }
            match serde_json::from_slice(&self.comm.receive(r))? {
                Msg::Done(f) => self.finals[r as usize] = Some(*f),
                m => live.push((r, m)),
            }
        }
        Ok(live)
    }

    /// Every rank is ready: true, and the run goes on; false once any rank is done.
    fn ready(&mut self) -> anyhow::Result<bool> {
        if self.comm.rank() != 0 {
            self.post(0, &Msg::Ready);
            return Ok(self.comm.receive(0) == [1]);
        }
        let ready = self.collect()?;
        let go = self.finals.iter().all(Option::is_none);
        for (r, _) in ready {
            self.comm.send(r, &[go as u8]);
        }
        Ok(go)
    }

    /// The pass every rank keeps of a test run several times (CrystalDiskMark's best of N): the
    /// best of the ranks' summed MB/s, so the combined figures come from one common window.
    fn agree_pass(&mut self, runs: &[TestResult]) -> anyhow::Result<usize> {
        let mine = pass_keys(runs);
        if self.comm.rank() != 0 {
            self.post(0, &Msg::Passes(mine));
            return match self.comm.receive(0).as_slice() {
                [1, rest @ ..] => Ok(u32::from_le_bytes(rest.try_into()?) as usize),
                _ => Err(Stopped.into()),
            };
        }
        let live = self.collect()?;
        let go = self.finals.iter().all(Option::is_none);
        let mut sum = mine;
        for (_, m) in &live {
            if let Msg::Passes(p) = m {
                for (s, o) in sum.iter_mut().zip(p) {
                    *s = (s.0 && o.0, s.1 + o.1);
                }
            }
        }
        let best = best_pass(&sum);
        let verdict: Vec<u8> = if go { [&[1u8][..], &(best as u32).to_le_bytes()].concat() } else { vec![0] };
        for (r, _) in live {
            self.comm.send(r, &verdict);
        }
        if go {
            Ok(best)
        } else {
            Err(Stopped.into())
        }
    }

    /// This rank is done. Rank 0 then tells the ranks still running to stop, and returns
    /// every rank's final once all have sent theirs.
    fn done(&mut self, f: Final) -> anyhow::Result<Option<Vec<Final>>> {
        if self.comm.rank() != 0 {
            self.post(0, &Msg::Done(Box::new(f)));
            return Ok(None);
        }
        self.finals[0] = Some(f);
        while self.finals.iter().any(Option::is_none) {
            for (r, _) in self.collect()? {
                self.comm.send(r, &[0]);
            }
        }
        Ok(Some(self.finals.iter_mut().map(|f| f.take().expect("every rank is done")).collect()))
    }

    /// Rank 0's exit code, on every rank.
    fn exit_code(&self, code: i32) -> i32 {
        i32::from_le_bytes(self.comm.broadcast(&code.to_le_bytes()).try_into().unwrap_or([0, 0, 0, 1]))
    }
}

pub fn execute(
    command: &str,
    items: &[Item],
    size_given: bool,
    output: &Output,
    passes: &Passes,
    dist: Dist,
) -> anyhow::Result<i32> {
    let comm = Comm::init()?;
    crate::run::keep_second_buckets();
    let (rank, host) = (comm.rank(), comm.host().to_string());
    let mut group = Group { finals: (0..comm.size()).map(|_| None).collect(), comm };
    let items: Vec<Item> = items
        .iter()
        .map(|i| {
            let mut i = i.clone();
            i.spec.targets = i.spec.targets.iter().map(|t| expand_rank(t, rank)).collect();
            i
        })
        .collect();
    let started_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let mut fin = Final { host: host.clone(), error: None, targets: Vec::new(), tests: Vec::new() };
    match prepare(&items, size_given, output) {
        Err(e) => fin.error = Some(format!("{e:#}")),
        Ok(mut p) => {
            let size = group.comm.size();
            p.opts.trace = p.opts.trace.take().map(|t| rank_file(&t.to_string_lossy(), rank, size).into());
            let result = if group.ready()? {
                let clock = group.comm.clock_offset();
                let mut it = items.iter();
                let (interrupt, opts) = (&p.interrupt, &p.opts);
                // Both closures below talk to the other ranks, one at a time.
                let shared = std::cell::RefCell::new(&mut group);
                let mut measure = |spec: &crate::spec::Spec, targets: &mut [target::Prepared]| {
                    let mut group = shared.borrow_mut();
                    if !group.ready()? {
                        return Err(Stopped.into());
                    }
                    let start = group.comm.start_time(LEAD);
                    wait_until(start, clock);
                    let on_root_clock = || (now_ns() - clock.offset_ns - start) as f64 / 1e6;
                    let start_offset_ms = on_root_clock();
                    let mut t = run_walled(&group.comm, dist.stonewall, spec, targets, interrupt, opts)?;
                    let meta = RankMeta {
                        rank,
                        host: host.clone(),
                        start_offset_ms,
                        end_offset_ms: on_root_clock(),
                        clock_offset_ms: clock.offset_ns as f64 / 1e6,
                        clock_rtt_ms: clock.rtt_ns as f64 / 1e6,
                    };
                    t.ranks = vec![rank_row(&t, &meta)];
                    Ok(t)
                };
                let mut choose = |runs: &[TestResult]| shared.borrow_mut().agree_pass(runs);
                let mut next = |_: &[TestResult]| it.next().cloned();
                let runner = Runner { measure: &mut measure, choose: &mut choose };
                let (tests, r) = run_items(&mut next, &mut p.targets, interrupt, false, passes, runner);
                fin.tests = tests;
                r
            } else {
                Err(Stopped.into())
            };
            target::cleanup(&p.targets, p.base.keep);
            fin.targets = p.targets.iter().map(|t| t.info.clone()).collect();
            if let Err(e) = result {
                if !e.is::<Stopped>() {
                    fin.error = Some(format!("{e:#}"));
                }
            }
        }
    }
    let code = match group.done(fin)? {
        None => 0,
        // Whatever happens to the report, the other ranks wait for this exit code.
        Some(finals) => report(command, started_at, finals, output).unwrap_or_else(|e| super::fail(&e)),
    };
    Ok(group.exit_code(code))
}

/// Rank 0: the combined result, printed and saved; failed ranks named. Returns the exit code.
fn report(command: &str, started_at: String, finals: Vec<Final>, output: &Output) -> anyhow::Result<i32> {
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
    let mut code = 0;
    if !tests.is_empty() {
        let targets = finals.iter().flat_map(|f| f.targets.iter().cloned()).collect();
        let interrupt = std::sync::atomic::AtomicBool::new(false);
        code = finish(command, started_at, targets, tests, &interrupt, output, &|_| Ok(()))?;
    }
    if !failed.is_empty() {
        eprintln!("error: {}", failed.join("; "));
        code = EXIT_FAIL;
    }
    Ok(code)
}

/// One test on this rank. With `first-done`, every rank stops when the first is done: each
/// tells rank 0 when its run ends, and rank 0 tells all to stop at the first such end (its own
/// included), so all measure the same window.
fn run_walled(
    comm: &Comm,
    wall: Stonewall,
    spec: &crate::spec::Spec,
    targets: &[target::Prepared],
    interrupt: &AtomicBool,
    opts: &run::RunOptions,
) -> anyhow::Result<TestResult> {
    if wall == Stonewall::None {
        return run::run_test(spec, targets, interrupt, opts);
    }
    let halt = AtomicBool::new(false);
    let (rank, size) = (comm.rank(), comm.size());
    let r = std::thread::scope(|s| {
        let h = s.spawn(|| run::run_test(spec, targets, &halt, opts));
        let (mut stopped, mut told, mut ended) = (false, false, 0);
        loop {
            if interrupt.load(Ordering::Relaxed) {
                halt.store(true, Ordering::Relaxed);
            }
            let finished = h.is_finished();
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
    let mut t = r?;
    if t.interrupted && !interrupt.load(Ordering::Relaxed) {
        // Cut short by the stonewall, not by Ctrl-C: its figures cover the common window.
        t.interrupted = false;
        t.notices.push("stopped when the first rank was done (--stonewall first-done)".into());
    }
    Ok(t)
}

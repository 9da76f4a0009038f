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
use super::comm::{now_ns, wait_until, Comm, GRACE};
use super::{expand_rank, rank_file, share_region, shared_targets, Stonewall};
use crate::error::{EXIT_FAIL, EXIT_USAGE};
use crate::result::{TargetInfo, TestResult};
use crate::session::{
    best_pass, finish, install_interrupt, pass_keys, prepare, run_items, Item, Output, Passes, Runner, REMOVE_AT_STOP,
};
use crate::targets;
use crate::workload::Spec;
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How far ahead of now rank 0 sets a common start: enough for the message to reach every rank.
const LEAD: Duration = Duration::from_millis(100);

#[derive(Serialize, Deserialize)]
enum Msg {
    /// Ready for the next test; carries the tests finished since the last message.
    Ready(Vec<TestResult>),
    /// (complete, MB/s) of each pass of a test, to keep the pass that was best for all ranks.
    Passes(Vec<(bool, f64)>),
    Done(Box<Final>),
}

/// Everything a rank measured (but what it sent before), and why it stopped early if it did.
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
    /// On rank 0: every rank's host.
    hosts: Vec<String>,
    /// On rank 0: the tests each rank sent before it was done.
    got: Vec<Vec<TestResult>>,
    /// On rank 0: what each rank sent once it was done.
    finals: Vec<Option<Final>>,
    /// Elsewhere: this rank's finished tests not yet sent, and how many tests that covers.
    unsent: Vec<TestResult>,
    finished: usize,
}

impl Group {
    fn post(&self, to: u32, m: &Msg) {
        self.comm.send(to, &serde_json::to_vec(m).expect("serialisable"));
    }

    /// Rank 0: the next message of every rank not yet done (nor lost), but for "done".
    fn collect(&mut self) -> anyhow::Result<Vec<(u32, Msg)>> {
        let mut live = Vec::new();
        for r in 1..self.comm.size() {
            if self.finals[r as usize].is_some() {
                continue;
            }
            let Ok(m) = self.comm.receive(r) else { continue };
            match serde_json::from_slice(&m)? {
                Msg::Done(f) => self.finals[r as usize] = Some(*f),
                Msg::Ready(tests) => {
                    self.got[r as usize].extend(tests);
                    live.push((r, Msg::Ready(Vec::new())));
                }
                m => live.push((r, m)),
            }
        }
        Ok(live)
    }

    /// No rank is done or lost: the run goes on.
    fn go(&self) -> bool {
        self.finals.iter().all(Option::is_none) && self.comm.lost().is_empty()
    }

    /// This rank's tests so far (`done`): the new ones go to rank 0 at the next meeting.
    fn finished(&mut self, done: &[TestResult]) {
        if self.comm.rank() != 0 {
            self.unsent.extend(done[self.finished..].iter().cloned());
        }
        self.finished = done.len();
    }

    /// Every rank is ready: true, and the run goes on; false once any rank is done.
    fn ready(&mut self) -> anyhow::Result<bool> {
        if self.comm.rank() != 0 {
            let tests = std::mem::take(&mut self.unsent);
            self.post(0, &Msg::Ready(tests));
            return Ok(self.comm.receive(0)? == [1]);
        }
        let ready = self.collect()?;
        let go = self.go();
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
            return match self.comm.receive(0)?.as_slice() {
                [_, rest @ ..] if rest.len() == 4 => Ok(u32::from_le_bytes(rest.try_into()?) as usize),
                _ => Err(Stopped.into()),
            };
        }
        let live = self.collect()?;
        let mut sum = mine;
        for (_, m) in &live {
            if let Msg::Passes(p) = m {
                for (s, o) in sum.iter_mut().zip(p) {
                    *s = (s.0 && o.0, s.1 + o.1);
                }
            }
        }
        // Even when a rank is done or lost, the others keep the test they measured; the next
        // meeting stops them.
        let best = best_pass(&sum);
        for (r, _) in live {
            self.comm.send(r, &verdict(self.go(), best));
        }
        Ok(best)
    }

    /// This rank is done. Rank 0 then tells the ranks still running to stop, and returns
    /// every rank's final once all have sent theirs or are lost (a lost rank's final: the
    /// tests it sent, and the error that it was lost).
    fn done(&mut self, mut f: Final) -> anyhow::Result<Option<Vec<Final>>> {
        if self.comm.rank() != 0 {
            let rest = f.tests.split_off(self.finished.min(f.tests.len()));
            f.tests = std::mem::take(&mut self.unsent);
            f.tests.extend(rest);
            self.post(0, &Msg::Done(Box::new(f)));
            return Ok(None);
        }
        self.finals[0] = Some(f);
        let waiting = |g: &Group| (1..g.comm.size()).any(|r| g.finals[r as usize].is_none() && !g.comm.is_lost(r));
        while waiting(self) {
            for (r, m) in self.collect()? {
                match m {
                    // Each keeps its best pass of the test it measured.
                    Msg::Passes(p) => self.comm.send(r, &verdict(false, best_pass(&p))),
                    _ => self.comm.send(r, &[0]),
                }
            }
        }
        let lost = format!(
            "lost: no answer within {} ms once the run was stopped (killed, or its host or network gone)",
            GRACE.as_millis()
        );
        let mut all = Vec::new();
        for (r, f) in self.finals.iter_mut().enumerate() {
            let mut tests = std::mem::take(&mut self.got[r]);
            let mut f = f.take().unwrap_or_else(|| Final {
                host: self.hosts.get(r).cloned().unwrap_or_else(|| "?".into()),
                error: Some(lost.clone()),
                targets: Vec::new(),
                tests: Vec::new(),
            });
            tests.append(&mut f.tests);
            f.tests = tests;
            all.push(f);
        }
        Ok(Some(all))
    }

    /// Rank 0's exit code, on every rank (failure where rank 0 was lost).
    fn exit_code(&self, code: i32) -> i32 {
        match self.comm.broadcast(&code.to_le_bytes()) {
            Ok(c) => i32::from_le_bytes(c.try_into().unwrap_or([0, 0, 0, 1])),
            Err(e) => {
                eprintln!(
                    "error: rank {} ({}): {e}; what it measured is not reported",
                    self.comm.rank(),
                    self.comm.host()
                );
                EXIT_FAIL
            }
        }
    }
}

/// The pass to keep, and whether the run goes on.
fn verdict(go: bool, best: usize) -> Vec<u8> {
    [&[go as u8][..], &(best as u32).to_le_bytes()].concat()
}

pub fn execute(
    command: &str,
    items: &[Item],
    size_given: bool,
    output: &Output,
    passes: &Passes,
    wall: Stonewall,
) -> anyhow::Result<i32> {
    let shared = shared_targets(items.iter().flat_map(|i| i.spec.targets.iter()))?;
    let comm = Comm::init(install_interrupt())?;
    crate::run::keep_mergeable();
    let (rank, host) = (comm.rank(), comm.host().to_string());
    let hosts = comm.gather(host.as_bytes()).unwrap_or_default();
    let hosts = hosts.into_iter().map(|h| h.map_or("?".into(), |h| String::from_utf8_lossy(&h).into_owned())).collect();
    let n = comm.size() as usize;
    let (got, finals) = ((0..n).map(|_| Vec::new()).collect(), (0..n).map(|_| None).collect());
    let mut group = Group { comm, hosts, got, finals, unsent: Vec::new(), finished: 0 };
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
    // A shared file is created once, by rank 0, before the others open it; the others then
    // treat it as this run's (it is written to without --allow-write, and rank 0 removes it).
    if shared && rank != 0 {
        let made: Vec<String> =
            group.comm.receive(0).ok().and_then(|m| serde_json::from_slice(&m).ok()).unwrap_or_default();
        targets::adopt(made.iter().map(Into::into));
    }
    // A region too small to split is refused before any file is made.
    let prepared =
        match items.iter().filter(|_| shared).find_map(|i| {
            my_part(&i.spec, &targets::plan(&i.spec, size_given).unwrap_or_default(), rank, n as u32).err()
        }) {
            Some(e) => Err(e),
            None => prepare(&items, size_given, output),
        };
    if shared && rank == 0 {
        let made: Vec<String> = prepared.as_ref().map_or(Vec::new(), |p| {
            p.targets.iter().filter(|t| t.info.created).map(|t| t.plan.path.display().to_string()).collect()
        });
        let _ = group.comm.broadcast(&serde_json::to_vec(&made).expect("serialisable"));
    }
    match prepared {
        Err(e) => fin.error = Some(format!("{e:#}")),
        Ok(mut p) => {
            let size = group.comm.size();
            REMOVE_AT_STOP.store(!p.base.keep, Ordering::SeqCst);
            p.opts.trace = p.opts.trace.take().map(|t| rank_file(&t.to_string_lossy(), rank, size).into());
            let result = if group.ready().unwrap_or(false) {
                let clock = group.comm.clock_offset();
                let mut it = items.iter();
                let (interrupt, opts) = (&p.interrupt, &p.opts);
                // Both closures below talk to the other ranks, one at a time.
                let cell = std::cell::RefCell::new(&mut group);
                let mut measure = |spec: &crate::workload::Spec, targets: &mut [targets::Prepared]| {
                    let part = if shared {
                        Some(my_part(spec, &targets.iter().map(|t| t.plan.clone()).collect::<Vec<_>>(), rank, size)?)
                    } else {
                        None
                    };
                    let spec = part.as_ref().unwrap_or(spec);
                    let mut group = cell.borrow_mut();
                    if !group.ready()? {
                        return Err(Stopped.into());
                    }
                    let start = group.comm.start_time(LEAD)?;
                    wait_until(start, clock);
                    let waited = Instant::now();
                    let w = super::wall::run_watched(&group.comm, wall, spec, targets, interrupt, opts)?;
                    // Where the rank's I/O began (its measured window less the warm-up) and
                    // ended, after the common start on rank 0's clock: the start spread is
                    // the ranks' set-up (threads, files, rings) as much as their clocks.
                    let on_root_clock = |at: Instant| {
                        let ago = Instant::now().saturating_duration_since(at).as_nanos() as i64;
                        (now_ns() - ago - clock.offset_ns - start) as f64 / 1e6
                    };
                    let began =
                        w.window.0.map_or(waited, |m| m.checked_sub(Duration::from_secs_f64(spec.warmup)).unwrap_or(m));
                    let (mut t, first_done) = (w.t, w.first_done);
                    let meta = RankMeta {
                        rank,
                        host: host.clone(),
                        start_offset_ms: on_root_clock(began),
                        end_offset_ms: on_root_clock(w.window.1.unwrap_or_else(Instant::now)),
                        clock_offset_ms: clock.offset_ns as f64 / 1e6,
                        clock_rtt_ms: clock.rtt_ns as f64 / 1e6,
                        region: part.as_ref().map(|s| (s.offset, s.range.unwrap_or(0))),
                        first_done,
                    };
                    t.ranks = vec![rank_row(&t, &meta)];
                    Ok(t)
                };
                let mut choose = |runs: &[TestResult]| cell.borrow_mut().agree_pass(runs);
                let mut next = |done: &[TestResult]| {
                    cell.borrow_mut().finished(done);
                    it.next().cloned()
                };
                let runner = Runner { measure: &mut measure, choose: &mut choose };
                let (tests, r) = run_items(&mut next, &mut p.targets, interrupt, false, passes, runner);
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

/// This rank's part of the shared targets' region (the smallest target's, if several). Before
/// the targets are prepared, `plans` may be empty (a planning error, which preparing reports).
fn my_part(spec: &Spec, plans: &[targets::Plan], rank: u32, size: u32) -> anyhow::Result<Spec> {
    let Some(smallest) = plans.iter().min_by_key(|p| p.size) else { return Ok(spec.clone()) };
    share_region(spec, smallest.size, rank, size).map_err(|e| {
        anyhow::Error::new(crate::error::UsageError::new("--mpi", format!("{}: {e}", smallest.path.display())))
    })
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

//! The runner: starts one worker per (target × thread), keeps time (warm-up, measured window,
//! cool-down), reacts to Ctrl-C, samples CPU at the window's edges, and merges what the workers
//! recorded into a `TestResult`.

mod agglog;
mod assemble;
mod flow;
pub mod histlog;
pub mod io_count;
mod iolog;
mod live;
pub mod offsets;
mod on_drop;
mod onerror;
mod pace;
mod record;
mod sprandom;
mod stages;
mod start;
mod steady;
mod supervise;
mod think;
mod verifying;
mod worker;
mod workers;

use crate::engine;
use crate::result::TestResult;
use crate::targets::Prepared;
use crate::workload::{EngineKind, Spec};
pub use agglog::AggBw;
pub use assemble::keep_mergeable;
pub use iolog::{inflate as inflate_log, inflate_to as inflate_log_to};
use live::{progress_bar, progress_line, Collector, Mailbox};
use start::start_worker;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Barrier, OnceLock};
use std::time::Instant;
use supervise::supervise;

/// What the workers share. Times are ns since `t0`, read from `clock`.
pub struct Shared {
    ready: Barrier,
    start: Barrier,
    t0: OnceLock<Instant>,
    /// Started with `t0`: the clock the workers and the supervisor keep the window by.
    clock: OnceLock<crate::stats::clock::RunClock>,
    measure_start: u64,
    measure_end: AtomicU64,
    end: AtomicU64,
    /// Ctrl-C or a failed worker ends every worker's window here; `u64::MAX` until then.
    stop: AtomicU64,
    /// The longest start delay of the group's workers, ns: the group runs this much longer.
    max_delay: u64,
    abort: AtomicBool,
    trace: Option<crate::engine::trace::Sink>,
    logs: iolog::Sinks,
    flows: flow::Flows,
    io_count: Option<Arc<io_count::IoCount>>,
    /// Where each job's workers stop early (its steady state reached); `u64::MAX` until then.
    job_stop: Vec<AtomicU64>,
    /// The group's measured duration, ns: a job as long follows the group's window (which an
    /// I/O count may extend); a shorter one stops at its own runtime.
    duration: u64,
}

/// How to run, beyond what to run.
#[derive(Default)]
pub struct RunOptions {
    /// Show the live progress line (only drawn when stderr is a terminal).
    pub progress: bool,
    /// Write every issued I/O to this CSV file: worker,file,op,offset,length.
    pub trace: Option<std::path::PathBuf>,
    /// Shows what the run measured while it runs, and can end it at a count of I/Os.
    pub io_count: Option<Arc<io_count::IoCount>>,
    /// Notices stay in the results, not on stderr (fio's silence when stderr is no terminal).
    pub hush: bool,
    /// fio's --bandwidth-log: each finished second of the group, all jobs together.
    pub agg_bw: Option<Arc<AggBw>>,
}

/// The engine that will really run, its depth per worker, and notices about substitutions.
pub fn choose_engine(spec: &Spec, notices: &mut Vec<String>) -> (EngineKind, u32) {
    let (kind, depth, n) = engine::choose(spec.engine, spec.qd);
    notices.extend(n);
    (kind, depth)
}

/// Runs one test on prepared targets. `interrupt` is set by the Ctrl-C handler.
pub fn run_test(
    spec: &Spec,
    targets: &[Prepared],
    interrupt: &AtomicBool,
    opts: &RunOptions,
) -> anyhow::Result<TestResult> {
    let mut r = run_group(&[Job { spec, targets }], interrupt, opts)?;
    Ok(r.remove(0))
}

/// One of the tests a group runs at the same time (fio's jobs between two stonewalls).
pub struct Job<'a> {
    pub spec: &'a Spec,
    pub targets: &'a [Prepared],
}

/// The group's timeline, ns after the start: the longest warm-up, duration and cool-down of its
/// tests.
struct Window {
    warmup: f64,
    duration: f64,
    cooldown: f64,
    /// The latest a worker of the group may start, s.
    max_delay: f64,
}

impl Window {
    fn of(jobs: &[Job], notices: &mut [Vec<String>]) -> Window {
        let longest = |f: fn(&Spec) -> f64| jobs.iter().map(|j| f(j.spec)).fold(0.0, f64::max);
        let w = Window {
            warmup: longest(|s| s.warmup),
            duration: longest(|s| s.duration),
            cooldown: longest(|s| s.cooldown),
            max_delay: longest(|s| s.start_delay.max),
        };
        if jobs.len() > 1 {
            for (j, n) in jobs.iter().zip(notices) {
                // Each job keeps its own runtime and cool-down (its workers stop at them); a
                // warm-up is the group's, since the group measures from one instant.
                if j.spec.warmup != w.warmup {
                    n.push(format!("measured after {} s of warm-up, the group's longest", w.warmup));
                }
            }
        }
        w
    }

    /// (measured window start, its end, the end of the cool-down), ns.
    fn edges(&self) -> (u64, u64, u64) {
        let ns = |s: f64| (s * 1e9) as u64;
        let m_start = ns(self.warmup);
        let m_end = m_start + ns(self.duration);
        (m_start, m_end, m_end + ns(self.cooldown))
    }
}

/// Workers are numbered job by job, target by target, thread by thread: job `k` owns workers
/// `first[k]..first[k] + count[k]`.
struct Layout {
    first: Vec<usize>,
    count: Vec<usize>,
}

impl Layout {
    fn of(jobs: &[Job]) -> Layout {
        let count: Vec<usize> =
            jobs.iter().map(|j| j.targets.len() / j.spec.files_per_worker() * j.spec.threads as usize).collect();
        let first = count
            .iter()
            .scan(0, |acc, n| {
                let f = *acc;
                *acc += n;
                Some(f)
            })
            .collect();
        Layout { first, count }
    }

    fn workers(&self) -> usize {
        self.count.iter().sum()
    }

    fn of_job(&self, k: usize) -> std::ops::Range<usize> {
        self.first[k]..self.first[k] + self.count[k]
    }
}

impl Shared {
    fn new(
        w: &Window,
        workers: usize,
        jobs: usize,
        flows: flow::Flows,
        logs: iolog::Sinks,
        opts: &RunOptions,
        io_count: Option<Arc<io_count::IoCount>>,
    ) -> anyhow::Result<Shared> {
        let (m_start, mut m_end, mut end) = w.edges();
        if let Some(t) = &io_count {
            t.begin(workers, w.duration);
            if t.open_ended() {
                // Far enough never to come, far enough from overflowing with the delays added.
                (m_end, end) = (u64::MAX / 4, u64::MAX / 4);
            }
        }
        let trace = opts.trace.as_deref();
        let max_delay = (w.max_delay * 1e9) as u64;
        Ok(Shared {
            ready: Barrier::new(workers + 1),
            start: Barrier::new(workers + 1),
            t0: OnceLock::new(),
            clock: OnceLock::new(),
            measure_start: m_start,
            measure_end: AtomicU64::new(m_end),
            end: AtomicU64::new(end),
            stop: AtomicU64::new(u64::MAX),
            max_delay,
            abort: AtomicBool::new(false),
            flows,
            logs,
            io_count,
            job_stop: (0..jobs).map(|_| AtomicU64::new(u64::MAX)).collect(),
            duration: (w.duration * 1e9) as u64,
            trace: match trace {
                Some(p) => {
                    let f =
                        std::fs::File::create(p).map_err(|e| anyhow::anyhow!("creating trace {}: {e}", p.display()))?;
                    let mut w: Box<dyn Write + Send> = Box::new(std::io::BufWriter::new(f));
                    writeln!(w, "worker,file,op,offset,length")
                        .map_err(|e| anyhow::anyhow!("--trace {}: {e}", p.display()))?;
                    Some(crate::engine::trace::Sink::new(format!("--trace {}", p.display()), w))
                }
                None => None,
            },
        })
    }
}

impl Shared {
    /// The workers are done: fio's logs closed, everything in its file. What was measured
    /// stands; a file it could not be written to fails the command at its end.
    fn close_outputs(&mut self, agg: Option<&AggBw>) {
        let trace = self.trace.as_ref().map_or(Ok(()), |t| t.check());
        // Each output that failed is named, not only the first.
        for e in [self.logs.close(), trace, agg.map_or(Ok(()), AggBw::check)].into_iter().filter_map(Result::err) {
            crate::error::defer_write_failure(e);
        }
    }
}

/// The engine of each job, its depth, and what the user should know about them (printed now,
/// kept in the results).
fn engines(jobs: &[Job], hush: bool) -> (Vec<(EngineKind, u32)>, Vec<Vec<String>>) {
    jobs.iter()
        .map(|j| {
            let mut n = Vec::new();
            let e = choose_engine(j.spec, &mut n);
            for line in n.iter().filter(|_| !hush) {
                eprintln!("notice: {line}");
            }
            (e, n)
        })
        .unzip()
}

/// Runs several tests at once, in one measured window: the longest warm-up, duration and
/// cool-down of the group. Each test gets its own result; CPU and disk figures are the group's.
pub fn run_group(jobs: &[Job], interrupt: &AtomicBool, opts: &RunOptions) -> anyhow::Result<Vec<TestResult>> {
    let (engines, mut notices) = engines(jobs, opts.hush);
    let window = Window::of(jobs, &mut notices);
    let layout = Layout::of(jobs);
    let flows = flow::Flows::of(jobs.iter().zip(&layout.count).map(|(j, n)| (j.spec, *n)));
    let logs = iolog::Sinks::open(jobs.iter().map(|j| (j.spec, j.targets)))?;
    // The until-steady mode reads the workers' measured I/O count between their seconds.
    let fine = jobs.iter().any(|j| j.spec.steady.is_some_and(|s| s.interval_ms > 0));
    let counts = opts.io_count.clone().or_else(|| fine.then(|| Arc::new(io_count::IoCount::new(false))));
    let mut shared = Shared::new(&window, layout.workers(), jobs.len(), flows, logs, opts, counts)?;
    let mailboxes: Vec<Mailbox> = (0..layout.workers()).map(|_| Mailbox::new()).collect();
    let mut collectors: Vec<Collector> = layout.count.iter().map(|n| Collector::new(*n)).collect();
    let mut steady: Vec<Option<steady::SteadyCheck>> =
        jobs.iter().map(|j| j.spec.steady.map(steady::SteadyCheck::new)).collect();
    let mut drops: Vec<Option<on_drop::DropCheck>> =
        jobs.iter().map(|j| j.spec.stop_on_drop.map(on_drop::DropCheck::new)).collect();
    let started_at = std::time::SystemTime::now();
    let bar = progress_bar(opts.progress);
    let devices = devices_of(jobs);

    let run_id = verifying::new_run_id();
    let mut maps = verifying::Verified::default();
    let verified = verified_targets(jobs, run_id, interrupt, &mut maps)?;

    let per_job = workers::of_group(jobs, &layout, &engines, (&shared, &mailboxes), &verified, run_id)?;
    let m = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(layout.workers());
        for (k, (job, args_of)) in jobs.iter().zip(per_job).enumerate() {
            for (w, args, files) in args_of {
                let (kind, shared) = (engines[k].0, &shared);
                let spec = job.spec;
                let spawned = std::thread::Builder::new().name(format!("iolens-w{w}")).spawn_scoped(scope, move || {
                    crate::targets::affinity::hold_worker(&spec.cpus, w)?;
                    let paths = files.paths();
                    let setup = start::engine_setup(spec, files.as_slice(), &paths, args.depth);
                    start_worker(kind, &setup, args, shared)
                });
                handles.push(spawned.expect("spawning a worker thread"));
            }
        }
        let m_start = shared.measure_start;
        let mut agg_logged = 0;
        let mut tick = |at: Option<(u64, u64, u64)>| {
            for (k, c) in collectors.iter_mut().enumerate() {
                c.collect(&mailboxes[layout.of_job(k)], assemble::mergeable());
            }
            if let Some((t, _, _)) = at {
                // A second counts once every worker has had time to hand it over.
                let complete = (t.saturating_sub(m_start + 50_000_000) / 1_000_000_000) as usize;
                agg_logged = agglog_seconds(opts.agg_bw.as_deref(), &collectors, agg_logged, complete);
                steady::judge_all(&mut steady, &collectors, complete, (&shared, &layout), t);
                on_drop::judge_all(&mut drops, &collectors, complete, &shared, t);
            }
            if let (Some(b), Some((t, m_end, end))) = (&bar, at) {
                b.set_message(progress_line(t, m_start, m_end, end, &collectors));
            }
        };
        supervise(handles, &shared, interrupt, &devices, &mut tick)
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    shared.close_outputs(opts.agg_bw.as_deref());
    let recs = m.recs.into_iter().collect::<Result<Vec<_>, String>>().map_err(|e| anyhow::anyhow!("I/O error: {e}"))?;
    Ok(jobs
        .iter()
        .zip(notices)
        .enumerate()
        .map(|(k, (job, notices))| {
            assemble::test_result(assemble::Parts {
                spec: job.spec,
                engine: engines[k].0,
                depth: engines[k].1,
                notices,
                started_at,
                recs: &recs[layout.of_job(k)],
                collector: &collectors[k],
                cpu: m.cpu.clone(),
                disks: m.disks.clone(),
                m_start: shared.measure_start,
                interrupted: m.interrupted,
                threads: job.spec.threads,
                steady: steady[k].as_ref().map(|s| s.outcome()),
                dropped: drops[k].as_ref().and_then(|d| d.out),
            })
        })
        .collect())
}

/// A job's verified targets, each with its index among the job's targets.
type VerifiedTargets = Vec<(std::sync::Arc<verifying::VerifyTarget>, u32)>;

/// The page maps of the jobs that verify, one list per job (empty for the others).
fn verified_targets(
    jobs: &[Job],
    run_id: u64,
    interrupt: &AtomicBool,
    maps: &mut verifying::Verified,
) -> anyhow::Result<Vec<VerifiedTargets>> {
    jobs.iter()
        .map(|j| match j.spec.verify {
            Some(_) => verifying::prepare_targets(j.spec, j.targets, run_id, interrupt, maps),
            None => Ok(Vec::new()),
        })
        .collect()
}

/// Writes fio's aggregate bandwidth lines for the seconds from `from` up to `complete`;
/// returns where the next call starts.
fn agglog_seconds(agg: Option<&AggBw>, collectors: &[Collector], from: usize, complete: usize) -> usize {
    let Some(agg) = agg else { return from };
    for sec in from..complete {
        let mut bytes = [0u64; 2];
        for c in collectors {
            if let Some(s) = c.seconds.get(sec) {
                bytes[0] += s.bytes[0];
                bytes[1] += s.bytes[1];
            }
        }
        agg.second(bytes);
    }
    complete.max(from)
}

/// The block devices under the group's targets, each once (their counters are sampled).
fn devices_of(jobs: &[Job]) -> Vec<String> {
    let mut devices: Vec<String> =
        jobs.iter().flat_map(|j| j.targets.iter().filter_map(|t| t.info.device.clone())).collect();
    devices.sort();
    devices.dedup();
    devices
}

//! The runner: starts one worker per (target × thread), keeps time (warm-up, measured window,
//! cool-down), reacts to Ctrl-C, samples CPU at the window's edges, and merges what the workers
//! recorded into a `TestResult`.

mod build;
mod live;
pub mod offsets;
mod worker;

use crate::engine::{self, Engine, EngineSetup};
use crate::result::TestResult;
use crate::spec::{EngineKind, Spec};
use crate::stats::cpu::CpuSnapshot;
use crate::stats::disk::DiskSnapshot;
use crate::target::Prepared;
use live::{Collector, Mailbox};
use std::io::IsTerminal;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Barrier, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What the workers share. Times are ns since `t0`.
pub struct Shared {
    ready: Barrier,
    start: Barrier,
    t0: OnceLock<Instant>,
    measure_start: u64,
    measure_end: AtomicU64,
    end: AtomicU64,
    abort: AtomicBool,
    trace: Option<Mutex<Box<dyn Write + Send>>>,
}

/// How to run, beyond what to run.
#[derive(Default)]
pub struct RunOptions {
    /// Show the live progress line (only drawn when stderr is a terminal).
    pub progress: bool,
    /// Write every issued I/O to this CSV file: worker,file,op,offset,length.
    pub trace: Option<std::path::PathBuf>,
}

/// The engine that will really run, and notices about substitutions.
pub fn choose_engine(spec: &Spec, notices: &mut Vec<String>) -> (EngineKind, u32) {
    let mut kind = spec.engine;
    if kind == EngineKind::IoUring {
        if let Some(why) = engine::io_uring_unavailable() {
            notices.push(format!("io_uring is unavailable ({why}); using psync"));
            kind = EngineKind::Psync;
        }
    }
    let mut depth = spec.qd;
    if kind == EngineKind::Psync && depth > 1 {
        notices.push(format!("psync runs one I/O at a time per thread; --qd {depth} acts as 1"));
        depth = 1;
    }
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

/// Runs several tests at once, in one measured window: the longest warm-up, duration and
/// cool-down of the group. Each test gets its own result; CPU and disk figures are the group's.
pub fn run_group(jobs: &[Job], interrupt: &AtomicBool, opts: &RunOptions) -> anyhow::Result<Vec<TestResult>> {
    let mut notices: Vec<Vec<String>> = Vec::with_capacity(jobs.len());
    let mut engines = Vec::with_capacity(jobs.len());
    for j in jobs {
        let mut n = Vec::new();
        engines.push(choose_engine(j.spec, &mut n));
        for line in &n {
            eprintln!("notice: {line}");
        }
        notices.push(n);
    }
    let longest = |f: fn(&Spec) -> f64| jobs.iter().map(|j| f(j.spec)).fold(0.0, f64::max);
    let (warmup, duration, cooldown) = (longest(|s| s.warmup), longest(|s| s.duration), longest(|s| s.cooldown));
    if jobs.len() > 1 {
        for (j, n) in jobs.iter().zip(&mut notices) {
            if (j.spec.warmup, j.spec.duration, j.spec.cooldown) != (warmup, duration, cooldown) {
                n.push(format!("ran in a group for {duration} s after {warmup} s of warm-up, the group's longest"));
            }
        }
    }
    // Workers are numbered job by job, target by target, thread by thread.
    let first: Vec<usize> = jobs
        .iter()
        .scan(0, |acc, j| {
            let f = *acc;
            *acc += j.targets.len() * j.spec.threads as usize;
            Some(f)
        })
        .collect();
    let workers: usize = jobs.iter().map(|j| j.targets.len() * j.spec.threads as usize).sum();
    let ns = |s: f64| (s * 1e9) as u64;
    let m_start = ns(warmup);
    let m_end = m_start + ns(duration);
    let end = m_end + ns(cooldown);
    let shared = Shared {
        ready: Barrier::new(workers + 1),
        start: Barrier::new(workers + 1),
        t0: OnceLock::new(),
        measure_start: m_start,
        measure_end: AtomicU64::new(m_end),
        end: AtomicU64::new(end),
        abort: AtomicBool::new(false),
        trace: match &opts.trace {
            Some(p) => {
                let f = std::fs::File::create(p).map_err(|e| anyhow::anyhow!("creating trace {}: {e}", p.display()))?;
                let mut w: Box<dyn Write + Send> = Box::new(std::io::BufWriter::new(f));
                writeln!(w, "worker,file,op,offset,length")?;
                Some(Mutex::new(w))
            }
            None => None,
        },
    };
    let mailboxes: Vec<Mailbox> = (0..workers).map(|_| Mailbox::new()).collect();
    let mut collectors: Vec<Collector> =
        jobs.iter().map(|j| Collector::new(j.targets.len() * j.spec.threads as usize)).collect();
    let collect = |cs: &mut [Collector]| {
        for (k, c) in cs.iter_mut().enumerate() {
            c.collect(&mailboxes[first[k]..first[k] + c.per_worker.len()]);
        }
    };
    let started_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let bar = progress_bar(opts.progress);

    let mut devices: Vec<String> =
        jobs.iter().flat_map(|j| j.targets.iter().filter_map(|t| t.info.device.clone())).collect();
    devices.sort();
    devices.dedup();
    let (recs, cpu, disks, measured_ns, interrupted) = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(workers);
        for (k, job) in jobs.iter().enumerate() {
            let (spec, (kind, depth)) = (job.spec, engines[k]);
            let job_workers = job.targets.len() * spec.threads as usize;
            for (ti, t) in job.targets.iter().enumerate() {
                for th in 0..spec.threads {
                    let rank = ti * spec.threads as usize + th as usize;
                    let w = first[k] + rank;
                    let args = worker::WorkerArgs {
                        spec,
                        shared: &shared,
                        mailbox: &mailboxes[w],
                        file: 0,
                        gen: offsets::OffsetGen::new(spec, t.plan.size, th, w as u64),
                        index: w as u32,
                        rank: rank as u32,
                        workers: job_workers as u32,
                        depth,
                    };
                    let file = &t.file;
                    let shared = &shared;
                    handles.push(
                        std::thread::Builder::new()
                            .name(format!("iolens-w{w}"))
                            .spawn_scoped(scope, move || {
                                let setup = EngineSetup {
                                    files: std::slice::from_ref(file),
                                    depth,
                                    buf_size: spec.max_block() as usize,
                                    mixed: spec.read_pct > 0 && spec.read_pct < 100,
                                };
                                start_worker(kind, &setup, args, shared)
                            })
                            .expect("spawning a worker thread"),
                    );
                }
            }
        }
        shared.ready.wait();
        let t0 = Instant::now();
        shared.t0.set(t0).expect("t0 set once");
        shared.start.wait();

        let now = || t0.elapsed().as_nanos() as u64;
        let mut cpu_start: Option<(CpuSnapshot, DiskSnapshot, u64)> = None;
        let mut cpu_end: Option<(CpuSnapshot, DiskSnapshot, u64)> = None;
        let snap = || (CpuSnapshot::take(), DiskSnapshot::take(&devices));
        let mut interrupted = false;
        loop {
            let t = now();
            let m_end_now = shared.measure_end.load(Ordering::Relaxed);
            let end_now = shared.end.load(Ordering::Relaxed);
            if cpu_start.is_none() && t >= m_start {
                let (c, d) = snap();
                cpu_start = Some((c, d, t));
            }
            if cpu_end.is_none() && t >= m_end_now {
                let (c, d) = snap();
                cpu_end = Some((c, d, t));
            }
            if interrupt.load(Ordering::Relaxed) && !interrupted {
                interrupted = true;
                shared.measure_end.store(m_end_now.min(t), Ordering::Relaxed);
                shared.end.store(t, Ordering::Relaxed);
                continue;
            }
            if shared.abort.load(Ordering::Relaxed) {
                shared.end.store(t, Ordering::Relaxed);
            }
            collect(&mut collectors);
            if t >= end_now || handles.iter().all(|h| h.is_finished()) {
                break;
            }
            if let Some(b) = &bar {
                b.set_message(progress_line(t, m_start, m_end_now, end_now, &collectors));
            }
            let next_edge = [m_start, m_end_now, end_now].into_iter().filter(|&e| e > t).min().unwrap_or(t);
            std::thread::sleep(Duration::from_nanos((next_edge - t).clamp(1_000_000, 100_000_000)));
        }
        let recs: Vec<Result<worker::WorkerRec, String>> =
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("worker thread panicked".into()))).collect();
        collect(&mut collectors);
        let t_end = now();
        let m_end_final = shared.measure_end.load(Ordering::Relaxed).min(t_end);
        let (cs, ds, cs_t) = cpu_start.unwrap_or_else(|| {
            let (c, d) = snap();
            (c, d, t_end)
        });
        let (ce, de, ce_t) = cpu_end.unwrap_or_else(|| {
            let (c, d) = snap();
            (c, d, t_end)
        });
        let wall = Duration::from_nanos(ce_t.saturating_sub(cs_t));
        let disks = de.since(&ds, wall.as_secs_f64());
        let cpu = (cs, ce, wall);
        (recs, cpu, disks, m_end_final.saturating_sub(m_start), interrupted)
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let recs = recs.into_iter().collect::<Result<Vec<_>, String>>().map_err(|e| anyhow::anyhow!("I/O error: {e}"))?;
    Ok(jobs
        .iter()
        .zip(notices)
        .enumerate()
        .map(|(k, (job, notices))| {
            build::test_result(build::Parts {
                spec: job.spec,
                engine: engines[k].0,
                depth: engines[k].1,
                notices,
                started_at: started_at.clone(),
                recs: &recs[first[k]..first[k] + collectors[k].per_worker.len()],
                collector: &collectors[k],
                cpu: cpu.clone(),
                disks: disks.clone(),
                measured_s: measured_ns as f64 / 1e9,
                interrupted,
                threads: job.spec.threads,
            })
        })
        .collect())
}

fn start_worker(
    kind: EngineKind,
    setup: &EngineSetup,
    args: worker::WorkerArgs,
    sh: &Shared,
) -> Result<worker::WorkerRec, String> {
    fn go<E: Engine>(e: Result<E, String>, args: worker::WorkerArgs, sh: &Shared) -> Result<worker::WorkerRec, String> {
        match e {
            Ok(e) => match &sh.trace {
                Some(sink) => worker::run(&mut engine::trace::Traced::new(e, args.index, sink), args),
                None => worker::run(&mut { e }, args),
            },
            Err(msg) => {
                sh.abort.store(true, Ordering::Relaxed);
                sh.ready.wait();
                sh.start.wait();
                Err(msg)
            }
        }
    }
    match kind {
        #[cfg(target_os = "linux")]
        EngineKind::IoUring => {
            go(engine::io_uring::UringEngine::new(setup).map_err(|e| format!("setting up io_uring: {e}")), args, sh)
        }
        #[cfg(not(target_os = "linux"))]
        EngineKind::IoUring => go::<engine::psync::PsyncEngine>(Err("io_uring exists only on Linux".into()), args, sh),
        EngineKind::Psync => {
            go(engine::psync::PsyncEngine::new(setup).map_err(|e| format!("setting up psync: {e}")), args, sh)
        }
        EngineKind::Null => {
            go(engine::null::NullEngine::new(setup).map_err(|e| format!("setting up null: {e}")), args, sh)
        }
    }
}

fn progress_bar(wanted: bool) -> Option<indicatif::ProgressBar> {
    if !wanted || !std::io::stderr().is_terminal() {
        return None;
    }
    let b = indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
    b.set_style(indicatif::ProgressStyle::with_template("{msg}").expect("static template"));
    Some(b)
}

fn progress_line(t: u64, m_start: u64, m_end: u64, end: u64, cs: &[Collector]) -> String {
    let s = |ns: u64| ns as f64 / 1e9;
    if t < m_start {
        return format!("warming up: {:.0} s left", s(m_start - t));
    }
    if t >= m_end {
        return format!("cooling down: {:.0} s left", s(end.saturating_sub(t)));
    }
    let elapsed = t - m_start;
    let sec = (elapsed / 1_000_000_000) as usize;
    let rate = cs
        .iter()
        .map(|c| c.last_full(sec))
        .try_fold((0, 0), |(i, b), x| x.map(|(ios, bytes)| (i + ios, b + bytes)))
        .map(|(ios, bytes)| format!("{ios} IOPS, {:.1} MB/s", bytes as f64 / 1e6))
        .unwrap_or_else(|| "…".into());
    format!("elapsed {:.0} s, remaining {:.0} s: {rate}", s(elapsed), s(m_end - t))
}

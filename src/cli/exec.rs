//! What every measuring command shares: check and prepare the targets once, run its tests (with
//! passes where the front end asks for them, as CrystalDiskMark does), clean up, and print and
//! save the one result.

use super::{install_interrupt, EXIT_FINDINGS, EXIT_INTERRUPTED};
use crate::error::{usage, UsageError};
use crate::report::{self, Format};
use crate::result::{RunResult, TestResult, SCHEMA_VERSION};
use crate::workload::Spec;
use crate::{run, targets};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// One test of a command: its name as users write it ("SEQ1M Q8T1 Read") and its spec.
#[derive(Clone)]
pub struct Item {
    pub name: String,
    pub spec: Spec,
    /// Lines the result carries for the user (a pattern's description, a front end's notes).
    pub notes: Vec<String>,
}

/// Where the result goes.
pub struct Output {
    pub format: Format,
    /// A copy of the report in a file, with its own format.
    pub out: Option<(PathBuf, Format)>,
    pub trace: Option<PathBuf>,
    pub quiet: bool,
    /// The result store, label and tags.
    pub store: super::stored::StoreOpts,
    /// Run on every MPI rank (`--mpi`); None on one host.
    pub dist: Option<super::dist::Dist>,
}

impl Output {
    /// Checks --format, --out and --trace before anything is touched.
    pub fn new(
        format: &str,
        out: Option<&Path>,
        trace: Option<&Path>,
        quiet: bool,
        store: &super::stored::StoreArgs,
    ) -> Result<Output, UsageError> {
        let format = Format::parse(format)?;
        let out = match out {
            Some(p) => {
                check_dir("--out", p)?;
                let f = Format::from_extension(p).unwrap_or(format);
                Some((p.to_path_buf(), f))
            }
            None => None,
        };
        if let Some(t) = trace {
            check_dir("--trace", t)?;
        }
        Ok(Output { format, out, trace: trace.map(Path::to_path_buf), quiet, store: store.check()?, dist: None })
    }
}

/// How often each test runs: CrystalDiskMark runs one uncounted pass, then several, and keeps
/// the best, with a pause between tests.
pub struct Passes {
    pub prepare: bool,
    pub count: u32,
    pub interval: f64,
}

impl Passes {
    pub const ONCE: Passes = Passes { prepare: false, count: 1, interval: 0.0 };
}

fn check_dir(option: &str, p: &Path) -> Result<(), UsageError> {
    match p.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) if !dir.is_dir() => usage(option, format!("directory {} does not exist", dir.display())),
        _ => Ok(()),
    }
}

/// Runs the items on their (shared) targets and reports. Returns the exit code.
pub fn execute(
    command: &str,
    items: &[Item],
    size_given: bool,
    output: &Output,
    passes: &Passes,
) -> anyhow::Result<i32> {
    if let Some(d) = output.dist {
        return super::dist::execute(command, items, size_given, output, passes, d);
    }
    let mut it = items.iter();
    execute_series(command, items, size_given, output, passes, &mut |_| it.next().cloned(), &|_| Ok(()))
}

/// Adds what a command derives from its tests to the result before it is printed and saved.
pub type Annotate<'a> = &'a dyn Fn(&mut RunResult) -> anyhow::Result<()>;

/// Runs a series whose next test depends on the tests so far (`next`; None ends it). Targets
/// are planned once for `envelope`: every kind of test the series may run.
pub fn execute_series(
    command: &str,
    envelope: &[Item],
    size_given: bool,
    output: &Output,
    passes: &Passes,
    next: &mut dyn FnMut(&[TestResult]) -> Option<Item>,
    annotate: Annotate,
) -> anyhow::Result<i32> {
    if envelope.is_empty() {
        return Ok(0);
    }
    let mut p = prepare(envelope, size_given, output)?;
    let started_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let (interrupt, opts) = (&p.interrupt, &p.opts);
    let mut measure = |spec: &Spec, targets: &mut [targets::Prepared]| run::run_test(spec, targets, interrupt, opts);
    let mut choose = |runs: &[TestResult]| Ok(best_pass(&pass_keys(runs)));
    let runner = Runner { measure: &mut measure, choose: &mut choose };
    let (tests, done) = run_items(next, &mut p.targets, interrupt, opts.progress, passes, runner);
    targets::cleanup(&p.targets, p.base.keep);
    done?;
    let targets = p.targets.iter().map(|t| t.info.clone()).collect();
    finish(command, started_at, targets, tests, interrupt, output, annotate)
}

/// The targets of a series, checked and made ready for everything it will do to them.
pub(super) struct Ready {
    /// The spec the targets were planned for.
    pub base: Spec,
    pub targets: Vec<targets::Prepared>,
    pub interrupt: Arc<AtomicBool>,
    pub opts: run::RunOptions,
}

/// Plans the targets once, for every kind of test in `envelope`, and prepares them.
pub(super) fn prepare(envelope: &[Item], size_given: bool, output: &Output) -> anyhow::Result<Ready> {
    let first = &envelope[0];
    let mut base = first.spec.clone();
    if envelope.iter().any(|i| i.spec.writes()) {
        base.read_pct = 0;
    }
    let plans = targets::plan(&base, size_given)?;
    for (opt, p) in [("--out", output.out.as_ref().map(|o| &o.0)), ("--trace", output.trace.as_ref())] {
        if let Some(p) = p {
            if plans.iter().any(|t| same_file(p, &t.path)) {
                return usage(opt, format!("{} is a target of this run; write the report elsewhere", p.display()))?;
            }
        }
    }
    for i in envelope {
        check_memory(&i.spec, plans.len())?;
    }
    let interrupt = install_interrupt();
    let progress = !output.quiet && std::io::stderr().is_terminal();
    let targets = targets::prepare(&base, &plans, &interrupt, prefill_progress(progress))?;
    let opts = run::RunOptions { progress, trace: output.trace.clone(), ..Default::default() };
    Ok(Ready { base, targets, interrupt, opts })
}

/// Builds the one result, prints it and saves it; the exit code says whether it was cut short.
pub(super) fn finish(
    command: &str,
    started_at: String,
    targets: Vec<crate::result::TargetInfo>,
    tests: Vec<TestResult>,
    interrupt: &AtomicBool,
    output: &Output,
    annotate: Annotate,
) -> anyhow::Result<i32> {
    let mut result = RunResult {
        schema_version: SCHEMA_VERSION,
        iolens_version: env!("CARGO_PKG_VERSION").into(),
        command: command.into(),
        args: std::env::args().skip(1).collect(),
        started_at,
        host: crate::targets::host::detect(targets),
        interrupted: interrupt.load(Ordering::Relaxed) || tests.iter().any(|t| t.interrupted),
        tests,
        label: output.store.label.clone(),
        tags: output.store.tags.clone(),
        source: None,
        analysis: None,
        simdb: None,
    };
    annotate(&mut result)?;
    // The file and the store first: under mpirun, stdout goes through mpirun, which stops
    // forwarding it when it aborts the job (a rank died) and kills the ranks a second later.
    let wrote = output.out.as_ref().map_or(Ok(()), |(path, f)| report::write_file(&result, *f, path));
    super::stored::save(&result, &output.store);
    print!("{}", report::render(&result, output.format));
    wrote?;
    // Bad pages outrank an interruption: what was found stays found.
    let found = result.tests.iter().any(|t| t.verify.as_ref().is_some_and(|v| !v.clean()));
    Ok(if found {
        EXIT_FINDINGS
    } else if result.interrupted {
        EXIT_INTERRUPTED
    } else {
        0
    })
}

/// Shows how far the filling of a new test file has come (on a terminal only).
pub(super) fn prefill_progress(progress: bool) -> impl FnMut(&Path, f64) {
    let mut shown = u32::MAX;
    move |p, frac| {
        let pct = (frac * 100.0) as u32;
        if progress && pct != shown {
            shown = pct;
            eprint!("\rpreparing {}: {pct} %  ", p.display());
            if frac >= 1.0 {
                eprint!("\r\x1b[2K");
            }
        }
    }
}

/// Measures one test on the targets: `run::run_test`, or that with the ranks of an MPI run
/// started together.
pub(super) type Measure<'a> = &'a mut dyn FnMut(&Spec, &mut [targets::Prepared]) -> anyhow::Result<TestResult>;

/// Which of a test's passes to keep (an index into them).
pub(super) type Choose<'a> = &'a mut dyn FnMut(&[TestResult]) -> anyhow::Result<usize>;

/// CrystalDiskMark keeps the best pass: a complete one before an interrupted one, then the
/// most MB/s. `passes`: (complete, MB/s) of each.
pub(super) fn best_pass(passes: &[(bool, f64)]) -> usize {
    (0..passes.len())
        .max_by(|&a, &b| passes[a].partial_cmp(&passes[b]).unwrap_or(std::cmp::Ordering::Equal))
        .unwrap_or(0)
}

/// (complete, MB/s) of each pass, as `best_pass` takes them.
pub(super) fn pass_keys(runs: &[TestResult]) -> Vec<(bool, f64)> {
    runs.iter().map(|t| (!t.interrupted, t.total.mbps)).collect()
}

/// How a series measures each test and picks among its passes.
pub(super) struct Runner<'a> {
    pub measure: Measure<'a>,
    pub choose: Choose<'a>,
}

/// The series' tests; on an error, the tests completed before it and the error.
pub(super) fn run_items(
    next: &mut dyn FnMut(&[TestResult]) -> Option<Item>,
    targets: &mut [targets::Prepared],
    interrupt: &AtomicBool,
    progress: bool,
    passes: &Passes,
    runner: Runner,
) -> (Vec<TestResult>, anyhow::Result<()>) {
    let mut tests = Vec::new();
    let r = run_into(&mut tests, next, targets, interrupt, progress, passes, runner);
    (tests, r)
}

fn run_into(
    tests: &mut Vec<TestResult>,
    next: &mut dyn FnMut(&[TestResult]) -> Option<Item>,
    targets: &mut [targets::Prepared],
    interrupt: &AtomicBool,
    progress: bool,
    passes: &Passes,
    runner: Runner,
) -> anyhow::Result<()> {
    let Runner { measure, choose } = runner;
    for k in 0.. {
        if interrupt.load(Ordering::Relaxed) {
            break;
        }
        let Some(item) = next(tests) else { break };
        check_memory(&item.spec, targets.len())?;
        if k > 0 && passes.interval > 0.0 {
            pause(passes.interval, interrupt);
        }
        targets::reopen_for(&item.spec, targets)?;
        if passes.prepare {
            if progress {
                eprintln!("{}: preparing pass (not counted)", item.name);
            }
            measure(&item.spec, targets)?;
        }
        let mut runs: Vec<TestResult> = Vec::new();
        while runs.len() < passes.count.max(1) as usize && !interrupt.load(Ordering::Relaxed) {
            runs.push(measure(&item.spec, targets)?);
        }
        if runs.is_empty() {
            continue;
        }
        let best = choose(&runs)?;
        let lines: Vec<String> = if runs.len() > 1 {
            runs.iter()
                .enumerate()
                .map(|(i, t)| {
                    let kept = if i == best { " (kept)" } else { "" };
                    format!("pass {}: {:.2} MB/s, {:.0} IOPS{kept}", i + 1, t.total.mbps, t.total.iops)
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut t = runs.swap_remove(best);
        t.name = item.name.clone();
        t.notices.splice(0..0, item.notes.iter().cloned());
        t.notices.extend(lines);
        tests.push(t);
    }
    Ok(())
}

/// CrystalDiskMark's interval between tests, cut short by Ctrl-C.
fn pause(secs: f64, interrupt: &AtomicBool) {
    let until = std::time::Instant::now() + Duration::from_secs_f64(secs);
    while std::time::Instant::now() < until && !interrupt.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Do two paths name the same file (existing or about to be created)?
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        return x.dev() == y.dev() && x.ino() == y.ino();
    }
    let norm = |p: &Path| {
        let parent = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::canonicalize(parent).ok().map(|d| d.join(p.file_name().unwrap_or_default()))
    };
    norm(a).is_some() && norm(a) == norm(b)
}

/// I/O buffers are allocated up front, one per outstanding I/O (two with a read/write mix):
/// refuse a spec whose buffers would not fit comfortably in memory.
pub(super) fn check_memory(spec: &Spec, targets: usize) -> Result<(), UsageError> {
    let mixed = if spec.read_pct > 0 && spec.read_pct < 100 { 2 } else { 1 };
    let bytes = targets as u128 * spec.threads as u128 * spec.qd as u128 * spec.max_block() as u128 * mixed;
    let avail = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| t.lines().find(|l| l.starts_with("MemAvailable:")).map(str::to_string))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<u128>().ok())
        .map(|kib| kib * 1024);
    match avail {
        Some(a) if bytes > a / 2 => usage(
            "--qd",
            format!(
                "{} outstanding I/Os of {} need {:.1} GiB of buffers, more than half the {:.1} GiB available; lower --qd, --threads or --bs",
                targets as u128 * spec.threads as u128 * spec.qd as u128,
                crate::workload::size::format_block(spec.max_block()),
                bytes as f64 / (1u64 << 30) as f64,
                a as f64 / (1u64 << 30) as f64
            ),
        ),
        _ => Ok(()),
    }
}

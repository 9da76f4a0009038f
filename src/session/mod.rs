//! What a measuring command runs once its arguments are parsed: check and prepare the targets
//! once, run its tests (with passes where the front end asks for them, as CrystalDiskMark does),
//! clean up, and print and save the one result. The local runner is here; the MPI runner
//! (`cluster`) plugs into the same pieces: `prepare`, `run_items` with its own `Runner`, `finish`.

pub mod capture;
mod finish;
mod groups;
mod interrupt;
pub mod named;
mod ready;
mod series;
mod simdb;

pub use finish::{finish, save, StoreOpts};
pub use groups::{bound_by_size, run_groups, run_jobs, size_from_pct};
pub use interrupt::{install_interrupt, REMOVE_AT_STOP};
pub use ready::{check_memory, prefill_progress, prepare, Ready};
pub use series::{best_pass, pass_keys, run_items, Choose, Measure, Runner};
pub use simdb::run_simdb;

use crate::error::{usage, UsageError};
use crate::report::Format;
use crate::result::Kind;
use crate::result::{RunResult, TestResult};
use crate::workload::Spec;
use crate::{run, targets};
use std::path::{Path, PathBuf};

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
    /// The report on stdout too (fio's --output writes the file only).
    pub terminal: bool,
    /// Notes, notices and the store's receipt on stderr; fio stays silent there unless stderr
    /// is a terminal, and the notes stay in the result.
    pub chatty: bool,
    /// The result store, label and tags.
    pub store: StoreOpts,
    /// fio's --bandwidth-log: Some(whether lines are written, as fio's ETA is shown).
    pub bandwidth_log: Option<bool>,
    /// Lines the --out file holds ahead of the report (fio's --debug=random seeds, which fio
    /// writes where its output goes).
    pub preamble: String,
}

impl Output {
    /// Checks --format, --out and --trace before anything is touched; the result is not saved
    /// until `store` says where.
    pub fn new(format: Format, out: Option<&Path>, trace: Option<&Path>, quiet: bool) -> Result<Output, UsageError> {
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
        Ok(Output {
            format,
            out,
            trace: trace.map(Path::to_path_buf),
            quiet,
            terminal: true,
            chatty: true,
            store: StoreOpts::default(),
            bandwidth_log: None,
            preamble: String::new(),
        })
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

/// What a measuring command hands the session: its tests, and how to run and report them.
pub struct Request<'a> {
    /// The front end that made the tests ("run", "cdm" …): the result's `command`.
    pub command: Kind,
    /// The tests; for a series, every kind of test it may run (its targets are planned once).
    pub items: &'a [Item],
    pub output: &'a Output,
    pub passes: &'a Passes,
}

impl<'a> Request<'a> {
    /// One pass of each test: every command but cdm.
    pub fn once(command: Kind, items: &'a [Item], output: &'a Output) -> Request<'a> {
        Request { command, items, output, passes: &Passes::ONCE }
    }
}

/// Runs the items on their (shared) targets on this host and reports. Returns the exit code.
pub fn execute(req: &Request) -> anyhow::Result<i32> {
    let mut it = req.items.iter();
    execute_series(req, &mut |_| it.next().cloned(), &|_| Ok(()))
}

/// Adds what a command derives from its tests to the result before it is printed and saved.
pub type Annotate<'a> = &'a dyn Fn(&mut RunResult) -> anyhow::Result<()>;

/// Runs a series whose next test depends on the tests so far (`next`; None ends it). Targets
/// are planned once for `req.items`: every kind of test the series may run.
pub fn execute_series(
    req: &Request,
    next: &mut dyn FnMut(&[TestResult]) -> Option<Item>,
    annotate: Annotate,
) -> anyhow::Result<i32> {
    let Request { command, items: envelope, output, passes } = *req;
    if envelope.is_empty() {
        return Ok(0);
    }
    let mut p = prepare(envelope, output)?;
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

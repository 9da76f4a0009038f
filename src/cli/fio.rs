//! `iolens fio JOBFILE…` and `iolens fio --name=… --rw=… …`: fio's job files and command line,
//! run by iolens. Jobs between two stonewalls run together, as in fio; `--output-format=json`
//! writes fio's JSON layout so tools built on it read iolens' results.

use super::common::{self, CommonArgs};
use super::mpi::MpiArgs;
use crate::error::{usage, UsageError};
use crate::frontends::fio::{self, FioJob};
use crate::report::{FioOut, Format};
use crate::result::Kind;
use crate::session::{self, bound_by_size, size_from_pct, Item, Request};
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

mod debug;
mod verify;

#[derive(Args, Debug, Clone)]
pub struct FioArgs {
    /// Job files and/or fio's options (--name=j --rw=randread --bs=4k …), plus fio's program
    /// options --output-format=normal|terse|json|json+ (or several, comma-separated), --minimal,
    /// --append-terse, --terse-version=3, --output=FILE (the report there only),
    /// --max-jobs N, --readonly, --parse-only, --showcmd, --warnings-fatal, --inflate-log=FILE,
    /// --bandwidth-log (agg-*_bw.log, sampled as --eta=always|never|auto shows fio's ETA),
    /// --aux-path=DIR and --version, and iolens' --format text|json, --keep, --allow-write, --force-device,
    /// --quiet, --trace FILE (every I/O as CSV), --mpi (as `run`'s, one job per group) and --mpi-stonewall MODE
    /// (`run`'s --stonewall)
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

/// fio's program options (those of fio's own command line, not of its jobs), as taken from
/// the arguments.
#[derive(Default)]
struct Program {
    format: Option<Format>,
    /// fio's --output: the report goes to this file only.
    output: Option<PathBuf>,
    trace: Option<PathBuf>,
    max_jobs: Option<u32>,
    readonly: bool,
    parse_only: bool,
    showcmd: bool,
    warnings_fatal: bool,
    /// fio's --debug masks iolens has lines for.
    debug: debug::Masks,
    /// fio's --inflate-log: print a log_store_compressed file as text, run nothing.
    inflate: Option<PathBuf>,
    /// fio's --bandwidth-log, and --eta (always, never; None: auto).
    bandwidth_log: bool,
    eta: Option<bool>,
    /// fio's --aux-path: where verify state files and dumps go.
    aux: Option<String>,
}

/// What `split` takes out: iolens' shared options, fio's program options, the MPI options,
/// and the arguments that describe jobs.
type Split = (CommonArgs, Program, MpiArgs, Vec<String>);

fn split(args: &[String]) -> Result<Split, UsageError> {
    let mut p = Program::default();
    let mut mpi = MpiArgs::default();
    let (own, rest) = common::split(args, |name, value| {
        match name {
            "--output-format" => p.format = Some(format_of(FioOut::parse(&value()?)?)),
            "--minimal" => p.format = Some(Format::Fio(FioOut { terse: true, ..FioOut::default() })),
            "--terse-version" => {
                let v = value()?;
                if v != "3" {
                    return usage(name, format!("'{v}': iolens writes fio's terse version 3 only"));
                }
            }
            "--output" => p.output = Some(PathBuf::from(value()?)),
            "--trace" => p.trace = Some(PathBuf::from(value()?)),
            "--max-jobs" => {
                let v = value()?;
                p.max_jobs =
                    Some(v.parse().map_err(|_| UsageError::new(name, format!("'{v}' is not a number of jobs")))?);
            }
            "--readonly" => p.readonly = true,
            "--parse-only" => p.parse_only = true,
            "--showcmd" => p.showcmd = true,
            "--warnings-fatal" => p.warnings_fatal = true,
            "--debug" => p.debug = debug::masks(&value()?)?,
            "--inflate-log" => p.inflate = Some(PathBuf::from(value()?)),
            "--bandwidth-log" => p.bandwidth_log = true,
            "--eta" => {
                p.eta = match value()?.as_str() {
                    "always" => Some(true),
                    "never" => Some(false),
                    "auto" => None,
                    v => return usage("--eta", format!("'{v}' is not always, never or auto")),
                }
            }
            "--aux-path" => p.aux = Some(value()?),
            "--server" | "--client" | "--daemonize" => {
                return usage(
                    name,
                    "fio's client/server mode is not iolens'; run one workload on many hosts with --mpi (mpirun)",
                )
            }
            // fio adds terse to the formats chosen so far (normal when none was).
            "--append-terse" => {
                let mut o = match p.format {
                    Some(Format::Fio(o)) => o,
                    _ => FioOut { normal: true, ..FioOut::default() },
                };
                o.terse = true;
                p.format = Some(format_of(o));
            }
            // fio's own --stonewall orders jobs; the ranks' is --mpi-stonewall.
            "--mpi" => mpi.mpi = true,
            "--mpi-stonewall" => mpi.stonewall = Some(super::mpi::stonewall(&value()?)?),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok((own, p, mpi, rest))
}

/// The report fio's output formats ask for: normal alone is iolens' text report.
fn format_of(o: FioOut) -> Format {
    if o == (FioOut { normal: true, ..FioOut::default() }) {
        Format::Text
    } else {
        Format::Fio(o)
    }
}

/// What fio's program options ask of the parsed jobs before anything runs.
fn check_program(p: &Program, jobs: &[FioJob]) -> Result<(), UsageError> {
    let threads: u32 = jobs.iter().map(|j| j.spec.threads).sum();
    if let Some(max) = p.max_jobs.filter(|&m| threads > m) {
        return usage("--max-jobs", format!("the jobs start {threads} threads, more than {max}"));
    }
    if let Some(j) = jobs.iter().find(|j| p.readonly && j.spec.writes()) {
        return usage("--readonly", format!("job [{}] writes, and --readonly allows reads only", j.name));
    }
    if let Some((j, n)) = jobs.iter().find_map(|j| j.notes.first().map(|n| (j, n))).filter(|_| p.warnings_fatal) {
        return usage("--warnings-fatal", format!("[{}] {n}", j.name));
    }
    Ok(())
}

/// fio's --showcmd: each job as the command line that runs it.
fn showcmd(jobs: &[FioJob]) -> String {
    let mut o = String::new();
    // A job's numjobs clones are one job on fio's command line.
    for j in jobs.iter().filter(|j| j.clone.unwrap_or(0) == 0) {
        o.push_str(&format!("fio --name={}", j.name));
        for (k, v) in j.options.iter().filter(|(k, _)| k != "name") {
            o.push_str(&if v.is_empty() { format!(" --{k}") } else { format!(" --{k}={v}") });
        }
        o.push('\n');
    }
    o
}

fn jobs(rest: &[String], own: &CommonArgs) -> Result<Vec<FioJob>, UsageError> {
    let mut jobs = if rest.iter().any(|a| a.starts_with("--")) {
        fio::parse_args(rest)?
    } else {
        let mut all = Vec::new();
        for f in rest {
            let mut js = fio::parse_job_file(Path::new(f))?;
            // Each job file after the first waits for the ones before it, as in fio.
            let base = all.iter().map(|j: &FioJob| j.group + 1).max().unwrap_or(0);
            js.iter_mut().for_each(|j| j.group += base);
            all.extend(js);
        }
        all
    };
    for j in &mut jobs {
        own.apply(&mut j.spec);
        size_from_pct(j)?;
        bound_by_size(j)?;
    }
    Ok(jobs)
}

/// With --mpi, fio's jobs run one after another on every rank, as the tests of `run` do: one
/// job per group (jobs separated by stonewalls), all on the same files.
fn mpi_items(jobs: &[FioJob]) -> Result<Vec<Item>, UsageError> {
    if let Some(j) = jobs.iter().find(|j| j.clone.is_some()) {
        let why = format!(
            "job [{}]'s numjobs clones are jobs of their own without group_reporting; add group_reporting to run \
             them as one job's threads on every rank",
            j.name
        );
        return usage("--mpi", why);
    }
    for w in jobs.windows(2) {
        if w[0].group == w[1].group {
            return usage(
                "--mpi",
                format!(
                    "jobs [{}] and [{}] run together; with --mpi give one job per group (stonewall=1 between them)",
                    w[0].name, w[1].name
                ),
            );
        }
        if w[0].spec.targets != w[1].spec.targets {
            return usage(
                "--mpi",
                format!(
                    "jobs [{}] and [{}] use different files; with --mpi every job uses the same ones",
                    w[0].name, w[1].name
                ),
            );
        }
    }
    Ok(jobs.iter().map(|j| Item { name: j.name.clone(), spec: j.spec.clone(), notes: j.notes.clone() }).collect())
}

pub fn main(a: FioArgs) -> anyhow::Result<i32> {
    if a.args.iter().any(|a| a == "--version") {
        println!("iolens-{} (fio's job files and command line)", env!("CARGO_PKG_VERSION"));
        return Ok(0);
    }
    let (mut own, p, mpi, rest) = split(&a.args)?;
    if let Some(f) = &p.inflate {
        let packed = crate::input::read_bytes(f, "--inflate-log", crate::input::TEXT_LIMIT)?;
        use std::io::Write as _;
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        match crate::run::inflate_log_to(&packed, &mut out).and_then(|r| out.flush().map(|_| r)) {
            Ok(r) => r.map_err(|e| UsageError::new("--inflate-log", format!("{}: {e}", f.display())))?,
            Err(e) => crate::error::defer_write_failure(format!("writing to stdout: {e}")),
        }
        return Ok(0);
    }
    if p.output.is_some() {
        own.out = p.output.clone();
    }
    if p.debug.parse {
        print!("{}", debug::parse(&rest));
    }
    let mut jobs = jobs(&rest, &own)?;
    verify::settle(&mut jobs, p.aux.as_deref())?;
    if jobs.is_empty() {
        // As fio: checking the options of no job at all is a success.
        if p.parse_only {
            return Ok(0);
        }
        return Err(UsageError::new(
            "JOBFILE",
            "no jobs; give job files or fio options such as --name=j --rw=randread --size=1g",
        )
        .into());
    }
    check_program(&p, &jobs)?;
    if p.showcmd {
        print!("{}", showcmd(&jobs));
        return Ok(0);
    }
    let mut output = own.output(p.trace.as_deref())?;
    if p.parse_only {
        return Ok(0);
    }
    // fio's --output-format decides both the terminal and the --output file, as in fio, and
    // --output sends the report to the file alone.
    if let Some(f) = p.format {
        output.format = f;
        if let Some((_, of)) = &mut output.out {
            *of = f;
        }
    }
    output.terminal = p.output.is_none();
    // As fio, silent on stderr when that is no terminal: the notes are in the result.
    output.chatty = std::io::stderr().is_terminal();
    // fio samples its aggregate log where it updates its ETA line: shown on a terminal.
    output.bandwidth_log = p.bandwidth_log.then(|| p.eta.unwrap_or(std::io::stdout().is_terminal()));
    if let Some(wall) = mpi.check()? {
        let items = mpi_items(&jobs)?;
        return super::mpi::execute(&Request::once(Kind::Fio, &items, &output), Some(wall));
    }
    // As fio, the files made stay unless every job says unlink=1 (or iolens' --keep keeps them).
    let keep = own.keep || jobs.iter().any(|j| !j.unlink);
    // fio's debug lines go where its output goes, ahead of the report: --output's file, once
    // the report is in it, else stdout before the run.
    let seeds = if p.debug.random { debug::random(&jobs) } else { String::new() };
    let io_logs = if p.debug.io { debug::log_io(&mut jobs) } else { Vec::new() };
    match p.output {
        None => print!("{seeds}"),
        Some(_) => output.preamble = seeds,
    }
    let code = session::run_groups(&jobs, &output, keep);
    // After the run: iolens' I/O logs are read back into fio's lines.
    if p.debug.io {
        print!("{}", debug::io_lines(&io_logs));
    }
    let code = code?;
    Ok(if code == crate::error::EXIT_FINDINGS { verify_exit(&jobs) } else { code })
}

/// fio's exit status after bad blocks: a verify error is the job's error, so fio exits 1,
/// unless continue_on_error lets every verifying job go on past them (fio then exits 0, the
/// error still in each job's report).
fn verify_exit(jobs: &[FioJob]) -> i32 {
    let goes_on = |j: &FioJob| {
        j.options.iter().any(|(k, v)| k == "continue_on_error" && matches!(v.as_str(), "verify" | "all" | "1"))
    };
    let verifying: Vec<&FioJob> = jobs.iter().filter(|j| j.spec.verify.is_some()).collect();
    if !verifying.is_empty() && verifying.iter().all(|j| goes_on(j)) {
        0
    } else {
        crate::error::EXIT_FAIL
    }
}

//! `iolens fio JOBFILE…` and `iolens fio --name=… --rw=… …`: fio's job files and command line,
//! run by iolens. Jobs between two stonewalls run together, as in fio; `--output-format=json`
//! writes fio's JSON layout so tools built on it read iolens' results.

use super::common::{self, CommonArgs};
use super::mpi::MpiArgs;
use crate::error::{usage, UsageError};
use crate::report::Format;
use crate::session::{self, size_from_pct, Item, Passes};
use crate::workload::fio::{self, FioJob};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub struct FioArgs {
    /// Job files and/or fio's options (--name=j --rw=randread --bs=4k …), plus fio's
    /// --output-format=normal|json and --output=FILE, and iolens' --format text|json, --keep,
    /// --allow-write, --force-device, --quiet, --trace FILE (every I/O as CSV), --mpi (as
    /// `run`'s, one job per group) and --mpi-stonewall MODE (`run`'s --stonewall)
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

/// Takes fio's program options (`--output-format`, `--output`) and iolens' own from the
/// arguments; the rest describes jobs.
/// What `split` takes out: iolens' shared options, fio's output format, a trace file, and the
/// arguments that describe jobs.
type Split = (CommonArgs, Option<Format>, Option<PathBuf>, MpiArgs, Vec<String>);

fn split(args: &[String]) -> Result<Split, UsageError> {
    let mut fio_format = None;
    let mut output = None;
    let mut trace = None;
    let mut mpi = MpiArgs::default();
    let (mut own, rest) = common::split(args, |name, value| {
        match name {
            "--output-format" => {
                fio_format = Some(match value()?.as_str() {
                    "normal" => Format::Text,
                    "json" | "json+" => Format::FioJson,
                    v => return usage("--output-format", format!("'{v}' is not supported; use normal or json")),
                })
            }
            "--output" => output = Some(PathBuf::from(value()?)),
            "--trace" => trace = Some(PathBuf::from(value()?)),
            // fio's own --stonewall orders jobs; the ranks' is --mpi-stonewall.
            "--mpi" => mpi.mpi = true,
            "--mpi-stonewall" => mpi.stonewall = Some(value()?),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    if output.is_some() {
        own.out = output;
    }
    Ok((own, fio_format, trace, mpi, rest))
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
    if jobs.is_empty() {
        return usage("JOBFILE", "no jobs; give job files or fio options such as --name=j --rw=randread --size=1g");
    }
    for j in &mut jobs {
        own.apply(&mut j.spec);
        size_from_pct(j)?;
    }
    Ok(jobs)
}

/// With --mpi, fio's jobs run one after another on every rank, as the tests of `run` do: one
/// job per group (jobs separated by stonewalls), all on the same files.
fn mpi_items(jobs: &[FioJob]) -> Result<Vec<Item>, UsageError> {
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
    let (own, fio_format, trace, mpi, rest) = split(&a.args)?;
    let jobs = jobs(&rest, &own)?;
    let mut output = own.output(trace.as_deref())?;
    // fio's --output-format decides both the terminal and the --output file, as in fio.
    if let Some(f) = fio_format {
        output.format = f;
        if let Some((_, of)) = &mut output.out {
            *of = f;
        }
    }
    if let Some(wall) = mpi.check()? {
        let items = mpi_items(&jobs)?;
        let size_given = jobs.iter().any(|j| j.size_given());
        return super::mpi::execute("fio", &items, size_given, &output, &Passes::ONCE, Some(wall));
    }
    session::run_groups(&jobs, &output, own.keep)
}

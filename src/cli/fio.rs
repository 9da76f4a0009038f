//! `iolens fio JOBFILE…` and `iolens fio --name=… --rw=… …`: fio's job files and command line,
//! run by iolens. Jobs between two stonewalls run together, as in fio; `--output-format=json`
//! writes fio's JSON layout so tools built on it read iolens' results.

use super::common::{self, CommonArgs};
use super::dist::DistArgs;
use super::exec::{check_memory, finish, prefill_progress, same_file, Item, Passes};
use super::{fail, install_interrupt};
use crate::error::{usage, UsageError};
use crate::report::Format;
use crate::workload::fio::{self, FioJob};
use crate::{run, targets};
use clap::Args;
use std::io::IsTerminal;
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
type Split = (CommonArgs, Option<Format>, Option<PathBuf>, DistArgs, Vec<String>);

fn split(args: &[String]) -> Result<Split, UsageError> {
    let mut fio_format = None;
    let mut output = None;
    let mut trace = None;
    let mut dist = DistArgs::default();
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
            "--mpi" => dist.mpi = true,
            "--mpi-stonewall" => dist.stonewall = Some(value()?),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    if output.is_some() {
        own.out = output;
    }
    Ok((own, fio_format, trace, dist, rest))
}

/// fio's `size=N%`: the share of the smallest of the job's targets, in whole blocks.
fn size_from_pct(j: &mut FioJob) -> Result<(), UsageError> {
    let Some(pct) = j.size_pct else { return Ok(()) };
    let plans = targets::plan(&j.spec, false)?;
    if let Some(t) = plans.iter().find(|t| t.kind == targets::Kind::NewFile) {
        return usage(
            &format!("[{}]", j.name),
            format!("size={pct}%: {} does not exist; a percentage needs existing files or devices", t.path.display()),
        );
    }
    let smallest = plans.iter().map(|t| t.size).min().unwrap_or(0).saturating_sub(j.spec.offset);
    let block = j.spec.max_block();
    j.spec.size = j.spec.offset + smallest * u64::from(pct) / 100 / block * block;
    Ok(())
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

pub fn main(a: FioArgs) -> i32 {
    go(a).unwrap_or_else(|e| fail(&e))
}

fn go(a: FioArgs) -> anyhow::Result<i32> {
    let (own, fio_format, trace, dist, rest) = split(&a.args)?;
    let jobs = jobs(&rest, &own)?;
    let mut output = own.output(trace.as_deref())?;
    // fio's --output-format decides both the terminal and the --output file, as in fio.
    if let Some(f) = fio_format {
        output.format = f;
        if let Some((_, of)) = &mut output.out {
            *of = f;
        }
    }
    output.dist = dist.check()?;
    if let Some(d) = output.dist {
        let items = mpi_items(&jobs)?;
        return super::dist::execute("fio", &items, jobs.iter().any(|j| j.size_given()), &output, &Passes::ONCE, d);
    }
    // Everything is checked before anything is created.
    let mut plans = Vec::with_capacity(jobs.len());
    for j in &jobs {
        let p = targets::plan(&j.spec, j.size_given())?;
        // fio's allow_file_create=0: the job may use files that exist, or that an earlier job
        // of this run creates, and no other.
        let earlier = |t: &targets::Plan| plans.iter().flatten().any(|o: &targets::Plan| o.path == t.path);
        if let Some(t) = p.iter().find(|t| t.kind == targets::Kind::NewFile && !j.allow_file_create && !earlier(t)) {
            return usage(
                &format!("[{}]", j.name),
                format!("allow_file_create=0: {} does not exist and this job may not create it", t.path.display()),
            )?;
        }
        if let Some((out, _)) = &output.out {
            if p.iter().any(|t| same_file(out, &t.path)) {
                return usage(
                    "--output",
                    format!("{} is a target of this run; write the report elsewhere", out.display()),
                )?;
            }
        }
        check_memory(&j.spec, p.len())?;
        plans.push(p);
    }
    // A [global] option's note reaches every job: say it once.
    let everywhere = |n: &String| jobs.len() > 1 && jobs.iter().all(|j| j.notes.contains(n));
    for n in jobs[0].notes.iter().filter(|n| everywhere(n)) {
        eprintln!("note: [every job] {n}");
    }
    for j in &jobs {
        for n in j.notes.iter().filter(|n| !everywhere(n)) {
            eprintln!("note: [{}] {n}", j.name);
        }
    }
    let interrupt = install_interrupt();
    let progress = !own.quiet && std::io::stderr().is_terminal();
    // Files are created once, by the first job naming them; every job gets its own handles.
    let mut owned: Vec<targets::Prepared> = Vec::new();
    let mut per_job: Vec<Vec<targets::Prepared>> = Vec::with_capacity(jobs.len());
    let prepared = (|| -> anyhow::Result<()> {
        for (j, p) in jobs.iter().zip(&plans) {
            let mut mine = Vec::with_capacity(p.len());
            for plan in p {
                if !owned.iter().any(|o| o.plan.path == plan.path) {
                    owned.extend(targets::prepare(
                        &j.spec,
                        std::slice::from_ref(plan),
                        &interrupt,
                        prefill_progress(progress),
                    )?);
                }
                let of = owned.iter().find(|o| o.plan.path == plan.path).expect("prepared above");
                mine.push(targets::share(&j.spec, of)?);
            }
            per_job.push(mine);
        }
        Ok(())
    })();
    if let Err(e) = prepared {
        targets::cleanup(&owned, own.keep);
        return Err(e);
    }
    let started_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let opts = run::RunOptions { progress, trace: output.trace.clone(), ..Default::default() };
    let mut tests = Vec::new();
    let mut groups: Vec<u32> = jobs.iter().map(|j| j.group).collect();
    groups.dedup();
    let mut outcome = Ok(());
    let mut too_slow = Vec::new();
    for g in groups {
        if interrupt.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let members: Vec<usize> = (0..jobs.len()).filter(|&i| jobs[i].group == g).collect();
        let group: Vec<run::Job> =
            members.iter().map(|&i| run::Job { spec: &jobs[i].spec, targets: &per_job[i] }).collect();
        match run::run_group(&group, &interrupt, &opts) {
            Ok(results) => {
                for (t, &i) in results.into_iter().zip(&members) {
                    let j = &jobs[i];
                    let mut t = t;
                    t.name = j.name.clone();
                    t.group = j.group;
                    t.options = j.options.clone();
                    t.notices.splice(0..0, j.notes.iter().cloned());
                    if let Some(why) = &t.failed {
                        t.notices.push(why.clone());
                        too_slow.push(format!("[{}]: {why}", j.name));
                    }
                    tests.push(t);
                }
            }
            Err(e) => {
                outcome = Err(e);
                break;
            }
        }
    }
    drop(per_job);
    targets::cleanup(&owned, own.keep);
    outcome?;
    let code =
        finish("fio", started_at, owned.iter().map(|t| t.info.clone()).collect(), tests, &interrupt, &output, &|_| {
            Ok(())
        })?;
    // As in fio, a job below its rate_min fails the run; the figures are still reported.
    for line in &too_slow {
        eprintln!("error: {line}");
    }
    Ok(if too_slow.is_empty() { code } else { code.max(1) })
}

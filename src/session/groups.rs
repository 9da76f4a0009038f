//! fio's jobs as fio runs them: the jobs of a group (between two stonewalls) at the same time,
//! group after group, each job on its own handles to files created once, by the first job that
//! names them.

use super::{check_memory, finish, install_interrupt, prefill_progress, Output};
use crate::error::{usage, UsageError};
use crate::frontends::fio::FioJob;
use crate::result::Kind;
use crate::result::TestResult;
use crate::run;
use crate::targets::host::same_file;
use crate::targets::{self, Plan, Prepared};
use crate::workload::Spec;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

/// fio's `size=N%`: the share of the smallest of the job's targets, in whole blocks.
pub fn size_from_pct(j: &mut FioJob) -> Result<(), UsageError> {
    let Some(pct) = j.size_pct else { return Ok(()) };
    // A percentage is of the targets as they are, whatever size they would be made.
    let plans = targets::plan(&Spec { size_given: false, ..j.spec.clone() })?;
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

/// fio's end for a job that is not time_based: its files' bytes (the region each one tests),
/// times `loops`, as the spec's io_limit once the files are known.
pub fn bound_by_size(j: &mut FioJob) -> Result<(), UsageError> {
    let Some(passes) = j.size_passes else { return Ok(()) };
    let s = &j.spec;
    let plans = targets::plan(s)?;
    if let crate::workload::RandomDist::SpRandom(spr) = s.random_dist {
        // fio's sprandom writes the physical size once: the region and its over-provisioning.
        if plans.len() > 1 {
            return usage(&format!("[{}]", j.name), "sprandom: supports only one file");
        }
        let region = s.range.unwrap_or(plans.first().map_or(0, |t| t.size.saturating_sub(s.offset)));
        let bs = s.write_blocks.as_ref().unwrap_or(&s.blocks)[0].size;
        crate::workload::sprandom::check(spr, region, bs).map_err(|e| UsageError::new(format!("[{}]", j.name), e))?;
        let limit = crate::workload::sprandom::physical_size(spr.op, region, bs).saturating_mul(passes);
        j.spec.io_limit = Some(limit);
        return Ok(());
    }
    let bytes: u64 = plans.iter().map(|t| pass_bytes(s, s.range.unwrap_or(t.size.saturating_sub(s.offset)))).sum();
    // An io_size below the passes' bytes still ends the job first (a verify_only job's).
    let limit = bytes.saturating_mul(passes);
    j.spec.io_limit = Some(j.spec.io_limit.map_or(limit, |l| l.min(limit)));
    Ok(())
}

/// The bytes one pass over a region of `region` bytes moves. A sequential walk that skips
/// ahead (`rw=read:512k`) ends at the first I/O that would cross the region's end, as fio's
/// file is then done: it moves fewer bytes than the region holds.
fn pass_bytes(s: &crate::workload::Spec, region: u64) -> u64 {
    let sizes: Vec<u64> = s.all_blocks().map(|b| b.size).collect();
    let one = sizes.iter().all(|&b| b == sizes[0]).then(|| sizes.first().copied()).flatten();
    match one {
        Some(bs) if s.pattern == crate::workload::Pattern::Sequential && s.seq_skip > 0 && region >= bs => {
            ((region - bs) / (bs + s.seq_skip as u64) + 1) * bs
        }
        _ => region,
    }
}

/// Runs the jobs group by group, reports and saves; `keep` keeps the files made. Returns the
/// exit code: as in fio, a job below its rate_min fails the run, its figures still reported.
pub fn run_groups(jobs: &[FioJob], output: &Output, keep: bool) -> anyhow::Result<i32> {
    let code = run_jobs(Kind::Fio, jobs, output, keep, &|_| Ok(()))?;
    // fio's histogram logs, from the clat samples the jobs' lat logs recorded.
    for j in jobs {
        if let (Some(h), Some(logs)) = (&j.hist, &j.spec.logs) {
            run::histlog::write(h, logs, std::path::Path::new("."))
                .map_err(|e| anyhow::anyhow!("write_hist_log: {}_clat_hist: {e}", h.prefix))?;
        }
    }
    Ok(code)
}

/// As `run_groups`, for another command (`pattern --from-stats` runs its streams as one
/// group), with what it derives from the tests added to the result by `annotate`.
pub fn run_jobs(
    command: Kind,
    jobs: &[FioJob],
    output: &Output,
    keep: bool,
    annotate: super::Annotate,
) -> anyhow::Result<i32> {
    let plans = plan_jobs(jobs, output)?;
    if output.chatty {
        print_notes(jobs);
    }
    let interrupt = install_interrupt();
    let progress = !output.quiet && std::io::stderr().is_terminal();
    let mut owned: Vec<Prepared> = Vec::new();
    let per_job = match prepare_jobs(jobs, &plans, &interrupt, progress, &mut owned) {
        Ok(p) => p,
        Err(e) => {
            targets::cleanup(&owned, keep);
            return Err(e);
        }
    };
    let started_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let agg_bw = match output.bandwidth_log.map(run::AggBw::create).transpose() {
        Ok(a) => a.map(std::sync::Arc::new),
        Err(e) => {
            targets::cleanup(&owned, keep);
            return Err(e);
        }
    };
    let opts =
        run::RunOptions { progress, trace: output.trace.clone(), hush: !output.chatty, agg_bw, ..Default::default() };
    let mut tests = Vec::new();
    let outcome = run_each_group(jobs, &per_job, &interrupt, &opts, &mut tests);
    drop(per_job);
    targets::cleanup(&owned, keep);
    outcome?;
    let too_slow: Vec<String> =
        tests.iter().filter_map(|t| t.failed.as_ref().map(|why| format!("[{}]: {why}", t.name))).collect();
    verify_after(&tests);
    let made = owned.iter().map(|t| t.info.clone()).collect();
    let code = finish(command, started_at, made, tests, &interrupt, output, annotate)?;
    for line in &too_slow {
        eprintln!("error: {line}");
    }
    Ok(if too_slow.is_empty() { code } else { code.max(1) })
}

/// Every job's targets, checked before anything is created.
fn plan_jobs(jobs: &[FioJob], output: &Output) -> anyhow::Result<Vec<Vec<Plan>>> {
    let mut plans: Vec<Vec<Plan>> = Vec::with_capacity(jobs.len());
    for j in jobs {
        let p = targets::plan(&j.spec)?;
        // fio's allow_file_create=0: the job may use files that exist, or that an earlier job
        // of this run creates, and no other.
        let earlier = |t: &Plan| plans.iter().flatten().any(|o: &Plan| o.path == t.path);
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
    Ok(plans)
}

/// The jobs' notes on stderr; a [global] option's note reaches every job: said once.
fn print_notes(jobs: &[FioJob]) {
    let everywhere = |n: &String| jobs.len() > 1 && jobs.iter().all(|j| j.notes.contains(n));
    for n in jobs[0].notes.iter().filter(|n| everywhere(n)) {
        eprintln!("note: [every job] {n}");
    }
    for j in jobs {
        for n in j.notes.iter().filter(|n| !everywhere(n)) {
            eprintln!("note: [{}] {n}", j.name);
        }
    }
}

/// Creates each file once (into `owned`, so that a failure part way still removes what was
/// made) and gives every job its own handles to its files.
fn prepare_jobs(
    jobs: &[FioJob],
    plans: &[Vec<Plan>],
    interrupt: &AtomicBool,
    progress: bool,
    owned: &mut Vec<Prepared>,
) -> anyhow::Result<Vec<Vec<Prepared>>> {
    let mut per_job = Vec::with_capacity(jobs.len());
    for (j, p) in jobs.iter().zip(plans) {
        let mut mine = Vec::with_capacity(p.len());
        for plan in p {
            if !owned.iter().any(|o| o.plan.path == plan.path) {
                owned.extend(targets::prepare(
                    &j.spec,
                    std::slice::from_ref(plan),
                    interrupt,
                    prefill_progress(progress),
                )?);
            }
            let of = owned.iter().find(|o| o.plan.path == plan.path).expect("prepared above");
            mine.push(targets::share(&j.spec, of)?);
        }
        per_job.push(mine);
    }
    Ok(per_job)
}

/// Runs the groups in order until one fails or Ctrl-C; each job's test named and noted as
/// the job is.
fn run_each_group(
    jobs: &[FioJob],
    per_job: &[Vec<Prepared>],
    interrupt: &AtomicBool,
    opts: &run::RunOptions,
    tests: &mut Vec<TestResult>,
) -> anyhow::Result<()> {
    let mut groups: Vec<u32> = jobs.iter().map(|j| j.group).collect();
    groups.dedup();
    for g in groups {
        if interrupt.load(Ordering::Relaxed) {
            break;
        }
        let members: Vec<usize> = (0..jobs.len()).filter(|&i| jobs[i].group == g).collect();
        let group: Vec<run::Job> =
            members.iter().map(|&i| run::Job { spec: &jobs[i].spec, targets: &per_job[i] }).collect();
        for (mut t, &i) in run::run_group(&group, interrupt, opts)?.into_iter().zip(&members) {
            let j = &jobs[i];
            t.name = j.name.clone();
            t.group = j.group;
            t.options = j.options_as_run(&t.engine);
            t.notices.splice(0..0, j.notes.iter().cloned());
            if let Some(why) = &t.failed {
                t.notices.push(why.clone());
            }
            tests.push(t);
        }
    }
    Ok(())
}

/// After the jobs, as fio at their end: the bad blocks in fio's words on stderr, and each
/// verifying write job's state saved for a later verify_only run (a state that cannot be
/// written is said, and the run's results still stand).
fn verify_after(tests: &[TestResult]) {
    for t in tests {
        for line in crate::report::fio_verify::messages(t) {
            eprintln!("{line}");
        }
        let Some(f) = t.spec.verify.as_ref().and_then(|v| v.fio.as_ref()).filter(|f| f.state_save) else { continue };
        let Some(path) = &f.state_file else { continue };
        let saved = crate::verify::state::Saved {
            name: t.name.clone(),
            index: f.index,
            depth: t.depth,
            writes: saved_writes(t, f.fsynced),
            last: Vec::new(),
        };
        if let Err(e) = crate::verify::state::save(std::path::Path::new(path), &saved) {
            eprintln!("fio: failed to write state file {path}: {e}");
        }
    }
}

/// The writes a state records: all completed ones, or under verify_policy=fsynced those an
/// fsync completed after (each thread syncs every fsync_every writes of its own).
fn saved_writes(t: &TestResult, fsynced: bool) -> u64 {
    let every = u64::from(t.spec.fsync_every);
    if !fsynced {
        return t.write.ios;
    }
    t.write.ios.min(t.fsync.count.saturating_mul(every))
}

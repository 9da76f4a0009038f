//! `iolens diskspd ARGS…`: a DiskSpd command line, parsed as DiskSpd parses it, run by iolens,
//! reported in DiskSpd's layout. iolens' own options use two dashes (DiskSpd's use one), so
//! they mix freely: `iolens diskspd --format json -t2 -o32 -b4k -r -w25 -d60 -Sh -L -c1G io.dat`.

use super::common::{self, CommonArgs};
use crate::error::{usage, UsageError};
use crate::frontends::diskspd::{self, fit, DiskspdJob, ResultsFormat};
use crate::report::diskspd::profile::{write_profile, ProfileSpan, XmlOut};
use crate::report::Format;
use crate::result::Kind;
use crate::session::{execute, Item, Request};
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct DiskspdArgs {
    /// DiskSpd's arguments (-b4k -t2 -o32 -r -w25 -d60 -Sh -L -c1G FILE, or -Xprofile.xml; -Rxml for
    /// DiskSpd's XML results, -Rp[xml] for the profile alone), plus iolens' --format text|json,
    /// --out FILE, --keep, --allow-write, --force-device, --quiet
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

/// Splits iolens' own `--options` from DiskSpd's `-options` and targets.
fn split(args: &[String]) -> Result<(CommonArgs, Vec<String>), UsageError> {
    let (own, rest) = common::split(args, |_, _| Ok(false))?;
    if let Some(n) = rest.iter().find(|a| a.starts_with("--")) {
        return usage(
            n.split('=').next().unwrap_or(n),
            format!("is not an iolens option here; use {}", common::shared_names()),
        );
    }
    Ok((own, rest))
}

pub fn main(a: DiskspdArgs) -> anyhow::Result<i32> {
    let (own, rest) = split(&a.args)?;
    let mut job = diskspd::parse(&rest)?;
    let mut output = own.output(None)?;
    if job.results == Some(ResultsFormat::Xml) && !job.profile_only {
        // -Rxml picks DiskSpd's XML where iolens' default text would go; a typed --format wins.
        if let Some(r) = rest.iter().find(|a| a.starts_with("-R")).filter(|_| own.format.text != "text") {
            return Err(UsageError::new(r, format!("conflicts with --format {}; use one", own.format.text)).into());
        }
        if own.format.text == "text" {
            output.format = Format::DiskspdXml;
        }
    }
    for n in &job.notes {
        // DiskSpd's own warnings go out as it prints them.
        if n.starts_with("WARNING: ") {
            eprintln!("{n}");
        } else {
            eprintln!("note: {n}");
        }
    }
    if job.profile_only {
        print!("{}", profile(&rest, &job));
        return Ok(0);
    }
    if job.system_only {
        let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        let host = crate::targets::host::detect(Vec::new());
        print!("{}", crate::report::diskspd_system(&host, &now, job.results == Some(ResultsFormat::Xml)));
        return Ok(0);
    }
    hold_threads(&mut job)?;
    // Without -c DiskSpd uses an existing target whole, as iolens does without --size.
    let size_given = job.create_size.is_some();
    diskspd::targets_exist(&job)?;
    let mut items: Vec<Item> = std::iter::once(job.spec)
        .chain(job.later)
        .map(|mut spec| {
            own.apply(&mut spec);
            spec.size_given = size_given;
            spec.targets.dedup();
            // The notes went to stderr above, where DiskSpd puts its warnings; its results carry none.
            Item { name: spec.short_name(), spec, notes: Vec::new() }
        })
        .collect();
    // Before anything is created, so a refused line touches no file.
    for it in &mut items {
        for t in it.spec.targets.clone() {
            if let Some(size) = fit::target_size(std::path::Path::new(&t), job.create_size) {
                for w in fit::fit(&mut it.spec, &t, size)? {
                    eprintln!("{w}");
                }
            }
        }
    }
    execute(&Request::once(Kind::Diskspd, &items, &output))
}

/// `-Rp`: the profile as DiskSpd would re-print it, in the layout -R asks for (text by default).
fn profile(line: &[String], job: &DiskspdJob) -> String {
    let specs: Vec<_> = std::iter::once(job.spec.clone()).chain(job.later.iter().cloned()).collect();
    if job.results != Some(ResultsFormat::Xml) {
        // The engine that would run each, as a run's report names the one that did.
        let ran: Vec<_> = specs
            .iter()
            .map(|s| {
                let (engine, depth, _) = crate::engine::choose(s.engine, s.qd);
                (s.clone(), depth, engine.name())
            })
            .collect();
        return crate::report::diskspd_profile_text(line, job, &ran);
    }
    let mut x = XmlOut::default();
    let spans: Vec<_> =
        specs.iter().map(|spec| ProfileSpan { spec, create_size: job.create_size, extras: &job.extras }).collect();
    write_profile(&mut x, &spans, ResultsFormat::Xml);
    x.finish()
}

/// DiskSpd's thread affinity on this machine: the CPUs the process may use, their cores and
/// E-cores.
fn hold_threads(job: &mut DiskspdJob) -> Result<(), UsageError> {
    let places = crate::targets::host::cpu_places();
    let core_of = |c: u32| places.iter().find(|p| p.cpu == c).map_or(c, |p| p.core);
    let efficient = crate::targets::host::efficiency_cores();
    diskspd::hold_threads(job, &crate::targets::affinity::allowed(), &core_of, &|c| efficient.contains(&c))
}

#[cfg(test)]
mod tests;

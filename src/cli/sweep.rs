//! `iolens sweep`: Iometer-style access specifications. Any of --bs, --qd, --threads and
//! --read-pct takes a comma list; every combination is one point, run on the same target.

use super::run::{to_spec, RunArgs};
use crate::error::{usage, UsageError};
use crate::result::Kind;
use crate::session::{Item, Request};
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct SweepArgs {
    /// `run`'s options; --bs, --qd, --threads and --read-pct take lists: --bs 4k,16k,64k --qd 1,4,16
    #[command(flatten)]
    pub run: RunArgs,
}

/// The swept axes in the order points vary (the last one fastest).
const AXES: [&str; 4] = ["--bs", "--threads", "--qd", "--read-pct"];

fn axis<'a>(a: &'a RunArgs, name: &str) -> Option<&'a str> {
    match name {
        "--bs" => Some(a.bs.as_str()),
        "--threads" => Some(a.threads.as_str()),
        "--qd" => Some(a.qd.as_str()),
        _ => a.read_pct.as_deref(),
    }
}

fn set(a: &mut RunArgs, name: &str, v: &str) {
    match name {
        "--bs" => a.bs = v.into(),
        "--threads" => a.threads = v.into(),
        "--qd" => a.qd = v.into(),
        _ => a.read_pct = Some(v.into()),
    }
}

/// Every point of the sweep, named by the values that vary: "bs=4K qd=32".
pub fn items(a: &RunArgs) -> Result<Vec<Item>, UsageError> {
    let lists: Vec<(&str, Vec<String>)> = AXES
        .iter()
        .map(|&n| (n, axis(a, n).map(|s| s.split(',').map(|x| x.trim().to_string()).collect()).unwrap_or_default()))
        .collect();
    for (n, l) in &lists {
        if l.iter().any(String::is_empty) {
            return usage(n, "a list has an empty entry; write e.g. 1,2,4,8");
        }
    }
    // Counted before any point is made: four lists of a thousand values would ask for 10^12.
    let count: u128 = lists.iter().map(|(_, l)| l.len().max(1) as u128).product();
    if count > 1000 {
        let first = lists.iter().find(|(_, l)| l.len() > 1).map_or("--bs", |(n, _)| n);
        return usage(first, format!("{count} points is too many for one sweep (at most 1000)"));
    }
    let mut points: Vec<RunArgs> = vec![a.clone()];
    let mut varying = Vec::new();
    for (n, l) in &lists {
        if l.len() > 1 {
            varying.push(*n);
            points = points
                .into_iter()
                .flat_map(|p| {
                    l.iter().map(move |v| {
                        let mut q = p.clone();
                        set(&mut q, n, v);
                        q
                    })
                })
                .collect();
        }
    }
    if varying.is_empty() {
        return usage(
            "--bs",
            "nothing to sweep; give a list to --bs, --qd, --threads or --read-pct (e.g. --qd 1,4,16)",
        );
    }
    points
        .iter()
        .map(|p| {
            let spec = to_spec(p)?;
            let name = varying
                .iter()
                .map(|n| format!("{}={}", n.trim_start_matches('-'), axis(p, n).unwrap_or("")))
                .collect::<Vec<_>>()
                .join(" ");
            Ok(Item { name, spec, notes: Vec::new() })
        })
        .collect()
}

pub fn main(a: SweepArgs) -> anyhow::Result<i32> {
    let items = items(&a.run)?;
    let r = &a.run;
    let output = r.common.output(r.trace.as_deref())?;
    super::mpi::execute(&Request::once(Kind::Sweep, &items, &output), r.mpi.check()?)
}

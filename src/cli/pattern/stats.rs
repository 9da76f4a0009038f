//! `iolens pattern --from-stats BEFORE AFTER TARGET`: the workload a database counted, run on a
//! candidate target at the rates it was seen at, every stream at once and paced (latency from
//! each I/O's scheduled start, so a target that falls behind shows it). Each stream's test
//! says whether it kept up and its latency against what the database waited.

use super::PatternArgs;
use crate::error::UsageError;
use crate::frontends::counters::{self, streams::Stream};
use crate::frontends::fio::FioJob;
use crate::result::Kind;
use crate::result::TestResult;
use std::path::Path;

/// A stream keeps up when it achieves at least this share of the rate asked: pacing issues
/// I/Os on a fixed schedule, so on a target with room it comes within a fraction of 1 %.
pub const KEEPS_UP: f64 = 0.98;

pub fn main(a: &PatternArgs) -> anyhow::Result<i32> {
    if a.mpi.check()?.is_some() {
        return Err(UsageError::new("--mpi", "does not apply to --from-stats").into());
    }
    if a.page_size.is_some() {
        return Err(
            UsageError::new("--page-size", "does not apply to --from-stats: the counters give the sizes").into()
        );
    }
    if let Some(extra) = &a.target {
        return Err(
            UsageError::new("TARGET", format!("--from-stats takes one target; '{extra}' is one too many")).into()
        );
    }
    let target = a.name.as_deref();
    let observed = counters::from_files(&a.from_stats[0], &a.from_stats[1])?;
    let base = a.common.base_spec(target, a.size, a.duration, a.buffered);
    let root = base.targets[0].clone();
    let dir = Path::new(&root).is_dir();
    let pid = std::process::id();
    let file_for = |k: usize| {
        if dir {
            Path::new(&root).join(format!("iolens-stats-{pid}-{k}.dat")).display().to_string()
        } else {
            root.clone()
        }
    };
    let streams = counters::streams::streams(&observed, &base, &file_for);
    let mut jobs = Vec::with_capacity(streams.len());
    for s in &streams {
        s.spec.validate()?;
        jobs.push(FioJob {
            name: s.name.clone(),
            spec: s.spec.clone(),
            group: 0,
            group_reporting: false,
            options: Vec::new(),
            notes: vec![s.description.clone()],
            ran: Vec::new(),
            clone: None,
            allow_file_create: true,
            size_pct: None,
            size_passes: None,
            unlink: false,
            hist: None,
        });
    }
    let output = a.common.output(None)?;
    let annotate = |r: &mut crate::result::RunResult| -> anyhow::Result<()> {
        for (t, s) in r.tests.iter_mut().zip(&streams) {
            let v = verdict(s, t);
            if output.chatty && !output.quiet {
                eprintln!("{v}");
            }
            t.notices.push(v);
        }
        Ok(())
    };
    crate::session::run_jobs(Kind::Pattern, &jobs, &output, base.keep, &annotate)
}

fn ms(us: Option<f64>) -> String {
    us.map_or("-".into(), |u| format!("{:.2} ms", u / 1e3))
}

/// One line: the rate asked and achieved, whether that keeps up, and the latency measured
/// (from each I/O's scheduled start) against the database's mean wait.
pub fn verdict(s: &Stream, t: &TestResult) -> String {
    let (op, lat, what) =
        if s.read { (&t.read, &t.response.read, "reads") } else { (&t.write, &t.response.write, "writes") };
    let pct = if s.rate > 0.0 { op.iops / s.rate * 100.0 } else { 0.0 };
    // A stream of a few I/Os a second over a short run is a handful of I/Os: one more or one
    // less moves its rate by more than the margin.
    let floor = KEEPS_UP * 100.0;
    let keeps = if s.rate * t.duration_s < 100.0 {
        "too few I/Os to judge (run longer)".to_string()
    } else if op.iops >= s.rate * KEEPS_UP {
        format!("keeps up (at least {floor:.0} % of the rate asked)")
    } else {
        format!("falls behind (below {floor:.0} % of the rate asked)")
    };
    let db = s
        .db_latency_ms
        .map_or("not tracked by the database".into(), |l| format!("{l:.2} ms the database waited on average"));
    format!(
        "{}: asked {:.1} {what}/s, achieved {:.1} ({pct:.1} %): {keeps}; latency p50 {}, p99 {}, mean {} against {db}",
        s.name,
        s.rate,
        op.iops,
        ms(lat.percentiles.get("50")),
        ms(lat.percentiles.get("99")),
        ms(lat.mean),
    )
}

//! `iolens check [TARGET]`: the one command. CrystalDiskMark's four tests, read and write, then a
//! short explain sweep, in about two minutes (`--quick`: about twenty seconds); the table, the
//! walls found, the catalog matches and the advice; the result saved and an HTML report written.

use super::common::CommonArgs;
use super::explain::{item, may_write, Judge};
use super::values;
use crate::analyze::sweep::Sweeper;
use crate::error::usage;
use crate::report::Format;
use crate::result::Kind;
use crate::session::{execute_series, Item, Request};
use crate::workload::presets::{CdmOp, CdmTest};
use crate::workload::Spec;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// File, directory (a test file is made inside) or block device [default: .]
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
    /// About 20 seconds instead of about two minutes
    #[arg(long)]
    pub quick: bool,
    /// Test file size [default: 1GiB, 256MiB with --quick; a device's whole size]
    #[arg(long, value_name = "SIZE", value_parser = values::size("--size"))]
    pub size: Option<u64>,
    /// Where the HTML report goes [default: iolens-check-TIME.html here]
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Reads only
    #[arg(long)]
    pub reads_only: bool,
    #[command(flatten)]
    pub judge: Judge,
    #[command(flatten)]
    pub common: CommonArgs,
}

pub fn main(a: CheckArgs) -> anyhow::Result<i32> {
    let (cat, cfg, tol) = a.judge.read()?;
    let target = a.target.clone().unwrap_or_else(|| ".".into());
    crate::session::named::meant_as_new_file(&target, a.size.is_some())?;
    let writes = may_write(&target, a.reads_only, a.common.force_device);
    let default_size = if a.quick { 256 << 20 } else { 1 << 30 };
    let mut base = Spec {
        targets: vec![target],
        size: a.size.unwrap_or(default_size),
        size_given: a.size.is_some(),
        ..Spec::default()
    };
    a.common.apply(&mut base);
    // CrystalDiskMark's default tests (the quick check keeps three), then the sweep. Its steps
    // end once steady, so it runs half again as many of them, each with its own set-up between
    // them: 64 s of budget keep the whole check as long as it was when 70 s paid for 18 steps.
    let (tests, secs, budget) = if a.quick {
        (vec!["SEQ1M Q8T1", "RND4K Q32T1", "RND4K Q1T1"], 1.0, 12.0)
    } else {
        (vec!["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"], 3.0, 64.0)
    };
    let ops: &[CdmOp] = if writes { &[CdmOp::Read, CdmOp::Write] } else { &[CdmOp::Read] };
    let mut profile: Vec<Item> = Vec::new();
    let with_time = Spec { duration: secs, warmup: secs / 4.0, ..base.clone() };
    for t in tests {
        let t = CdmTest::parse(t)?;
        for &op in ops {
            let spec = t.spec(&with_time, op);
            spec.validate()?;
            profile.push(Item { name: format!("{} {}", t.label(), op.name()), spec, notes: Vec::new() });
        }
    }
    let mut output = a.common.output(None)?;
    if output.out.is_none() {
        let html = a.html.clone().unwrap_or_else(|| {
            let t = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
            PathBuf::from(format!("iolens-check-{}.html", t.replace([':', '-'], "").trim_end_matches('Z')))
        });
        if html.parent().is_some_and(|d| !d.as_os_str().is_empty() && !d.is_dir()) {
            return usage("--html", format!("directory {} does not exist", html.parent().unwrap_or(&html).display()))?;
        }
        output.out = Some((html, Format::Html));
    }
    let skip = profile.len();
    let mut sweeper = Sweeper::new(base, budget, true, writes, skip);
    sweeper.prefix = "sweep ";
    let mut queue = profile.clone().into_iter();
    let mut next = |done: &[crate::result::TestResult]| {
        queue.next().or_else(|| sweeper.next(done, std::time::Instant::now()).map(item))
    };
    let annotate = |r: &mut crate::result::RunResult| Ok(crate::analyze::results::annotate(r, &cat, &cfg, tol)?);
    let html = output.out.as_ref().map(|(p, _)| p.clone());
    let req = Request::once(Kind::Check, &profile, &output);
    let code = execute_series(&req, &mut next, &annotate)?;
    if let Some(p) = html {
        if p.exists() {
            eprintln!("report: {}", p.display());
        }
    }
    Ok(code)
}

//! `iolens capture DEV --duration S --out FILE`: a block device's requests recorded from the
//! kernel's block tracepoints, written as iolens's timed trace (each request's time and its
//! latency as the device served it), which `iolens replay` issues again.

use super::values::{given, seconds, Given};
use crate::error::usage;
use crate::frontends::replay::{TraceOp, RECORD_LIMIT};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct CaptureArgs {
    /// The block device whose requests are recorded
    #[arg(value_name = "DEV")]
    pub dev: PathBuf,
    /// How long to record (10, 2.5s, 500ms, 2m); Ctrl-C stops earlier and keeps what was recorded
    #[arg(long, default_value = "60", value_name = "TIME", value_parser = given(seconds("--duration")))]
    pub duration: Given<f64>,
    /// The trace to write: CSV of op, offset, length, time and latency per request
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// No progress line on stderr
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

pub fn main(a: CaptureArgs) -> anyhow::Result<i32> {
    let secs = a.duration.value;
    if secs <= 0.0 {
        return Ok(usage("--duration", format!("'{}' is no time to record; give more than 0", a.duration.text))?);
    }
    let dir = a.out.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if !dir.is_dir() || a.out.is_dir() {
        return Ok(usage("--out", format!("{}: not a file in an existing directory", a.out.display()))?);
    }
    let (cap, took, full) = crate::session::capture::record(&a.dev, secs, a.quiet)?;
    std::fs::File::create(&a.out)
        .and_then(|f| cap.write_csv(std::io::BufWriter::new(f)))
        .map_err(|e| anyhow::anyhow!("{}: cannot be written: {e}", a.out.display()))?;
    let timed = cap.requests.iter().filter(|r| r.latency_ns.is_some()).count();
    println!(
        "captured {} requests on {} in {took:.1} s: {} reads, {} writes, {} trims, {} flushes ({timed} with their latency) to {}",
        cap.requests.len(),
        a.dev.display(),
        cap.count(TraceOp::Read),
        cap.count(TraceOp::Write),
        cap.count(TraceOp::Trim),
        cap.count(TraceOp::Flush),
        a.out.display()
    );
    if full {
        eprintln!("warning: the capture stopped at {RECORD_LIMIT} requests, the most a trace holds");
    }
    if cap.lost > 0 {
        eprintln!(
            "warning: the kernel dropped {} events (its trace buffer was full): the capture misses requests",
            cap.lost
        );
    }
    Ok(0)
}

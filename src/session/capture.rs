//! `iolens capture`'s recording: a block device's requests read from the kernel's block
//! tracepoints (through `targets::tracefs`) into a trace, until the time is up, Ctrl-C or the
//! most a trace holds.

use crate::frontends::replay::{Capture, RECORD_LIMIT};
use crate::targets::tracefs::BlockTrace;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Records until the time is up, Ctrl-C or the request limit: the requests, the seconds it
/// took, and whether the limit ended it. The tracefs instance is gone when this returns.
pub fn record(dev: &Path, secs: f64, quiet: bool) -> anyhow::Result<(Capture, f64, bool)> {
    let stop = super::install_interrupt();
    let mut trace = BlockTrace::start(dev)?;
    if !quiet {
        eprintln!("capturing {}'s requests for {secs} s (Ctrl-C stops earlier)", dev.display());
    }
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(secs);
    let (mut cap, mut buf, mut full) = (Capture::default(), Vec::new(), false);
    while Instant::now() < deadline && !stop.load(Ordering::SeqCst) && !full {
        trace.read(&mut buf, 100)?;
        full = !feed(&mut cap, &mut buf);
    }
    let took = started.elapsed().as_secs_f64();
    // Requests in flight complete after the events stop: their completions are still read.
    trace.stop();
    while trace.read(&mut buf, 50)? > 0 {
        feed(&mut cap, &mut buf);
    }
    Ok((cap, took, full))
}

/// Hands the complete lines in `buf` to `cap` and keeps the rest; false once `cap` is full.
fn feed(cap: &mut Capture, buf: &mut Vec<u8>) -> bool {
    let Some(end) = buf.iter().rposition(|b| *b == b'\n') else { return true };
    let mut more = true;
    for line in String::from_utf8_lossy(&buf[..end]).lines() {
        more &= cap.line(line, RECORD_LIMIT);
    }
    buf.drain(..=end);
    more
}

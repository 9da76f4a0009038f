//! Before the first I/O: the targets planned once for every kind of test a series will run,
//! checked against the report's own files and the machine's memory, then created and opened.

use super::{install_interrupt, Item, Output};
use crate::error::{usage, UsageError};
use crate::targets::host::{memory_available, same_file};
use crate::workload::size::format_block;
use crate::workload::Spec;
use crate::{run, targets};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The targets of a series, checked and made ready for everything it will do to them.
pub struct Ready {
    /// The spec the targets were planned for.
    pub base: Spec,
    pub targets: Vec<targets::Prepared>,
    pub interrupt: Arc<AtomicBool>,
    pub opts: run::RunOptions,
}

/// Plans the targets once, for every kind of test in `envelope`, and prepares them.
pub fn prepare(envelope: &[Item], output: &Output) -> anyhow::Result<Ready> {
    let first = &envelope[0];
    let mut base = first.spec.clone();
    if envelope.iter().any(|i| i.spec.writes()) {
        base.read_pct = 0;
    }
    base.size_given = envelope.iter().any(|i| i.spec.size_given);
    let plans = targets::plan(&base)?;
    for (opt, p) in [("--out", output.out.as_ref().map(|o| &o.0)), ("--trace", output.trace.as_ref())] {
        if let Some(p) = p {
            if plans.iter().any(|t| same_file(p, &t.path)) {
                return usage(opt, format!("{} is a target of this run; write the report elsewhere", p.display()))?;
            }
        }
    }
    for i in envelope {
        check_memory(&i.spec, plans.len())?;
    }
    let interrupt = install_interrupt();
    let progress = !output.quiet && std::io::stderr().is_terminal();
    let targets = targets::prepare(&base, &plans, &interrupt, prefill_progress(progress))?;
    let opts = run::RunOptions { progress, trace: output.trace.clone(), ..Default::default() };
    Ok(Ready { base, targets, interrupt, opts })
}

/// Shows how far the filling of a new test file has come (on a terminal only).
pub fn prefill_progress(progress: bool) -> impl FnMut(&Path, f64) {
    let mut shown = u32::MAX;
    move |p, frac| {
        let pct = (frac * 100.0) as u32;
        if progress && pct != shown {
            shown = pct;
            eprint!("\rpreparing {}: {pct} %  ", p.display());
            if frac >= 1.0 {
                eprint!("\r\x1b[2K");
            }
        }
    }
}

/// I/O buffers are allocated up front, one per outstanding I/O (two with a read/write mix):
/// refuse a spec whose buffers would not fit comfortably in memory.
pub fn check_memory(spec: &Spec, targets: usize) -> Result<(), UsageError> {
    let mixed = if spec.read_pct > 0 && spec.read_pct < 100 { 2 } else { 1 };
    let bytes = targets as u128 * spec.threads as u128 * spec.qd as u128 * spec.max_block() as u128 * mixed;
    match memory_available().map(u128::from) {
        Some(a) if bytes > a / 2 => usage(
            "--qd",
            format!(
                "{} outstanding I/Os of {} need {:.1} GiB of buffers, more than half the {:.1} GiB available; lower --qd, --threads or --bs",
                targets as u128 * spec.threads as u128 * spec.qd as u128,
                format_block(spec.max_block()),
                bytes as f64 / (1u64 << 30) as f64,
                a as f64 / (1u64 << 30) as f64
            ),
        ),
        _ => Ok(()),
    }
}

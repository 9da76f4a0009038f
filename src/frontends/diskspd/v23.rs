//! The switches DiskSpd 2.3 added: `-u` (IoRing), `-Sy`/`-SY` (BypassIO), the affinity orders
//! (`-ac -as -ap -aP -ae -aE -aup`), `-bs` (buffer separation), `-oc` (completion batch depth)
//! and `-Rs` (system information alone). Each is read as 2.3's CmdLineParser reads it, then
//! run as iolens can: the ring is io_uring on Linux, and a switch only Windows can honour is
//! refused by its name.

use super::line::{IoRing, Line};
use super::wording::{alone, incorrect, unsupported};
use super::{ResultsFormat, R};
use crate::workload::Bypass;

/// `-u[n][<batch>][p]`: submit through a ring in batches (DiskSpd's default: 25 % of `-o`).
pub(super) fn ioring(l: &mut Line, arg: &str, v: &str) -> R<()> {
    let (v, registered) = match v.strip_prefix('n') {
        Some(v) => (v, false),
        None => (v, true),
    };
    let (n, percent) = match v.strip_suffix('p') {
        Some(n) => (n, true),
        None => (v, v.is_empty()),
    };
    let n =
        if n.is_empty() { 25 } else { n.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(|| incorrect(arg, &[]))? };
    if percent && n > 100 {
        return Err(incorrect(arg, &["IoRing batch size percentage must be 1-100"]));
    }
    l.extras.ioring = Some(IoRing { batch: n, percent, registered });
    Ok(())
}

/// The batch `-u` asked for, now that `-o` is known (2.3 rounds the percentage up); and where
/// the ring runs: Windows's IoRing, which falls back to I/O Completion Ports with a notice
/// where Windows has none, or Linux's io_uring.
pub(super) fn settle_ioring(l: &mut Line) {
    let Some(IoRing { batch: n, percent, registered }) = l.extras.ioring else { return };
    let qd = l.spec.qd.max(1);
    let batch = if percent { (qd * n).div_ceil(100).max(1) } else { n.min(qd) };
    l.spec.batch = batch;
    if cfg!(windows) {
        l.spec.engine = crate::workload::EngineKind::IoRing;
        l.spec.ring_unregistered = !registered;
        l.notes.push(format!("-u: submitting {batch} I/Os at a time"));
    } else {
        let ring = "IoRing is Windows' submission ring: iolens runs Linux's, io_uring";
        l.notes.push(format!("-u: {ring}, submitting {batch} I/Os at a time"));
    }
}

/// `-Sy` (partial bypass allowed) or `-SY` (full bypass or fail): DiskSpd needs `-Su` with it.
pub(super) fn bypass(l: &mut Line, arg: &str, full: bool) {
    l.extras.bypass_full = Some(full);
    l.bypass_arg = Some(arg.to_string());
}

/// BypassIO is a Windows storage-stack path: checked once `-S` is settled, as DiskSpd does.
/// Windows enables it on each handle (and a run stops where the stack refuses, as 2.3's does);
/// Linux has none, so the switch is refused there, though a profile (`-Rp`) may still say it.
pub(super) fn settle_bypass(l: &mut Line) -> R<()> {
    let Some(arg) = &l.bypass_arg else { return Ok(()) };
    if l.unbuffered != Some(true) {
        return Err(alone("-S", "BypassIO (-SY or -Sy) requires unbuffered IO (-Su)"));
    }
    if l.spec.read_pct < 100 {
        return Err(alone("-S", "BypassIO (-SY or -Sy) is only supported for read-only workloads"));
    }
    if cfg!(windows) {
        let full = l.extras.bypass_full == Some(true);
        l.spec.bypass = Some(if full { Bypass::Full } else { Bypass::Partial });
        return Ok(());
    }
    if l.profile_only {
        return Ok(());
    }
    Err(unsupported(
        arg,
        "BypassIO is not supported: iolens goes through the file system and the storage stack's filters",
    ))
}

/// `-a…`: an order, or CPU numbers (ranges too) with gN group prefixes.
pub(super) fn affinity(l: &mut Line, arg: &str, v: &str) -> R<()> {
    l.extras.affinity.apply(arg, v)
}

/// `-bs[n|p]`: how thread buffers are laid out in memory.
pub(super) fn buffer_separation(l: &mut Line, arg: &str, v: &str) -> R<()> {
    l.extras.buffer_separation = match v {
        "" | "p" => true,
        "n" => false,
        _ => return Err(incorrect(arg, &["invalid buffer separation passed to -bs"])),
    };
    Ok(())
}

/// `-oc<N>`: completions dequeued per call, 1-16.
pub(super) fn completion_depth(l: &mut Line, arg: &str, v: &str) -> R<()> {
    match v.parse::<u32>() {
        Ok(n @ 1..=16) => {
            l.extras.completion_depth = Some(n);
            l.notes.push(format!("-oc{n}: iolens takes one completion per call and refills its slot before the next"));
            Ok(())
        }
        _ => Err(incorrect(arg, &["completion depth (-oc) must be 1-16"])),
    }
}

/// `-Rs[text|xml]`: DiskSpd's system information alone.
pub(super) fn system_only(l: &mut Line, arg: &str, v: &str) -> R<()> {
    l.system_only = true;
    l.results = match v {
        "" | "text" => Some(ResultsFormat::Text),
        "xml" => Some(ResultsFormat::Xml),
        _ => return Err(alone("-R", &format!("invalid results format (-R): '{}'", &arg[2..]))),
    };
    Ok(())
}

#[cfg(test)]
mod tests;

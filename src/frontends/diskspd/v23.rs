//! The switches DiskSpd 2.3 added: `-u` (IoRing), `-Sy`/`-SY` (BypassIO), the affinity orders
//! (`-ac -as -ap -aP -ae -aE -aup`), `-bs` (buffer separation), `-oc` (completion batch depth)
//! and `-Rs` (system information alone). Each is read as 2.3's CmdLineParser reads it, then
//! run as iolens can: the ring is io_uring on Linux, and a switch only Windows can honour is
//! refused by its name.

use super::line::Line;
use super::wording::{alone, incorrect, unsupported};
use super::R;

/// `-u[n][<batch>][p]`: submit through a ring in batches (DiskSpd's default: 25 % of `-o`).
pub(super) fn ioring(l: &mut Line, arg: &str, v: &str) -> R<()> {
    let v = v.strip_prefix('n').unwrap_or(v);
    let (n, pct) = match v.strip_suffix('p') {
        Some(n) => (n, true),
        None => (v, v.is_empty()),
    };
    let n =
        if n.is_empty() { 25 } else { n.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(|| incorrect(arg, &[]))? };
    if pct && n > 100 {
        return Err(incorrect(arg, &["IoRing batch size percentage must be 1-100"]));
    }
    l.ioring = Some((n, pct));
    Ok(())
}

/// The batch `-u` asked for, now that `-o` is known; and where the ring runs.
pub(super) fn settle_ioring(l: &mut Line) {
    let Some((n, pct)) = l.ioring else { return };
    let qd = l.spec.qd.max(1);
    let batch = if pct { (qd * n / 100).max(1) } else { n.min(qd) };
    l.spec.batch = batch;
    let ring = if cfg!(windows) {
        "iolens has no IoRing engine: I/O Completion Ports run it"
    } else {
        "IoRing is Windows' submission ring: iolens runs Linux's, io_uring"
    };
    l.notes.push(format!("-u: {ring}, submitting {batch} I/Os at a time"));
}

/// `-Sy` (partial bypass allowed) or `-SY` (full bypass or fail): DiskSpd needs `-Su` with it.
pub(super) fn bypass(l: &mut Line, arg: &str) {
    l.bypass = Some(arg.to_string());
}

/// BypassIO is a Windows storage-stack path: checked once `-S` is settled, as DiskSpd does.
pub(super) fn settle_bypass(l: &Line) -> R<()> {
    let Some(arg) = &l.bypass else { return Ok(()) };
    if l.unbuffered != Some(true) {
        return Err(alone("-S", "BypassIO (-SY or -Sy) requires unbuffered IO (-Su)"));
    }
    Err(unsupported(
        arg,
        "BypassIO is not supported: iolens goes through the file system and the storage stack's filters",
    ))
}

/// `-a…`: a 2.3 order, or CPU numbers (ranges too) with gN group prefixes, ending on a CPU.
pub(super) fn affinity(l: &mut Line, arg: &str, v: &str) -> R<()> {
    if let Some(order) = affinity_order(v) {
        l.affinity = true;
        l.notes.push(format!("{}: CPU affinity ({order}) is ignored; the scheduler places iolens' threads", arg));
        return Ok(());
    }
    // DiskSpd's grammar: "" or "g", else CPU numbers and gN group prefixes, ending on a CPU.
    // 2.3 takes ranges too: -ag0,0-10,15-20.
    let one = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let num = |t: &str| t.split_once('-').map_or(one(t), |(a, b)| one(a) && one(b));
    let list = v.split(',').all(|t| num(t.strip_prefix('g').unwrap_or(t)));
    if !(v.is_empty() || v == "g") && v.rsplit(',').next().is_some_and(|t| t.starts_with('g') || t.is_empty()) {
        return Err(incorrect(arg, &["incomplete affinity specification"]));
    }
    if !(v.is_empty() || v == "g" || list) {
        return Err(incorrect(arg, &["syntax error parsing affinity"]));
    }
    l.affinity = true;
    l.notes.push(format!("{}: CPU affinity is ignored; the scheduler places iolens' threads", arg));
    Ok(())
}

/// `-ac`, `-as`, `-ap`, `-aP`, `-ae`, `-aE`, `-aup` (and `-ag` alone): orders in which DiskSpd
/// assigns threads to CPUs. None if `v` is a CPU list instead.
pub(super) fn affinity_order(v: &str) -> Option<&'static str> {
    let what = match v {
        "g" => "group round robin",
        "c" => "core-aware",
        "s" => "span groups",
        "p" => "P-cores first",
        "P" => "fill P-cores first",
        "e" => "E-cores first",
        "E" => "fill E-cores first",
        "up" => "no P/E order",
        // Combined (-acs, -acp …): each letter an order.
        v if !v.is_empty() && v.chars().all(|c| "csPpEe".contains(c)) => "combined orders",
        _ => return None,
    };
    Some(what)
}

/// `-bs[n|p]`: how thread buffers are laid out in memory.
pub(super) fn buffer_separation(l: &mut Line, arg: &str, v: &str) -> R<()> {
    match v {
        "" | "p" | "n" => {
            l.notes.push(format!("{arg}: iolens gives each thread buffers of its own, page-aligned"));
            Ok(())
        }
        _ => Err(incorrect(arg, &["invalid buffer separation passed to -bs"])),
    }
}

/// `-oc<N>`: completions dequeued per call, 1-16.
pub(super) fn completion_depth(l: &mut Line, arg: &str, v: &str) -> R<()> {
    match v.parse::<u32>() {
        Ok(n @ 1..=16) => {
            l.notes.push(format!("-oc{n}: iolens takes every completion ready at each call"));
            Ok(())
        }
        _ => Err(incorrect(arg, &["completion depth (-oc) must be 1-16"])),
    }
}

/// `-Rs[text|xml]`: DiskSpd's system information alone.
pub(super) fn system_only(arg: &str) -> R<()> {
    Err(unsupported(arg, "system information alone is not supported; any run's report carries it"))
}

#[cfg(test)]
mod tests;

//! Turning a trace into a run, whichever front end asks (`iolens replay`, fio's read_iolog):
//! its options checked, its I/Os shaped, the spec's targets and sizes set from it.

use super::Replay;
use crate::error::{usage, UsageError};
use crate::workload::{parse, BlockShare, FileService, ServiceKind, Spec};

/// How a replay is shaped, whichever front end asked for it.
pub struct Shaping<'a> {
    pub no_stall: bool,
    pub time_scale: &'a str,
    pub redirect: Option<&'a str>,
    pub align: Option<&'a str>,
    pub scale: &'a str,
    /// The names the front end gives the trace and the options above, in that order, for errors.
    pub names: [&'a str; 5],
}

/// Reads the trace and shapes it; pure apart from reading the trace.
pub fn load(log: &std::path::Path, s: &Shaping) -> Result<Replay, UsageError> {
    let [what, ts, _, al, sc] = s.names;
    let time_scale: u32 = s
        .time_scale
        .trim()
        .parse()
        .ok()
        .filter(|p| (1..=100_000).contains(p))
        .map_or_else(|| usage(ts, format!("'{}' is not a percentage; use 1-100000", s.time_scale)), Ok)?;
    let scale: u64 =
        s.scale.trim().parse().ok().filter(|n| *n >= 1).map_or_else(
            || usage(sc, format!("'{}' is not a divisor; use a whole number of 1 or more", s.scale)),
            Ok,
        )?;
    let align = s.align.map(|a| parse::size(al, a)).transpose()?.unwrap_or(0);
    if align > 0 && !align.is_power_of_two() {
        return usage(al, format!("{align} is not a power of two"));
    }
    let mut r = super::read(log, what)?;
    r.no_stall = s.no_stall;
    r.time_scale = time_scale;
    r.scale = scale;
    r.align = align;
    r.redirect = s.redirect.map(str::to_string);
    r.redirect_name = s.names[2].to_string();
    r.shape();
    Ok(r)
}

/// Makes `spec` replay `r` on `targets` (none: the trace's own files, or the redirect): its
/// targets, buffer size, read share, file size and the run's bound.
pub fn apply(spec: &mut Spec, r: Replay, targets: &[String]) -> Result<(), UsageError> {
    let targets = match (&r.redirect, targets.len()) {
        (Some(t), 0) => vec![t.clone()],
        (Some(_), _) => return usage("--redirect", "puts every file of the trace on one target; give no other TARGET"),
        (None, 0) => {
            // A capture's device stays named by its number; the targets find its node.
            if let Some(f) = r.files.iter().find(|f| !std::path::Path::new(f).exists() && r.device(f).is_none()) {
                return usage("TARGET", format!("the trace's file '{f}' does not exist; name a target for each file"));
            }
            r.files.clone()
        }
        (None, n) if n != r.files.len() => {
            return usage(
                "TARGET",
                format!(
                    "the trace has {} files ({}); give as many targets, or --redirect TARGET",
                    r.files.len(),
                    r.files.join(", ")
                ),
            )
        }
        _ => targets.to_vec(),
    };
    if r.ios.is_empty() {
        return usage(&r.trace, "holds no I/O to replay");
    }
    let extent = (0..targets.len() as u32).map(|f| r.extent(f)).max().unwrap_or(0);
    for (f, t) in targets.iter().enumerate() {
        let need = r.extent(f as u32);
        if let Ok(m) = std::fs::metadata(t) {
            if m.is_file() && m.len() < need {
                return usage(
                    t,
                    format!("is {} bytes; the trace goes up to byte {need} of it (see --scale, --align)", m.len()),
                );
            }
        }
    }
    let n = targets.len() as u32;
    spec.targets = targets;
    spec.blocks = vec![BlockShare { size: (r.max_len(spec.verify.is_some()) as u64).max(512), pct: 100 }];
    spec.write_blocks = None;
    spec.read_pct = r.read_pct();
    spec.threads = 1;
    spec.size = extent.div_ceil(4096).max(1) * 4096;
    // The trace ends the run; this only bounds a target that cannot keep up at all.
    spec.duration = (r.span_ns() as f64 / 1e9) + 86_400.0;
    spec.file_service =
        (n > 1).then_some(FileService { files: n, how: ServiceKind::RoundRobin, every: 1, ends: false });
    spec.replay = Some(r);
    Ok(())
}

/// O_DIRECT refuses I/O off 512-byte boundaries: say so before anything is opened.
pub fn check_direct(spec: &Spec) -> Result<(), UsageError> {
    let Some(r) = spec.replay.as_ref().filter(|_| spec.direct) else { return Ok(()) };
    match r.ios.iter().find(|io| io.offset % 512 != 0 || io.len % 512 != 0) {
        Some(io) => usage(
            "--buffered",
            format!(
                "the trace has I/O at offset {} of {} bytes, off the 512-byte boundaries O_DIRECT needs; replay it with --buffered",
                io.offset, io.len
            ),
        ),
        None => Ok(()),
    }
}

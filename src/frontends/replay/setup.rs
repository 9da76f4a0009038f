//! Turning a trace into a run, whichever front end asks (`iolens replay`, fio's read_iolog):
//! its options checked, its I/Os shaped, the spec's targets and sizes set from it.

use super::Replay;
use crate::error::{usage, UsageError};
use crate::workload::{parse, BlockShare, FileService, ServiceKind, Spec};

/// How a replay is shaped, whichever front end asked for it.
pub struct Shaping<'a> {
    pub no_stall: bool,
    /// Percent of the trace's rate (`time_scale`).
    pub time_scale: u32,
    pub redirect: Option<&'a str>,
    /// Offsets rounded down to a multiple of this power of two; 0: as they are.
    pub align: u64,
    /// Offsets divided by this.
    pub scale: u64,
    /// The names the front end gives the trace and the redirect, for errors.
    pub names: [&'a str; 2],
}

/// The trace's rate in percent, as `opt` gives it.
pub fn time_scale(opt: &str, s: &str) -> Result<u32, UsageError> {
    s.trim()
        .parse()
        .ok()
        .filter(|p| (1..=100_000).contains(p))
        .map_or_else(|| usage(opt, format!("'{s}' is not a percentage; use 1-100000")), Ok)
}

/// The divisor of the trace's offsets.
pub fn scale(opt: &str, s: &str) -> Result<u64, UsageError> {
    s.trim()
        .parse()
        .ok()
        .filter(|n| *n >= 1)
        .map_or_else(|| usage(opt, format!("'{s}' is not a divisor; use a whole number of 1 or more")), Ok)
}

/// The alignment of the trace's offsets: a power of two, or 0.
pub fn align(opt: &str, s: &str) -> Result<u64, UsageError> {
    let align = parse::size(opt, s)?;
    if align > 0 && !align.is_power_of_two() {
        return usage(opt, format!("{align} is not a power of two"));
    }
    Ok(align)
}

/// Reads the trace and shapes it; pure apart from reading the trace.
pub fn load(log: &std::path::Path, s: &Shaping) -> Result<Replay, UsageError> {
    let [what, redirect_name] = s.names;
    let mut r = super::read(log, what)?;
    r.no_stall = s.no_stall;
    r.time_scale = s.time_scale;
    r.scale = s.scale;
    r.align = s.align;
    r.redirect = s.redirect.map(str::to_string);
    r.redirect_name = redirect_name.to_string();
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

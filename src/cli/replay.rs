//! `iolens replay`: a captured trace's I/Os issued again on targets, with its timing kept,
//! scaled or dropped (fio's read_iolog and replay_* options).

use crate::error::{usage, UsageError};
use crate::session::{Item, Passes};
use crate::workload::replay::Replay;
use crate::workload::{parse, BlockShare, FileService, ServiceKind, Spec};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// fio's iolog (version 2 or 3) or an iolens --trace CSV
    #[arg(value_name = "TRACE")]
    pub log: PathBuf,
    /// Targets for the trace's files, in their order of first appearance [default: the
    /// trace's own file names, which must exist]
    #[arg(value_name = "TARGET")]
    pub targets: Vec<String>,
    /// Issue the I/Os as fast as the targets allow, in order and at the depth (fio's replay_no_stall)
    #[arg(long)]
    pub no_stall: bool,
    /// The trace's rate in percent: 200 issues twice as fast, 50 half as fast (fio's replay_time_scale)
    #[arg(long, default_value = "100", value_name = "PCT")]
    pub time_scale: String,
    /// Every file of the trace goes to this one target (fio's replay_redirect)
    #[arg(long, value_name = "TARGET")]
    pub redirect: Option<String>,
    /// Round offsets down to a multiple of this power of two (fio's replay_align)
    #[arg(long, value_name = "SIZE")]
    pub align: Option<String>,
    /// Divide offsets by N, to fit a trace into a smaller target (fio's replay_scale)
    #[arg(long, default_value = "1", value_name = "N")]
    pub scale: String,
    /// I/Os kept in flight (fio's iodepth)
    #[arg(long, short = 'o', alias = "qd", default_value = "1", value_name = "N")]
    pub iodepth: String,
    /// io_uring (Linux), iocp (Windows), psync or null
    #[arg(long, default_value = crate::workload::EngineKind::NATIVE.name(), value_name = "ENGINE")]
    pub engine: String,
    /// Go through the page cache instead of O_DIRECT
    #[arg(long)]
    pub buffered: bool,
    /// Write every issued I/O (worker, file, op, offset, length) to FILE as CSV
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    #[command(flatten)]
    pub common: super::common::CommonArgs,
}

/// How a replay is shaped, whichever front end asked for it.
pub struct Shaping<'a> {
    pub no_stall: bool,
    pub time_scale: &'a str,
    pub redirect: Option<&'a str>,
    pub align: Option<&'a str>,
    pub scale: &'a str,
    /// The option names the front end uses, in the order above, for errors.
    pub names: [&'a str; 4],
}

/// Reads the trace and shapes it; pure apart from reading the trace.
pub fn load(log: &std::path::Path, s: &Shaping) -> Result<Replay, UsageError> {
    let [ts, _, al, sc] = s.names;
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
    let mut r = Replay::load(log, "TRACE")?;
    r.no_stall = s.no_stall;
    r.time_scale = time_scale;
    r.scale = scale;
    r.align = align;
    r.redirect = s.redirect.map(str::to_string);
    r.shape();
    Ok(r)
}

/// The spec replaying `r` on `targets` (none: the trace's own files, or the redirect).
pub fn spec_of(r: Replay, targets: &[String], depth: u32) -> Result<Spec, UsageError> {
    let targets = match (&r.redirect, targets.len()) {
        (Some(t), 0) => vec![t.clone()],
        (Some(_), _) => return usage("--redirect", "puts every file of the trace on one target; give no other TARGET"),
        (None, 0) => {
            if let Some(f) = r.files.iter().find(|f| !std::path::Path::new(f).exists()) {
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
    Ok(Spec {
        targets,
        blocks: vec![BlockShare { size: (r.max_len() as u64).max(512), pct: 100 }],
        read_pct: r.read_pct(),
        qd: depth,
        size: extent.div_ceil(4096).max(1) * 4096,
        // The trace ends the run; this only bounds a target that cannot keep up at all.
        duration: (r.span_ns() as f64 / 1e9) + 86_400.0,
        file_service: (n > 1).then_some(FileService { files: n, how: ServiceKind::RoundRobin, every: 1, ends: false }),
        replay: Some(r),
        ..Spec::default()
    })
}

pub fn main(a: ReplayArgs) -> anyhow::Result<i32> {
    let shaping = Shaping {
        no_stall: a.no_stall,
        time_scale: &a.time_scale,
        redirect: a.redirect.as_deref(),
        align: a.align.as_deref(),
        scale: &a.scale,
        names: ["--time-scale", "--redirect", "--align", "--scale"],
    };
    let r = load(&a.log, &shaping)?;
    let depth: u32 = a
        .iodepth
        .trim()
        .parse()
        .ok()
        .filter(|d| (1..=4096).contains(d))
        .map_or_else(|| usage("--iodepth", format!("'{}' is not a depth; use 1-4096", a.iodepth)), Ok)?;
    let mut spec = spec_of(r, &a.targets, depth)?;
    spec.engine = parse::engine(&a.engine)?;
    spec.direct = !a.buffered;
    a.common.apply(&mut spec);
    check_direct(&spec)?;
    spec.validate()?;
    let output = a.common.output(a.trace.as_deref())?;
    let name = format!("replay {}", a.log.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()));
    let item = Item { name, spec, notes: Vec::new() };
    crate::session::execute("replay", &[item], false, &output, &Passes::ONCE)
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

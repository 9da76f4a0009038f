//! `iolens replay`: a captured trace's I/Os issued again on targets, with its timing kept,
//! scaled or dropped (fio's read_iolog and replay_* options).

use super::run::word;
use crate::error::{usage, UsageError};
use crate::frontends::replay::{align, apply, check_direct, load, scale, time_scale, Shaping};
use crate::result::Kind;
use crate::session::Item;
use crate::workload::{parse, EngineKind, Spec};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// fio's iolog (version 2 or 3), a blktrace capture (a per-CPU file, several joined by ':',
    /// or their common prefix, as DEV.blktrace) or an iolens trace (--trace, iolens capture)
    #[arg(value_name = "TRACE")]
    pub log: PathBuf,
    /// Targets for the trace's files, in their order of first appearance [default: the
    /// trace's own file names, which must exist; a blktrace capture's devices: the block
    /// devices with their numbers under /dev]
    #[arg(value_name = "TARGET")]
    pub targets: Vec<String>,
    /// Issue the I/Os as fast as the targets allow, in order and at the depth (fio's replay_no_stall)
    #[arg(long)]
    pub no_stall: bool,
    /// The trace's rate in percent: 200 issues twice as fast, 50 half as fast (fio's replay_time_scale)
    #[arg(long, default_value = "100", value_name = "PCT", value_parser = |s: &str| time_scale("--time-scale", s))]
    pub time_scale: u32,
    /// Every file of the trace goes to this one target (fio's replay_redirect)
    #[arg(long, value_name = "TARGET")]
    pub redirect: Option<String>,
    /// Round offsets down to a multiple of this power of two (fio's replay_align)
    #[arg(long, value_name = "SIZE", value_parser = |s: &str| align("--align", s))]
    pub align: Option<u64>,
    /// Divide offsets by N, to fit a trace into a smaller target (fio's replay_scale)
    #[arg(long, default_value = "1", value_name = "N", value_parser = |s: &str| scale("--scale", s))]
    pub scale: u64,
    /// I/Os kept in flight (fio's iodepth)
    #[arg(long, short = 'o', alias = "qd", default_value = "1", value_name = "N", value_parser = depth)]
    pub iodepth: u32,
    /// io_uring (Linux), iocp (Windows), psync or null
    #[arg(long, default_value = EngineKind::NATIVE.name(), value_name = "ENGINE", value_parser = word(parse::engine))]
    pub engine: EngineKind,
    /// Go through the page cache instead of O_DIRECT
    #[arg(long)]
    pub buffered: bool,
    /// Write every issued I/O (worker, file, op, offset, length) to FILE as CSV
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    #[command(flatten)]
    pub common: super::common::CommonArgs,
}

pub fn main(a: ReplayArgs) -> anyhow::Result<i32> {
    let shaping = Shaping {
        no_stall: a.no_stall,
        time_scale: a.time_scale,
        redirect: a.redirect.as_deref(),
        align: a.align.unwrap_or(0),
        scale: a.scale,
        names: ["TRACE", "--redirect"],
    };
    let r = load(&a.log, &shaping)?;
    let mut spec = Spec { qd: a.iodepth, ..Spec::default() };
    apply(&mut spec, r, &a.targets)?;
    spec.engine = a.engine;
    spec.direct = !a.buffered;
    a.common.apply(&mut spec);
    check_direct(&spec)?;
    spec.validate()?;
    let output = a.common.output(a.trace.as_deref())?;
    let name = format!("replay {}", a.log.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()));
    let item = Item { name, spec, notes: Vec::new() };
    crate::session::execute(&crate::session::Request::once(Kind::Replay, &[item], &output))
}

fn depth(s: &str) -> Result<u32, UsageError> {
    s.trim()
        .parse()
        .ok()
        .filter(|d| (1..=4096).contains(d))
        .map_or_else(|| usage("--iodepth", format!("'{s}' is not a depth; use 1-4096")), Ok)
}

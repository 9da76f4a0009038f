//! A captured trace as the runner replays it (`iolens replay`, fio's `read_iolog`): its I/Os in
//! order, each with the time the trace issued it, and how the replay treats them (timing kept,
//! scaled or dropped; offsets aligned and scaled; every file redirected to one target). The
//! I/Os sit in one compact array before the run, so the worker replaying them walks it without
//! allocating. The formats a trace comes in are read by `frontends::replay`.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The format name a blktrace capture's replay carries: its files are devices ("dev 8,0").
pub const BLKTRACE: &str = "blktrace";

/// What a trace's I/O does (the runner's operations, named here so that workloads stay apart
/// from the engines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceOp {
    Read,
    Write,
    /// fio's sync and datasync, iolens's fsync.
    Flush,
    Trim,
}

/// One I/O of a trace: when the trace issued it (ns after its first I/O), its file (index
/// into `Replay::files`), what and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceIo {
    pub at_ns: u64,
    pub offset: u64,
    pub len: u32,
    pub file: u32,
    pub op: TraceOp,
}

/// How a trace is replayed, and the trace itself (which the stored result leaves out).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// The trace file as given.
    pub trace: String,
    /// "fio iolog v2", "fio iolog v3" or "iolens trace".
    pub format: String,
    /// The trace's own file names, in order of first appearance; the targets follow them.
    pub files: Vec<String>,
    /// As fast as the target allows, in order and at the depth (fio's replay_no_stall).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_stall: bool,
    /// The trace's rate in percent (fio's replay_time_scale): 200 issues twice as fast.
    pub time_scale: u32,
    /// Offsets are divided by this (fio's replay_scale); 1 leaves them.
    pub scale: u64,
    /// Offsets are rounded down to a multiple of this power of two (fio's replay_align); 0
    /// leaves them.
    pub align: u64,
    /// Every file of the trace goes to this one target (fio's replay_redirect).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect: Option<String>,
    #[serde(skip)]
    pub ios: Arc<Vec<TraceIo>>,
    /// The capture's own latencies (blktrace's issue → complete, `iolens capture`'s), ns.
    #[serde(skip)]
    pub capture_ns: Arc<Vec<u64>>,
    /// What the front end calls the redirect ("--redirect", fio's "replay_redirect"), for errors.
    #[serde(skip)]
    pub redirect_name: String,
}

impl Replay {
    /// The scale, alignment and redirection, once: what the worker replays is final.
    pub fn shape(&mut self) {
        let (scale, mask) = (self.scale.max(1), self.align.saturating_sub(1));
        let pct = self.time_scale.max(1) as u128;
        let redirect = self.redirect.is_some();
        for io in Arc::make_mut(&mut self.ios) {
            io.offset = (io.offset / scale) & !mask;
            io.at_ns = (io.at_ns as u128 * 100 / pct) as u64;
            if redirect {
                io.file = 0;
            }
        }
    }

    /// The targets the trace needs: one per file, or one when redirected.
    pub fn target_count(&self) -> usize {
        if self.redirect.is_some() {
            1
        } else {
            self.files.len()
        }
    }

    /// The device number a blktrace capture's file `name` stands for; None for any other trace
    /// or name.
    pub fn device(&self, name: &str) -> Option<(u32, u32)> {
        device_of(name).filter(|_| self.format == BLKTRACE && self.files.iter().any(|f| f == name))
    }

    /// How to give the trace's files targets, in the words of the front end that asked.
    pub fn name_a_target(&self) -> String {
        match self.redirect_name.as_str() {
            "--redirect" => "give a TARGET or --redirect".into(),
            other => format!("set {other}"),
        }
    }

    /// When the trace issues its last I/O, ns after its first (after time scaling).
    pub fn span_ns(&self) -> u64 {
        self.ios.last().map_or(0, |io| io.at_ns)
    }

    /// The largest byte a target `file` is asked for (its needed size).
    pub fn extent(&self, file: u32) -> u64 {
        self.ios.iter().filter(|io| io.file == file).map(|io| io.offset + io.len as u64).max().unwrap_or(0)
    }

    /// The longest I/O that moves data: the buffers' size. A trim moves none, however large
    /// (fio's t0038: 2 GiB trims beside 4 KiB writes), unless verification claims its pages
    /// (`trims`).
    pub fn max_len(&self, trims: bool) -> u32 {
        let data = |io: &&TraceIo| io.op != TraceOp::Flush && (trims || io.op != TraceOp::Trim);
        self.ios.iter().filter(data).map(|io| io.len).max().unwrap_or(0)
    }

    /// The trace's read percentage of its reads and writes: 100 without writes, 0 without reads.
    pub fn read_pct(&self) -> u32 {
        let reads = self.ios.iter().filter(|io| io.op == TraceOp::Read).count();
        let writes = self.ios.iter().filter(|io| matches!(io.op, TraceOp::Write | TraceOp::Trim)).count();
        match (reads, writes) {
            (_, 0) => 100,
            (0, _) => 0,
            _ => 50,
        }
    }
}

/// (major, minor) of a device a blktrace capture names "dev MAJOR,MINOR".
pub fn device_of(name: &str) -> Option<(u32, u32)> {
    let (major, minor) = name.strip_prefix("dev ")?.split_once(',')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

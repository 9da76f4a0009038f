//! Engines issue I/O and report completions. The trait speaks only in slots, file indexes,
//! offsets and lengths — no file descriptors or OS types — so that a Windows overlapped-I/O
//! engine can implement it as well. One engine instance belongs to one worker thread.

mod buffers;
#[cfg(windows)]
pub mod bypass;
pub mod inject;
#[cfg(target_os = "linux")]
pub mod io_uring;
#[cfg(windows)]
pub mod iocp;
#[cfg(windows)]
pub mod ioring;
pub mod meta;
pub mod null;
pub mod psync;
pub mod trace;
pub mod vectored;

pub use buffers::{AlignedBuf, BufPool};

use crate::workload::EngineKind;

use std::fs::File;
use std::io;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    Read,
    Write,
    /// Flush the file's data to stable storage (fsync).
    Flush,
    /// Free the range (fio's trim): a file's blocks are deallocated, a device's range is
    /// zeroed by unmapping it (fallocate PUNCH_HOLE | KEEP_SIZE). Succeeds with result 0.
    Trim,
}

/// One I/O to issue. `slot` names the buffer and comes back in the completion.
#[derive(Debug, Clone, Copy)]
pub struct IoReq {
    pub slot: u32,
    pub file: u32,
    pub op: OpKind,
    pub offset: u64,
    pub len: u32,
    /// Linux I/O priority (class << 13 | level) for engines that pass one per I/O; 0 is the
    /// thread's own.
    pub ioprio: u16,
}

/// A finished I/O: bytes transferred, or a negative OS error number.
#[derive(Debug, Clone, Copy, Default)]
pub struct Completion {
    pub slot: u32,
    pub result: i64,
}

pub trait Engine {
    /// The I/Os a worker of this engine keeps in flight for a requested queue depth, and why
    /// when that differs (an engine that blocks in each call cannot queue).
    fn depth_for(requested: u32) -> (u32, Option<String>)
    where
        Self: Sized,
    {
        (requested, None)
    }
    /// Most I/Os this engine keeps in flight; the runner never queues more.
    fn max_depth(&self) -> u32;
    /// The data buffer of a slot (aligned for O_DIRECT, `buf_size` bytes).
    fn buffer(&mut self, slot: u32) -> &mut [u8];
    /// Queues one I/O; it is issued by the next `submit_and_reap`.
    fn queue(&mut self, req: IoReq);
    /// Issues what is queued, then waits until at least `min` completions are ready or `timeout`
    /// passes, and moves ready completions into `out`. Returns how many it moved.
    fn submit_and_reap(&mut self, out: &mut [Completion], min: usize, timeout: Option<Duration>) -> io::Result<usize>;
    /// Whether each I/O is carried out inside the submitting call (psync, null): there is no
    /// submission latency apart from the completion's, so fio's slat is not kept.
    fn synchronous(&self) -> bool {
        false
    }
    /// How this engine runs differently from its best setup (e.g. buffers it could not register).
    fn notice(&self) -> Option<String> {
        None
    }
    /// Submission calls since the last ask, for engines that count them (IoRing's SubmitIoRing,
    /// DiskSpd's SubmitCount); 0 for the others.
    #[inline]
    fn take_submits(&mut self) -> u64 {
        0
    }
    /// Faults injected so far (the self-test wrapper `inject::Injecting`); None for real engines.
    fn injected(&self) -> Option<crate::result::verify::Injected> {
        None
    }
}

/// One synchronous positional read outside any engine: verification's re-reads of a bad page.
pub fn read_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    psync::at(f, buf, offset, false)
}

/// What an engine needs to start.
pub struct EngineSetup<'a> {
    pub files: &'a [File],
    /// The files' paths, for the engines that work on names (`meta`).
    pub paths: &'a [std::path::PathBuf],
    pub depth: u32,
    pub buf_size: usize,
    /// Each worker's buffers start on a boundary of this many bytes, apart from every other
    /// worker's (DiskSpd's buffer separation); 0: wherever the allocator puts them.
    pub apart: usize,
    /// Reads and writes both happen: give reads buffers of their own so they never overwrite
    /// the data pattern of later writes.
    pub mixed: bool,
    /// How the files are open (unbuffered, write-through, for writing, the access hint): an
    /// engine that opens its own handles on them (iocp's overlapped ones) opens them alike.
    pub direct: bool,
    pub write_through: bool,
    pub writes: bool,
    pub hint: crate::workload::AccessHint,
    /// Windows's BypassIO on each handle the engine opens (iocp, ioring).
    pub bypass: Option<crate::workload::Bypass>,
    /// The ring engines register their buffers with the kernel (off: DiskSpd's `-un`).
    pub register: bool,
}

/// The engine that will really run for `kind` (each platform's queueing engine stands in for
/// the other's; io_uring falls back to psync where the kernel refuses it), its depth per
/// worker for `qd`, and notices about both.
pub fn choose(kind: EngineKind, qd: u32) -> (EngineKind, u32, Vec<String>) {
    let mut notices = Vec::new();
    let mut kind = kind;
    let foreign = match kind {
        EngineKind::IoUring => cfg!(windows),
        EngineKind::Iocp | EngineKind::IoRing => !cfg!(windows),
        _ => false,
    };
    if foreign {
        let here = if cfg!(windows) { "Windows" } else { "Linux" };
        notices.push(format!("{} does not exist on {here}; using {}", kind.name(), EngineKind::NATIVE.name()));
        kind = EngineKind::NATIVE;
    }
    if kind == EngineKind::IoRing {
        if let Some(why) = ioring_unavailable() {
            notices.push(format!("IoRing is unavailable ({why}); using I/O Completion Ports (iocp)"));
            kind = EngineKind::Iocp;
        }
    }
    if kind == EngineKind::IoUring {
        if let Some(why) = io_uring_unavailable() {
            notices.push(format!("io_uring is unavailable ({why}); using psync"));
            kind = EngineKind::Psync;
        }
    }
    let (depth, why) = match kind {
        #[cfg(target_os = "linux")]
        EngineKind::IoUring => io_uring::UringEngine::depth_for(qd),
        #[cfg(not(target_os = "linux"))]
        EngineKind::IoUring => (qd, None),
        EngineKind::Iocp | EngineKind::IoRing => (qd, None),
        EngineKind::Psync => psync::PsyncEngine::depth_for(qd),
        EngineKind::Null => null::NullEngine::depth_for(qd),
        EngineKind::Meta(_) => meta::MetaEngine::depth_for(qd),
    };
    notices.extend(why);
    (kind, depth, notices)
}

/// Why an io_uring could not be set up here (None if it can), so the runner can fall back to
/// psync with a one-line notice.
pub fn io_uring_unavailable() -> Option<String> {
    #[cfg(target_os = "linux")]
    {
        io_uring::probe().err().map(|e| e.to_string())
    }
    #[cfg(not(target_os = "linux"))]
    {
        Some("io_uring exists only on Linux".into())
    }
}

/// Why Windows's IoRing cannot run here (None if it can).
pub fn ioring_unavailable() -> Option<String> {
    #[cfg(windows)]
    {
        ioring::api::get().err()
    }
    #[cfg(not(windows))]
    {
        Some("IoRing exists only on Windows".into())
    }
}

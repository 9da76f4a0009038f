//! How targets are accessed: the engine that drives the I/O, the cache bypass's platform
//! name, and the access-pattern hint to the OS cache.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineKind {
    /// Linux's io_uring; on Windows iocp runs instead.
    IoUring,
    /// Windows overlapped I/O on a completion port; on Linux io_uring runs instead.
    Iocp,
    /// Windows 11's submission ring (DiskSpd 2.3's `-u`); iocp runs where Windows has none,
    /// io_uring on Linux.
    IoRing,
    /// One positional read or write at a time: pread/pwrite, or ReadFile/WriteFile (`sync`).
    Psync,
    Null,
    /// One file or directory operation per I/O, timed, and no data moved (fio's filecreate,
    /// filestat, … engines).
    Meta(MetaOp),
}

/// A metadata operation on each of the job's files, once per pass (fio's file and directory
/// engines): creating, looking up or deleting a file or a directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MetaOp {
    FileCreate,
    FileStat,
    FileDelete,
    DirCreate,
    DirStat,
    DirDelete,
}

impl MetaOp {
    pub const ALL: [MetaOp; 6] = [
        MetaOp::FileCreate,
        MetaOp::FileStat,
        MetaOp::FileDelete,
        MetaOp::DirCreate,
        MetaOp::DirStat,
        MetaOp::DirDelete,
    ];

    /// fio's engine name.
    pub const fn name(self) -> &'static str {
        match self {
            MetaOp::FileCreate => "filecreate",
            MetaOp::FileStat => "filestat",
            MetaOp::FileDelete => "filedelete",
            MetaOp::DirCreate => "dircreate",
            MetaOp::DirStat => "dirstat",
            MetaOp::DirDelete => "dirdelete",
        }
    }

    /// Whether what it works on must exist before the run (made then, as fio lays it out).
    pub const fn needs_existing(self) -> bool {
        matches!(self, MetaOp::FileStat | MetaOp::FileDelete | MetaOp::DirStat | MetaOp::DirDelete)
    }

    pub const fn on_dirs(self) -> bool {
        matches!(self, MetaOp::DirCreate | MetaOp::DirStat | MetaOp::DirDelete)
    }
}

impl EngineKind {
    /// The queueing engine of this platform, which runs when none is named.
    pub const NATIVE: EngineKind = if cfg!(windows) { EngineKind::Iocp } else { EngineKind::IoUring };

    pub const fn name(self) -> &'static str {
        match self {
            EngineKind::IoUring => "io_uring",
            EngineKind::Iocp => "iocp",
            EngineKind::IoRing => "ioring",
            // DiskSpd's and SQLIO's synchronous mode: ReadFile/WriteFile without overlap.
            EngineKind::Psync if cfg!(windows) => "sync",
            EngineKind::Psync => "psync",
            EngineKind::Null => "null",
            EngineKind::Meta(op) => op.name(),
        }
    }
}

/// DiskSpd 2.3's BypassIO (`-Sy`, `-SY`): reads skip the file system's filters (partial) and
/// the storage stack too (full). Only Windows has it; with `Full` a stack that can only be
/// partly bypassed fails the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bypass {
    Partial,
    Full,
}

/// How this platform names opening a file with its cache bypassed (`--direct`).
pub const UNBUFFERED: &str = if cfg!(windows) { "FILE_FLAG_NO_BUFFERING" } else { "O_DIRECT" };

/// An access-pattern hint to the OS cache: FILE_FLAG_RANDOM_ACCESS or FILE_FLAG_SEQUENTIAL_SCAN
/// on Windows (DiskSpd's -fr, -fs), posix_fadvise's RANDOM or SEQUENTIAL on Linux.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessHint {
    #[default]
    None,
    Random,
    Sequential,
}

impl AccessHint {
    pub fn is_none(&self) -> bool {
        *self == AccessHint::None
    }
}

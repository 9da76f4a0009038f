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
    /// One positional read or write at a time: pread/pwrite, or ReadFile/WriteFile (`sync`).
    Psync,
    Null,
}

impl EngineKind {
    /// The queueing engine of this platform, which runs when none is named.
    pub const NATIVE: EngineKind = if cfg!(windows) { EngineKind::Iocp } else { EngineKind::IoUring };

    pub const fn name(self) -> &'static str {
        match self {
            EngineKind::IoUring => "io_uring",
            EngineKind::Iocp => "iocp",
            // DiskSpd's and SQLIO's synchronous mode: ReadFile/WriteFile without overlap.
            EngineKind::Psync if cfg!(windows) => "sync",
            EngineKind::Psync => "psync",
            EngineKind::Null => "null",
        }
    }
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

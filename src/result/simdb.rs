//! What `iolens simdb` adds to a result: SQLIOSim's per-file summary (target and running
//! average I/O duration, times throttled, reads, scatter reads, writes, gather writes, total
//! I/O time) and the figures of its crash check. Stored schema; the simulator (`src/simdb/`)
//! fills it.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Simdb {
    /// Bytes per page (the unit of claims, writes and findings).
    pub page: u32,
    /// Bytes per stamped unit (512, or the device's logical block size).
    pub unit: u32,
    /// Simulated users by kind, as they ran: ("random access", 4), ("lazy writer", 1), …
    pub users: Vec<(String, u32)>,
    /// O_DSYNC on data files: every acknowledged write is durable, and the journal follows
    /// acknowledgements instead of flushes.
    pub write_through: bool,
    /// Through the page cache instead of O_DIRECT.
    pub buffered: bool,
    /// Where the generation journal is kept.
    pub journal: String,
    /// Only the files left by an earlier (killed) run were checked; nothing was written.
    #[serde(default)]
    pub verify_only: bool,
    /// One row per data file, then the log file.
    pub files: Vec<SimdbFile>,
    /// An I/O slower than this is a stall, ms (`--stall-ms`; `STALL_MS` unless told).
    #[serde(default = "default_stall_ms")]
    pub stall_ms: f64,
    /// I/Os that took longer than `stall_ms`, the first `MAX_STALLS` of them.
    #[serde(default)]
    pub stalls: Vec<Stall>,
    /// I/Os that failed (an error from the system, or a short transfer inside the file).
    #[serde(default)]
    pub errors: Vec<String>,
    /// Log records written and acknowledged, and checked by reading the log back.
    #[serde(default)]
    pub log_records: u64,
    #[serde(default)]
    pub log_records_checked: u64,
}

/// An I/O slower than this is a stall (SQLIOSim's "IO request … has been outstanding").
pub const STALL_MS: f64 = 15_000.0;

fn default_stall_ms() -> f64 {
    STALL_MS
}
pub const MAX_STALLS: usize = 100;

/// SQLIOSim's summary of one file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SimdbFile {
    pub path: String,
    /// "data" or "log".
    pub kind: String,
    /// Bytes, at the end (data files grow and shrink during the run); with `verify_only`, the
    /// size the journal gives the file.
    pub size: u64,
    /// The I/O duration users aim for (`--target-io-ms`), ms.
    pub target_io_ms: f64,
    /// The running average I/O duration at the end, ms: a moving average over recent I/Os,
    /// the figure users throttle on.
    pub running_avg_io_ms: f64,
    /// The highest the running average reached, ms.
    pub max_running_avg_io_ms: f64,
    /// Times a user cut its outstanding I/O because the running average passed the target.
    pub throttled: u64,
    /// Single-buffer reads (pread).
    pub reads: u64,
    /// Reads into several page buffers at once (preadv).
    pub scatter_reads: u64,
    /// Single-buffer writes (pwrite), the initial stamping of the file included.
    pub writes: u64,
    /// Writes from several page buffers at once (pwritev).
    pub gather_writes: u64,
    /// fsync/fdatasync calls.
    pub flushes: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Sum of the durations of all I/Os and flushes on the file, ms.
    pub total_io_ms: f64,
    /// Times the file was grown or shrunk.
    #[serde(default)]
    pub resizes: u64,
}

impl SimdbFile {
    /// Mean duration of the file's I/Os and flushes, ms.
    pub fn mean_io_ms(&self) -> Option<f64> {
        let n = self.reads + self.scatter_reads + self.writes + self.gather_writes + self.flushes;
        (n > 0).then(|| self.total_io_ms / n as f64)
    }
}

/// One stalled I/O.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stall {
    pub file: String,
    pub offset: u64,
    /// "read", "scatter read", "write", "gather write" or "flush".
    pub op: String,
    pub ms: f64,
    /// Seconds since the run started.
    pub at_s: f64,
}

//! The I/O a database did between two snapshots of its counters, per file or object: the
//! workload `plan --from-stats` sizes for and `pattern --from-stats` replays. The counters are
//! read in `frontends::counters`.

use serde::Serialize;

/// What a database file or object is used for, which sets how its I/O is replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Pages read and written where they lie: random.
    Data,
    /// tempdb's data files: random, as data.
    Tempdb,
    /// Transaction log or WAL: written in order.
    Log,
    /// Bulk reads and writes through a ring buffer (PostgreSQL's bulkread, bulkwrite, vacuum
    /// contexts): in order.
    Bulk,
}

impl Role {
    pub fn sequential(self) -> bool {
        matches!(self, Role::Log | Role::Bulk)
    }

    pub fn name(self) -> &'static str {
        match self {
            Role::Data => "data",
            Role::Tempdb => "tempdb",
            Role::Log => "log",
            Role::Bulk => "bulk",
        }
    }
}

/// The workload one file or object carried between two snapshots.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observed {
    pub name: String,
    pub role: Role,
    pub seconds: f64,
    pub reads: f64,
    pub read_bytes: f64,
    /// Total ms waited for the reads; None when the database did not track it.
    pub read_wait_ms: Option<f64>,
    pub writes: f64,
    pub write_bytes: f64,
    pub write_wait_ms: Option<f64>,
}

impl Observed {
    pub fn reads_per_s(&self) -> f64 {
        self.reads / self.seconds
    }

    pub fn writes_per_s(&self) -> f64 {
        self.writes / self.seconds
    }

    /// Bytes per read, 0 without reads.
    pub fn read_size(&self) -> f64 {
        if self.reads > 0.0 {
            self.read_bytes / self.reads
        } else {
            0.0
        }
    }

    pub fn write_size(&self) -> f64 {
        if self.writes > 0.0 {
            self.write_bytes / self.writes
        } else {
            0.0
        }
    }

    /// 10^6 B/s, reads and writes together.
    pub fn mbps(&self) -> f64 {
        (self.read_bytes + self.write_bytes) / self.seconds / 1e6
    }

    /// Mean ms the database waited per read; None when not tracked or no reads.
    pub fn read_latency_ms(&self) -> Option<f64> {
        self.read_wait_ms.filter(|_| self.reads > 0.0).map(|w| w / self.reads)
    }

    pub fn write_latency_ms(&self) -> Option<f64> {
        self.write_wait_ms.filter(|_| self.writes > 0.0).map(|w| w / self.writes)
    }
}

//! `RunResult`: the one data structure every output reads (text, JSON, and later the store,
//! comparisons and charts). Field docs are the schema's documentation; docs/result-schema.md
//! describes the same for readers of the JSON.

pub use seconds::SecondLat;

pub mod analysis;
pub mod build;
pub mod figures;
pub mod host;
pub mod kind;
pub mod ranks;
pub mod replay;
mod seconds;
pub mod shifts;
pub mod simdb;
pub mod verify;
pub mod waits;

use crate::stats::cpu::CpuStats;
use crate::stats::{HistDump, LatRec, LatStats};
use crate::workload::Spec;
use serde::{Deserialize, Serialize};

pub use host::{CpuPlace, Host, TargetInfo, TargetKind};
pub use kind::Kind;

/// Bumped whenever a field changes meaning or disappears (adding fields does not bump it).
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub schema_version: u32,
    pub iolens_version: String,
    /// The binary that measured it (absent from results before builds were recorded, and from
    /// imported ones, which another program measured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<build::Build>,
    /// The front end that produced the tests ("run", later "cdm", "diskspd", …).
    pub command: String,
    /// The command line as typed, after the program name.
    pub args: Vec<String>,
    /// UTC, RFC 3339.
    pub started_at: String,
    pub host: Host,
    pub tests: Vec<TestResult>,
    /// True when any test was cut short (Ctrl-C): the figures cover what was measured.
    pub interrupted: bool,
    /// The user's name for this result (`--label "Azure-2 4xP30 RAID0"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The user's `--tag key=value` pairs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<(String, String)>,
    /// Where a result iolens did not measure came from: "fio-3.33 JSON (vm2.json)".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// What `explain` and `check` found in the tests: the walls, catalog matches and advice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<analysis::Explanation>,
    /// `simdb`'s per-file summary and crash check; absent for other commands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simdb: Option<simdb::Simdb>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    /// As users write it: "4K randread Q32T1".
    pub name: String,
    pub spec: Spec,
    /// The engine that actually ran (after any fallback).
    pub engine: String,
    /// Outstanding I/Os per thread as run: `spec.qd`, or 1 for psync.
    pub depth: u32,
    /// Things the user should know about how the spec was carried out (fallbacks, caps).
    pub notices: Vec<String>,
    /// The front end's options for this test as the user wrote them (fio's job options).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<(String, String)>,
    /// Tests with the same group ran at the same time (fio's groups); 0 otherwise.
    #[serde(default)]
    pub group: u32,
    pub started_at: String,
    /// Measured seconds (warm-up and cool-down excluded).
    pub duration_s: f64,
    pub interrupted: bool,
    /// Service latency (submission → completion) and throughput of reads.
    pub read: OpStats,
    pub write: OpStats,
    /// Trims (fio's rw=trim, randtrim); absent from tests that do not trim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trim: Option<OpStats>,
    pub total: OpStats,
    /// Response latency (intended start → completion). Equals service latency unless a rate
    /// limit paced the I/Os; under one it includes the time an I/O waited behind slow ones.
    pub response: ResponseLat,
    pub fsync: FsyncStats,
    /// Per worker thread, as DiskSpd prints them.
    pub threads: Vec<ThreadStats>,
    /// One entry per measured second, idle ones included; a final partial second is scaled to
    /// a full one (its I/Os ÷ its length).
    pub seconds: Vec<SecondStats>,
    /// Where a per-second figure moved to a new level and held it; absent when none did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shifts: Vec<shifts::Shift>,
    /// Where `--stop-on-drop` ended the test; absent when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropped: Option<shifts::Dropped>,
    pub cpu: CpuStats,
    /// What each block device under the targets saw in the measured window.
    pub disks: Vec<crate::stats::disk::DiskStats>,
    /// Mean number of I/Os in flight over the measured time, all workers together.
    pub mean_qd: f64,
    /// Service-latency histograms, exact to merge across threads, runs and hosts.
    pub histograms: Histograms,
    /// What data verification found (`run --verify`, fio's `verify=`, `simdb`); absent when
    /// the data was not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify: Option<verify::Verification>,
    /// Failed I/Os the test counted and went on after (fio's continue_on_error); absent when
    /// there were none.
    #[serde(default, skip_serializing_if = "IoErrors::is_empty")]
    pub errors: IoErrors,
    /// Why the test failed although it ran to its end (a worker below fio's rate_min in one of
    /// its rate cycles); absent when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// How the test's steady-state check ended (fio's `ss`); absent when it had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steady: Option<SteadyOutcome>,
    /// A multi-host run (`--mpi`): one row per rank, in rank order; this test is their
    /// combination (sums, and the exact merge of their histograms). Absent otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<ranks::RankStats>,
    /// fio's submission and total latencies, and latencies per I/O priority, for the jobs
    /// that ask for them (`Spec::stages`, `Spec::cmdprio`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stages: Option<Stages>,
    /// A replayed trace (`iolens replay`, fio's read_iolog): the lag behind its clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<replay::ReplayOutcome>,
}

/// fio's latency stages, per fio direction (read, write, trim): slat (queued → submitted;
/// absent on an engine that does each I/O in the submitting call) and lat (queued, or due when
/// paced → completed). clat is the service latency of `TestResult::histograms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stages {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slat: Option<[HistDump; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lat: Option<[HistDump; 3]>,
    /// Per direction and I/O priority that saw I/O (fio's cmdprio): lat where the job reports
    /// lat percentiles, else clat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prios: Vec<PrioLat>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrioLat {
    /// fio's direction: 0 read, 1 write, 2 trim.
    pub ddir: u8,
    /// Linux I/O priority: class << 13 | level.
    pub ioprio: u16,
    pub lat: HistDump,
}

/// Where a steady-state check (`Spec::steady`) stood when the test ended.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SteadyOutcome {
    /// The limit was met and the test ended there.
    pub attained: bool,
    /// The last value judged against the limit (a slope or a deviation, in % where the limit
    /// is); 0 until the window first filled.
    pub criterion: f64,
    /// The largest deviation from the window's mean, and the fitted slope (per second), of the
    /// last window judged.
    pub max_deviation: f64,
    pub slope: f64,
    /// The judged window, oldest second first: IOPS and bandwidth (B/s), whole numbers as
    /// measured; zeros where it had not filled.
    pub iops: Vec<u64>,
    pub bw: Vec<u64>,
    /// Why the test ended; absent in results stored before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<Stop>,
}

/// Why a test with a steady-state check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// The check was met.
    Steady,
    /// Its full duration, the check unmet.
    Cap,
    /// Ctrl-C.
    Interrupted,
    /// Its workers ran out of I/Os to issue (fio's number_ios or io_size, an I/O budget).
    IoCount,
}

impl TestResult {
    /// I/Os the test asked to keep in flight, all workers together: what `mean_qd` is held to.
    pub fn asked_qd(&self) -> u64 {
        self.depth as u64 * self.threads.len().max(1) as u64
    }
}

impl Stop {
    pub fn name(self) -> &'static str {
        match self {
            Stop::Steady => "steady",
            Stop::Cap => "cap",
            Stop::Interrupted => "interrupted",
            Stop::IoCount => "io count",
        }
    }
}

/// Failed I/Os passed over in the measured window.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct IoErrors {
    pub read: u64,
    /// Writes and fsyncs.
    pub write: u64,
    /// The first failure, as the OS put it ("read failed: Input/output error (os error 5)").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// Its error number on the host that ran it (fio's first_error); 5 (EIO) for a short transfer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_errno: Option<i32>,
}

impl IoErrors {
    pub fn is_empty(&self) -> bool {
        self.read == 0 && self.write == 0 && self.first.is_none()
    }

    pub fn total(&self) -> u64 {
        self.read + self.write
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpStats {
    pub ios: u64,
    pub bytes: u64,
    pub iops: f64,
    /// 10^6 bytes per second.
    pub mbps: f64,
    /// 2^20 bytes per second.
    pub mibps: f64,
    pub lat_us: LatStats,
}

impl OpStats {
    pub fn new(rec: &LatRec, bytes: u64, secs: f64) -> OpStats {
        let per_s = |x: f64| if secs > 0.0 { x / secs } else { 0.0 };
        OpStats {
            ios: rec.count(),
            bytes,
            iops: per_s(rec.count() as f64),
            mbps: per_s(bytes as f64) / 1e6,
            mibps: per_s(bytes as f64) / 1048576.0,
            lat_us: rec.summary(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResponseLat {
    pub read: LatStats,
    pub write: LatStats,
    pub total: LatStats,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FsyncStats {
    pub count: u64,
    pub lat_us: LatStats,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreadStats {
    pub thread: u32,
    /// Index into `spec.targets`.
    pub target: u32,
    pub read: ThreadOp,
    pub write: ThreadOp,
    pub total: ThreadOp,
    /// Reads and writes completed in each second of the test's measured window, from its first
    /// (DiskSpd's per-thread `<Iops><Bucket>` series); empty for results without it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seconds: Vec<[u64; 2]>,
    /// Service latency of reads and writes in each of those seconds (DiskSpd's per-bucket
    /// latency attributes); empty for results without it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub second_lat: Vec<[SecondLat; 2]>,
    /// How this worker's loop met its completions (DiskSpd's `-vs`); none for results without
    /// it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waits: Option<waits::WaitStats>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreadOp {
    pub bytes: u64,
    pub ios: u64,
    /// 10^6 bytes per second.
    pub mbps: f64,
    /// 2^20 bytes per second (DiskSpd's unit).
    pub mibps: f64,
    pub iops: f64,
    pub lat_mean_us: Option<f64>,
    pub lat_stddev_us: Option<f64>,
    /// Standard deviation of this thread's per-second IOPS (DiskSpd's IopsStdDev).
    pub iops_stddev: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SecondStats {
    /// 1 for the first measured second.
    pub second: u32,
    pub read_iops: f64,
    pub write_iops: f64,
    pub iops: f64,
    /// 10^6 bytes per second.
    pub mbps: f64,
    /// 2^20 bytes per second.
    pub mibps: f64,
    pub p50_us: Option<f64>,
    pub p99_us: Option<f64>,
    /// The second's latency histogram as [ns, count] buckets, kept only where seconds are
    /// merged later (a rank's row of a multi-host run), so their percentiles merge exactly.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub latency_ns: Vec<[u64; 2]>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Histograms {
    pub read: HistDump,
    pub write: HistDump,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trim: Option<HistDump>,
    /// Paced response latency of reads and writes, and fsync latency: kept only where they are
    /// merged later (a rank's row of a multi-host run), so the combined figures merge exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_read: Option<HistDump>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_write: Option<HistDump>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fsync: Option<HistDump>,
}

impl Histograms {
    /// Service-latency histograms only.
    pub fn service(read: HistDump, write: HistDump, trim: Option<HistDump>) -> Histograms {
        Histograms { read, write, trim, response_read: None, response_write: None, fsync: None }
    }
}

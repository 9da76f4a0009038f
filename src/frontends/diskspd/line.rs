//! A DiskSpd line as its options leave it, which the option table and 2.3's switches fill.

use super::ResultsFormat;
use crate::workload::Spec;

/// A DiskSpd line as its options so far leave it.
#[derive(Default)]
pub(super) struct Line {
    pub spec: Spec,
    pub notes: Vec<String>,
    /// `-b`, read before the other options: "b" sizes count blocks of it.
    pub block: u64,
    pub latency: bool,
    pub iops_stddev: bool,
    pub create_size: Option<u64>,
    /// `-S`/`-h`: unbuffered I/O and write-through, each settable once.
    pub unbuffered: Option<bool>,
    pub write_through: Option<bool>,
    /// `-r`: random I/O at this alignment.
    pub random: Option<u64>,
    pub seq: bool,
    pub interlocked: bool,
    pub base: Option<u64>,
    /// The end of the range, with the option that gave it (`-B` with a length, or `-f`).
    pub max_end: Option<(u64, &'static str)>,
    /// `-g`: the limit per thread and target, and whether it counts IOPS (else bytes per ms).
    pub throttle: Option<(f64, bool)>,
    pub f_threads: Option<u32>,
    pub affinity: bool,
    pub no_affinity: bool,
    pub zbuf: Option<u64>,
    pub zero: bool,
    pub zr: bool,
    pub results: Option<ResultsFormat>,
    pub profile_only: bool,
    /// DiskSpd 2.3's `-u` batch (a count, or a percentage of `-o`) and `-Sy`/`-SY` (v23.rs).
    pub ioring: Option<(u32, bool)>,
    pub bypass: Option<String>,
}

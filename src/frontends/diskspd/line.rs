//! A DiskSpd line as its options leave it, which the option table and 2.3's switches fill.

use super::affinity::Affinity;
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
    pub zbuf: Option<u64>,
    pub zero: bool,
    pub zr: bool,
    pub results: Option<ResultsFormat>,
    pub profile_only: bool,
    /// `-Rs`: the system information alone.
    pub system_only: bool,
    /// DiskSpd 2.3's switches (v23.rs), with the one typed for `-Sy`/`-SY`.
    pub extras: Extras,
    pub bypass_arg: Option<String>,
}

/// DiskSpd 2.3's thread-optimized buffer separation: a PDE cache line's worth of memory (eight
/// 2 MiB page-directory entries) between threads' buffers.
pub const BUFFER_SEPARATION: u64 = 16 << 20;

/// What DiskSpd 2.3's switches ask for beyond the workload, which its layouts echo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extras {
    pub affinity: Affinity,
    /// `-bsp` (the default): each thread's buffers in a 16 MiB region of their own; `-bsn`: as
    /// the system allocates them.
    pub buffer_separation: bool,
    /// `-oc<N>`: completions taken per call.
    pub completion_depth: Option<u32>,
    /// `-u`: the IoRing batch, as typed.
    pub ioring: Option<IoRing>,
    /// `-SY` (true: full bypass or fail) or `-Sy` (partial allowed).
    pub bypass_full: Option<bool>,
    /// `-v`: DiskSpd's verbose mode, echoed in the profile.
    pub verbose: bool,
    /// `-vs`: each thread's wait statistics after the results.
    pub wait_stats: bool,
}

impl Default for Extras {
    fn default() -> Self {
        Extras {
            affinity: Affinity::default(),
            buffer_separation: true,
            completion_depth: None,
            ioring: None,
            bypass_full: None,
            verbose: false,
            wait_stats: false,
        }
    }
}

/// `-u[n][<batch>][p]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IoRing {
    /// A count, or a percentage of `-o` with `percent`.
    pub batch: u32,
    pub percent: bool,
    /// Registered buffers (without `n`).
    pub registered: bool,
}

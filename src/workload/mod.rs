//! The one model of "what to run". Every front end (`run`'s options, CrystalDiskMark profiles
//! in `presets`, database patterns in `dbpatterns`, the peers' syntaxes in `frontends`)
//! only produces a [`Spec`]; the runner only consumes one.

mod access;
pub mod cpus;
pub mod dbpatterns;
mod defaults;
pub mod iolog;
pub mod observed;
pub mod parse;
pub mod presets;
pub mod shaping;
pub mod size;
pub mod sprandom;
pub mod stages;
pub mod steady;
pub mod trace;
pub mod verify;

pub use access::{AccessHint, Bypass, EngineKind, MetaOp, UNBUFFERED};
pub use shaping::{
    DropStop, FileService, Flow, MinRate, OnError, RateProcess, ServiceKind, StartDelay, Strided, ThinkTime,
};
pub use steady::SteadyState;

use serde::{Deserialize, Serialize};

/// One block size and its share of the I/Os (fio's `bssplit`); a plain `--bs` is one entry at 100 %.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockShare {
    /// Bytes per I/O.
    pub size: u64,
    /// Percentage of I/Os of this size; the shares of a spec add up to 100.
    pub pct: u32,
}

/// Where the next offset comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pattern {
    Sequential,
    Random,
}

/// How random offsets are spread over the range (fio's `random_distribution`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum RandomDist {
    Uniform,
    /// P(block k) ∝ 1 / k^theta over the blocks of the range, hot blocks scattered.
    Zipf {
        theta: f64,
    },
    /// Pareto with fio's h parameter (0 < h < 1): a share h of I/Os go to a share 1-h of blocks.
    Pareto {
        h: f64,
    },
    /// fio's zoned: zone i takes `io[i]` percent of the I/Os, spread evenly over the next
    /// `range[i]` percent of the region; `n` zones, each list adding up to 100.
    Zoned {
        io: [u8; 16],
        range: [u8; 16],
        n: u8,
    },
    /// fio's sequence: the I/Os of each direction visit these block indices in turn, over and
    /// over; with `stride` each round moves on by the sequence's length (fio's
    /// random_sequence_stride), walking the range group by group.
    Sequence {
        blocks: Vec<u32>,
        stride: bool,
    },
    /// fio's sprandom: writes precondition the range to its random-write steady state (see
    /// `sprandom`); reads stay uniform.
    SpRandom(sprandom::Settings),
}

/// What written buffers hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum DataPattern {
    /// Incompressible, re-stamped on every write so nothing below can dedupe it.
    Random,
    Zero,
    /// This percentage of each 4 KiB chunk is zeros, the rest random (fio's buffer_compress_percentage).
    Compress {
        pct: u32,
    },
    /// The first `len` bytes of `bytes`, repeated from the start of every buffer (fio's
    /// buffer_pattern, up to `fio::pattern::MAX_PATTERN`); written as is, never re-stamped.
    Repeat {
        bytes: Vec<u8>,
        len: u32,
    },
}

/// A complete workload. Sizes in bytes, times in seconds, rates in I/Os or 10^6 B per second.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    /// Files or block devices; each gets `threads` workers.
    pub targets: Vec<String>,
    pub blocks: Vec<BlockShare>,
    /// Block sizes of writes when they differ from those of reads (fio's `bs=4k,64k` and
    /// `bssplit=…,…`); `None`: writes use `blocks` too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_blocks: Option<Vec<BlockShare>>,
    pub pattern: Pattern,
    /// A length is any byte count from the smallest block size to the largest (fio's bs_unaligned).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unaligned: bool,
    /// A length is any multiple of the smallest block size up to the largest, evenly (fio's
    /// bsrange, where more sizes than whole percents can share out).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ranged: bool,
    /// Bytes skipped after each sequential I/O (fio's `rw=write:112k`); negative steps back,
    /// so `-2 × block` reads backwards (fio's `rw=read:-8k` at 4k).
    #[serde(default)]
    pub seq_skip: i64,
    /// The threads of a target share one sequential position, each I/O taking the next
    /// block (DiskSpd's -si); otherwise each thread walks on its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shared_seq: bool,
    /// Percentage of I/Os that read (100 = read only, 0 = write only).
    pub read_pct: u32,
    /// The I/Os free their range instead of writing it (fio's rw=trim, randtrim); `read_pct`
    /// is 0, so everything that guards writes guards trims.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trim: bool,
    /// Each block is trimmed, then written at the same offset and length once the trim has
    /// completed (fio's rw=trimwrite, randtrimwrite); `read_pct` is 0 and `trim` false, the
    /// trims are counted as trims and the writes as writes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trim_write: bool,
    /// Worker threads per target (DiskSpd `-t`).
    pub threads: u32,
    /// Outstanding I/Os per thread (DiskSpd `-o`, fio `iodepth`).
    pub qd: u32,
    /// Most I/Os handed to the kernel per submission call (fio's `iodepth_batch_submit`);
    /// 1 submits each I/O as soon as it is ready, as fio does by default.
    #[serde(default = "one")]
    pub batch: u32,
    /// Size of a test file iolens creates; for existing targets the tested size.
    pub size: u64,
    /// The user gave the size (`--size`, DiskSpd's `-c`, fio's `size=`): an existing target is
    /// tested over that much, not whole. How the spec was asked for, so results do not store it.
    #[serde(skip)]
    pub size_given: bool,
    /// Start of the tested region within each target.
    pub offset: u64,
    /// Length of the tested region; `None` = from `offset` to `size`.
    pub range: Option<u64>,
    /// The region's end as given, when it lay past the target and `range` was cut back to it
    /// (DiskSpd's -f): DiskSpd's reports still show the end as typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_asked: Option<u64>,
    /// Random offsets are multiples of this; `None` = the smallest block size
    /// (rounded up to a multiple of 4 KiB with O_DIRECT).
    pub align: Option<u64>,
    pub duration: f64,
    pub warmup: f64,
    pub cooldown: f64,
    /// O_DIRECT: bypass the page cache.
    pub direct: bool,
    /// O_DSYNC: every write reaches stable storage before it completes.
    pub write_through: bool,
    /// What the OS is told about the access pattern (DiskSpd's -fr/-fs, fio's fadvise_hint).
    #[serde(default, skip_serializing_if = "AccessHint::is_none")]
    pub hint: AccessHint,
    /// fsync after every N writes of a thread; 0 = never.
    pub fsync_every: u32,
    /// Total I/Os per second over all workers; `None` = as fast as possible.
    pub rate_iops: Option<f64>,
    /// Total 10^6 B per second over all workers.
    pub rate_mbps: Option<f64>,
    pub random_dist: RandomDist,
    pub seed: u64,
    pub data: DataPattern,
    pub engine: EngineKind,
    /// Permit writes to files iolens did not create.
    pub allow_write: bool,
    /// Permit writes to (unmounted) block devices.
    pub force_device: bool,
    /// Keep test files iolens created.
    pub keep: bool,
    /// Pauses between I/Os (fio's thinktime).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub think: Option<ThinkTime>,
    /// Seconds each worker waits before its first I/O (fio's startdelay).
    #[serde(default, skip_serializing_if = "StartDelay::is_zero")]
    pub start_delay: StartDelay,
    /// Worker k of a target starts at `offset + k × offset_increment` (fio's offset_increment);
    /// 0: the workers share the region.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset_increment: u64,
    /// Bytes after which each thread stops, over all its targets (fio's io_size, per job);
    /// `None`: the duration decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub io_limit: Option<u64>,
    /// I/Os after which each thread stops, over all its targets (fio's number_ios).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number_ios: Option<u64>,
    /// Failed I/Os counted and passed over instead of stopping the run.
    #[serde(default, skip_serializing_if = "OnError::is_default")]
    pub on_error: OnError,
    /// How paced I/Os are spaced.
    #[serde(default, skip_serializing_if = "RateProcess::is_linear")]
    pub rate_process: RateProcess,
    /// The least each worker must do, checked every cycle; a worker below it fails the test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rate: Option<MinRate>,
    /// End the test once its IOPS fell this far and stayed down (`--stop-on-drop`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_on_drop: Option<DropStop>,
    /// Stamp every write and check every read (`--verify`, fio's `verify=`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify: Option<verify::VerifySpec>,
    /// Held in proportion to the other jobs of its flow group (fio's `flow`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flow: Option<Flow>,
    /// Ends once its IOPS or bandwidth has settled (fio's `ss`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steady: Option<SteadyState>,
    /// I/O walks the region zone by zone (fio's zonemode=strided).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strided: Option<Strided>,
    /// fio's bandwidth, IOPS and latency logs, written while the test runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logs: Option<iolog::IoLogs>,
    /// Set, the workers also time fio's slat and lat (see [`stages`]) and the reports give
    /// percentiles for the stages it names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stages: Option<stages::LatStages>,
    /// fio's cmdprio: a share of the I/Os carries another I/O priority, drawn per I/O; their
    /// latencies are kept apart per priority.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cmdprio: Option<stages::CmdPrio>,
    /// CPUs the workers are held to in turn (worker k on `cpus[k % len]`); empty: any CPU.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cpus: Vec<u32>,
    /// Each worker's buffers start this many bytes apart from any other's (DiskSpd's `-bsp`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub buffers_apart: u64,
    /// Random offsets visit every block once before any twice (fio's random map, and its lfsr
    /// generator); applied to uniform random I/O.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub random_map: bool,
    /// Uniform random offsets come from 32 random bits (fio's random_generator=tausworthe when
    /// named), so a range of more than 2^32 blocks is drawn from 2^32 of them, repeats and all.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rand32: bool,
    /// Each worker spreads its I/O over several targets (fio's nrfiles and file lists);
    /// `None`: one worker per target and thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_service: Option<FileService>,
    /// A captured trace replayed in place of generated I/O (`iolens replay`, fio's read_iolog).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<trace::Replay>,
    /// Reads bypass the file system's filters, or the whole storage stack (Windows only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bypass: Option<Bypass>,
    /// The IoRing engine leaves its buffers unregistered (DiskSpd's `-un`): each I/O maps its
    /// pages, as overlapped I/O does.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ring_unregistered: bool,
}

fn one() -> u32 {
    1
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl Spec {
    /// Every block size the spec uses, reads' and writes'.
    pub fn all_blocks(&self) -> impl Iterator<Item = &BlockShare> {
        self.blocks.iter().chain(self.write_blocks.iter().flatten())
    }

    pub fn min_block(&self) -> u64 {
        self.all_blocks().map(|b| b.size).min().unwrap_or(4096)
    }

    pub fn max_block(&self) -> u64 {
        self.all_blocks().map(|b| b.size).max().unwrap_or(4096)
    }

    /// The page verification claims, stamps and checks: the largest size every block size is
    /// a whole number of, so an I/O of any of them covers whole pages.
    pub fn verify_page(&self) -> u64 {
        let gcd = |mut a: u64, mut b: u64| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        self.all_blocks().map(|b| b.size).fold(0, gcd).max(1)
    }

    /// Mean bytes per I/O, weighted by the bssplit shares and, with write_blocks, the mix.
    pub fn mean_block(&self) -> f64 {
        let mean = |b: &[BlockShare]| b.iter().map(|b| b.size as f64 * b.pct as f64 / 100.0).sum::<f64>();
        let r = self.read_pct as f64 / 100.0;
        self.write_blocks.as_ref().map_or(mean(&self.blocks), |w| r * mean(&self.blocks) + (1.0 - r) * mean(w))
    }

    /// Whether the workload writes to its targets. A read job with verify checks what is on
    /// them and writes nothing (fio's reading); only a file it creates gets stamped first.
    pub fn writes(&self) -> bool {
        self.read_pct < 100
    }

    /// The alignment random offsets obey.
    pub fn effective_align(&self) -> u64 {
        let b = self.min_block();
        self.align.unwrap_or(if self.direct { b.div_ceil(4096) * 4096 } else { b })
    }

    /// fio's words for the pattern and mix: read, write, randread, randwrite, rw, randrw, trim,
    /// randtrim, trimwrite, randtrimwrite.
    pub fn rw_name(&self) -> &'static str {
        match (self.pattern, self.read_pct) {
            (Pattern::Sequential, _) if self.trim_write => "trimwrite",
            (Pattern::Random, _) if self.trim_write => "randtrimwrite",
            (Pattern::Sequential, _) if self.trim => "trim",
            (Pattern::Random, _) if self.trim => "randtrim",
            (Pattern::Sequential, 100) => "read",
            (Pattern::Sequential, 0) => "write",
            (Pattern::Sequential, _) => "rw",
            (Pattern::Random, 100) => "randread",
            (Pattern::Random, 0) => "randwrite",
            (Pattern::Random, _) => "randrw",
        }
    }

    /// The name a user would give this test: "4K randread Q32T1", "1M read Q8T1", "8K randrw70 Q4T2".
    pub fn short_name(&self) -> String {
        let bs = if self.blocks.len() == 1 { size::format_block(self.blocks[0].size) } else { "bssplit".to_string() };
        let mix = if self.read_pct > 0 && self.read_pct < 100 { format!("{}", self.read_pct) } else { String::new() };
        format!("{bs} {}{mix} Q{}T{}", self.rw_name(), self.qd, self.threads)
    }
}

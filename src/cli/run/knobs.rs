//! `run`'s and `sweep`'s options beyond what a sweep varies, typed at the door: each value is
//! read by the same rule, and refused with the same line, as the model's own parsers give.

use crate::cli::values::{seconds, size, Parser};
use crate::error::usage;
use crate::workload::verify::{parse_inject, Inject};
use crate::workload::{parse, AccessHint, DataPattern, EngineKind, RandomDist, RateProcess, StartDelay};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct Knobs {
    /// Most I/Os submitted per system call (fio iodepth_batch_submit); 1 = each as soon as it is ready
    #[arg(long, default_value = "1", value_name = "N", value_parser = number::<u32>("--batch", "1-4096"))]
    pub batch: u32,
    /// Size of the test file iolens creates [default: 1GiB]; for existing targets, how much of them to use
    #[arg(long, value_name = "SIZE", value_parser = size("--size"))]
    pub size: Option<u64>,
    /// Start of the tested region in each target
    #[arg(long, value_name = "SIZE", value_parser = size("--offset"))]
    pub offset: Option<u64>,
    /// Length of the tested region [default: to the end]
    #[arg(long, value_name = "SIZE", value_parser = size("--range"))]
    pub range: Option<u64>,
    /// Random offsets are multiples of this [default: block size, 4 KiB multiple with O_DIRECT]
    #[arg(long, value_name = "SIZE", value_parser = size("--align"))]
    pub align: Option<u64>,
    /// Measured seconds (10, 2.5, 500ms, 2m)
    #[arg(long, short = 'd', alias = "runtime", default_value = "10", value_name = "SECS",
          value_parser = seconds("--duration"))]
    pub duration: f64,
    /// Seconds of I/O before measuring starts
    #[arg(long, default_value = "0", value_name = "SECS", value_parser = seconds("--warmup"))]
    pub warmup: f64,
    /// Seconds of I/O after measuring ends
    #[arg(long, default_value = "0", value_name = "SECS", value_parser = seconds("--cooldown"))]
    pub cooldown: f64,
    /// Bypass the page cache with O_DIRECT (the default)
    #[arg(long, overrides_with = "buffered")]
    pub direct: bool,
    /// Go through the page cache instead of O_DIRECT
    #[arg(long, overrides_with = "direct")]
    pub buffered: bool,
    /// Open with O_DSYNC: each write completes only once it is on stable storage
    #[arg(long)]
    pub write_through: bool,
    /// fsync after every N writes of a thread
    #[arg(long, value_name = "N", value_parser = number::<u32>("--fsync-every", "a whole number of writes"))]
    pub fsync_every: Option<u32>,
    /// Total I/Os per second over all threads; latency is also measured from each I/O's intended start
    #[arg(long, value_name = "N", value_parser = number::<f64>("--rate-iops", "a number above 0"))]
    pub rate_iops: Option<f64>,
    /// Total MB/s (10^6 B/s) over all threads
    #[arg(long, value_name = "N", value_parser = number::<f64>("--rate-mbps", "a number above 0"))]
    pub rate_mbps: Option<f64>,
    /// uniform, zipf:THETA or pareto:H
    #[arg(long, default_value = "uniform", value_name = "DIST", value_parser = word(parse::random_dist))]
    pub random_dist: RandomDist,
    /// Seed for offsets and data, so runs repeat exactly
    #[arg(long, value_name = "N", value_parser = number::<u64>("--seed", "a whole number"))]
    pub seed: Option<u64>,
    /// Written data: random (incompressible), zero or compress:PCT
    #[arg(long, default_value = "random", value_name = "DATA", value_parser = word(parse::data))]
    pub data: DataPattern,
    /// io_uring (Linux), iocp (Windows), psync (sync: one I/O at a time) or null (no I/O: the
    /// tool's own cost)
    #[arg(long, default_value = EngineKind::NATIVE.name(), value_name = "ENGINE", value_parser = word(parse::engine))]
    pub engine: EngineKind,
    /// Tell the OS cache the access pattern: random or sequential (FILE_FLAG_RANDOM_ACCESS or
    /// FILE_FLAG_SEQUENTIAL_SCAN on Windows, DiskSpd's -fr/-fs; posix_fadvise on Linux)
    #[arg(long, value_name = "HINT", value_parser = word(parse::hint))]
    pub hint: Option<AccessHint>,
    /// Pause between I/Os, µs (or 500us, 10ms, 1s), nothing in flight meanwhile (fio thinktime)
    #[arg(long, value_name = "TIME", value_parser = micros("--thinktime"))]
    pub thinktime: Option<u64>,
    /// I/Os completed between pauses (fio thinktime_blocks)
    #[arg(long, default_value = "1", value_name = "N", requires = "thinktime",
          value_parser = number::<u32>("--thinktime-blocks", "a whole number of I/Os"))]
    pub thinktime_blocks: u32,
    /// Part of each pause spent spinning on the CPU (fio thinktime_spin)
    #[arg(long, value_name = "TIME", requires = "thinktime", value_parser = micros("--thinktime-spin"))]
    pub thinktime_spin: Option<u64>,
    /// Each thread starts this many seconds late; a range 1-3 draws a delay per thread (fio startdelay)
    #[arg(long, value_name = "SECS", value_parser = start_delay("--start-delay"))]
    pub start_delay: Option<StartDelay>,
    /// Thread k of a target starts at offset + k × this (fio offset_increment)
    #[arg(long, value_name = "SIZE", value_parser = size("--offset-increment"))]
    pub offset_increment: Option<u64>,
    /// Each thread stops after this many bytes, or the duration, whichever comes first (fio io_size)
    #[arg(long, alias = "io-size", value_name = "SIZE", value_parser = size("--io-limit"))]
    pub io_limit: Option<u64>,
    /// Each thread stops after this many I/Os, or the duration (fio number_ios)
    #[arg(long, value_name = "N", value_parser = number::<u64>("--number-ios", "a whole number of I/Os"))]
    pub number_ios: Option<u64>,
    /// Count failed I/Os (EIO) and go on: none, read, write, io or all (fio continue_on_error)
    #[arg(long, default_value = "none", value_name = "WHICH", value_parser = policy)]
    pub continue_on_error: [bool; 2],
    /// How paced I/Os are spaced: linear (evenly) or poisson (exponential gaps, same mean)
    #[arg(long, default_value = "linear", value_name = "PROCESS", value_parser = rate_process)]
    pub rate_process: RateProcess,
    /// End the run once IOPS fell by PCT % and stayed down for --drop-window seconds (a burst
    /// spent, a cache full); exit status 0, the result says when
    #[arg(long, value_name = "PCT", value_parser = share_of_level)]
    pub stop_on_drop: Option<f64>,
    /// Seconds a drop must last to end the run (--stop-on-drop)
    #[arg(long, value_name = "SECS", default_value = "10", requires = "stop_on_drop", value_parser = window)]
    pub drop_window: u32,
    /// Write every issued I/O (worker, file, op, offset, length) to FILE as CSV
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Stamp every write (one page = the block size) and check every read: lost, torn,
    /// misdirected, corrupt and never-read pages are reported; exit status 3 when any is found
    #[arg(long)]
    pub verify: bool,
    /// Re-reads of a bad page, to tell transient from persistent faults
    #[arg(long, value_name = "N", default_value = "3", value_parser = rereads)]
    pub rereads: u32,
    /// Read each written page back after N more writes (fio's verify_backlog)
    #[arg(long, value_name = "N", value_parser = number::<u32>("--verify-backlog", "a whole number of writes"))]
    pub verify_backlog: Option<u32>,
    /// Stop at the first bad page (fio's verify_fatal)
    #[arg(long)]
    pub verify_fatal: bool,
    /// Self-test: inject faults below the runner, e.g. lost:0.01,torn:0.01 (kinds: lost, torn,
    /// misdirect, bitflip, unread; rates are fractions of the eligible I/Os; --seed repeats them)
    #[arg(long, value_name = "KIND:RATE,…", value_parser = word(parse_inject))]
    pub inject: Option<Inject>,
}

/// A number as typed (spaces around it allowed); ranges are the spec's to check, with the rest
/// of the spec in view.
pub fn number<T>(opt: &'static str, allowed: &'static str) -> impl Parser<T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
{
    move |s| s.trim().parse().or_else(|_| usage(opt, format!("'{s}' is not a number; use {allowed}")))
}

/// A value a model parser reads, which names its option itself.
pub fn word<T: 'static>(read: fn(&str) -> Result<T, crate::error::UsageError>) -> impl Parser<T> {
    move |s| read(s)
}

fn micros(opt: &'static str) -> impl Parser<u64> {
    move |s| parse::micros(opt, s)
}

fn start_delay(opt: &'static str) -> impl Parser<StartDelay> {
    move |s| parse::start_delay(opt, s)
}

fn policy(s: &str) -> Result<[bool; 2], crate::error::UsageError> {
    crate::workload::OnError::parse_policy("--continue-on-error", s)
}

fn rate_process(s: &str) -> Result<RateProcess, crate::error::UsageError> {
    match s {
        "linear" => Ok(RateProcess::Linear),
        "poisson" => Ok(RateProcess::Poisson),
        v => usage("--rate-process", format!("'{v}' is not linear or poisson")),
    }
}

fn rereads(s: &str) -> Result<u32, crate::error::UsageError> {
    let n: u32 = number("--rereads", "a whole number of re-reads (0-1000)")(s)?;
    if n > 1000 {
        return usage("--rereads", "use 0-1000");
    }
    Ok(n)
}

fn share_of_level(s: &str) -> Result<f64, crate::error::UsageError> {
    match s.trim_end_matches('%').parse::<f64>() {
        Ok(p) if p > 0.0 && p < 100.0 => Ok(p),
        _ => usage("--stop-on-drop", format!("'{s}' is not allowed; use a percentage above 0 and below 100")),
    }
}

/// Whole seconds, at least 1 (a part of a second is rounded up: the check runs once a second).
fn window(s: &str) -> Result<u32, crate::error::UsageError> {
    let secs = parse::seconds("--drop-window", s)?;
    if secs <= 0.0 {
        return usage("--drop-window", format!("'{s}' is not allowed; use 1 second or more"));
    }
    Ok(secs.ceil() as u32)
}

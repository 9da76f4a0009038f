//! `iolens run`: one workload, fio's and DiskSpd's knobs under one set of names.

use crate::error::{usage, UsageError};
use crate::result::Kind;
use crate::session::{Item, Request};
use crate::workload::verify::{parse_inject, VerifySpec};
use crate::workload::{parse, BlockShare, OnError, RateProcess, Spec, ThinkTime};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Files, directories (a test file is made inside) or block devices [default: .]
    #[arg(value_name = "TARGET")]
    pub targets: Vec<String>,
    /// Block size: 512, 4k, 8K, 64k, 1M (k = KiB)
    #[arg(long, short = 'b', default_value = "4k", value_name = "SIZE")]
    pub bs: String,
    /// Mixed block sizes with their shares, as fio: 4k/50:64k/50
    #[arg(long, value_name = "SPLIT", conflicts_with = "bs")]
    pub bssplit: Option<String>,
    /// read, write, randread, randwrite, rw or randrw (fio's words)
    #[arg(long, default_value = "randread", value_name = "PATTERN")]
    pub rw: String,
    /// Percentage of I/Os that read, for mixes (rw, randrw default to 50)
    #[arg(long, alias = "rwmixread", value_name = "N")]
    pub read_pct: Option<String>,
    /// Worker threads per target (DiskSpd -t)
    #[arg(long, short = 't', alias = "numjobs", default_value = "1", value_name = "N")]
    pub threads: String,
    /// Outstanding I/Os per thread (DiskSpd -o, fio iodepth)
    #[arg(long, short = 'o', alias = "iodepth", default_value = "1", value_name = "N")]
    pub qd: String,
    /// Most I/Os submitted per system call (fio iodepth_batch_submit); 1 = each as soon as it is ready
    #[arg(long, default_value = "1", value_name = "N")]
    pub batch: String,
    /// Size of the test file iolens creates [default: 1GiB]; for existing targets, how much of them to use
    #[arg(long, value_name = "SIZE")]
    pub size: Option<String>,
    /// Start of the tested region in each target
    #[arg(long, value_name = "SIZE")]
    pub offset: Option<String>,
    /// Length of the tested region [default: to the end]
    #[arg(long, value_name = "SIZE")]
    pub range: Option<String>,
    /// Random offsets are multiples of this [default: block size, 4 KiB multiple with O_DIRECT]
    #[arg(long, value_name = "SIZE")]
    pub align: Option<String>,
    /// Measured seconds (10, 2.5, 500ms, 2m)
    #[arg(long, short = 'd', alias = "runtime", default_value = "10", value_name = "SECS")]
    pub duration: String,
    /// Seconds of I/O before measuring starts
    #[arg(long, default_value = "0", value_name = "SECS")]
    pub warmup: String,
    /// Seconds of I/O after measuring ends
    #[arg(long, default_value = "0", value_name = "SECS")]
    pub cooldown: String,
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
    #[arg(long, value_name = "N")]
    pub fsync_every: Option<String>,
    /// Total I/Os per second over all threads; latency is also measured from each I/O's intended start
    #[arg(long, value_name = "N")]
    pub rate_iops: Option<String>,
    /// Total MB/s (10^6 B/s) over all threads
    #[arg(long, value_name = "N")]
    pub rate_mbps: Option<String>,
    /// uniform, zipf:THETA or pareto:H
    #[arg(long, default_value = "uniform", value_name = "DIST")]
    pub random_dist: String,
    /// Seed for offsets and data, so runs repeat exactly
    #[arg(long, value_name = "N")]
    pub seed: Option<String>,
    /// Written data: random (incompressible), zero or compress:PCT
    #[arg(long, default_value = "random", value_name = "DATA")]
    pub data: String,
    /// io_uring (Linux), iocp (Windows), psync (sync: one I/O at a time) or null (no I/O: the
    /// tool's own cost)
    #[arg(long, default_value = crate::workload::EngineKind::NATIVE.name(), value_name = "ENGINE")]
    pub engine: String,
    /// Tell the OS cache the access pattern: random or sequential (FILE_FLAG_RANDOM_ACCESS or
    /// FILE_FLAG_SEQUENTIAL_SCAN on Windows, DiskSpd's -fr/-fs; posix_fadvise on Linux)
    #[arg(long, value_name = "HINT")]
    pub hint: Option<String>,
    /// Pause between I/Os, µs (or 500us, 10ms, 1s), nothing in flight meanwhile (fio thinktime)
    #[arg(long, value_name = "TIME")]
    pub thinktime: Option<String>,
    /// I/Os completed between pauses (fio thinktime_blocks)
    #[arg(long, default_value = "1", value_name = "N", requires = "thinktime")]
    pub thinktime_blocks: String,
    /// Part of each pause spent spinning on the CPU (fio thinktime_spin)
    #[arg(long, value_name = "TIME", requires = "thinktime")]
    pub thinktime_spin: Option<String>,
    /// Each thread starts this many seconds late; a range 1-3 draws a delay per thread (fio startdelay)
    #[arg(long, value_name = "SECS")]
    pub start_delay: Option<String>,
    /// Thread k of a target starts at offset + k × this (fio offset_increment)
    #[arg(long, value_name = "SIZE")]
    pub offset_increment: Option<String>,
    /// Each thread stops after this many bytes, or the duration, whichever comes first (fio io_size)
    #[arg(long, alias = "io-size", value_name = "SIZE")]
    pub io_limit: Option<String>,
    /// Each thread stops after this many I/Os, or the duration (fio number_ios)
    #[arg(long, value_name = "N")]
    pub number_ios: Option<String>,
    /// Count failed I/Os (EIO) and go on: none, read, write, io or all (fio continue_on_error)
    #[arg(long, default_value = "none", value_name = "WHICH")]
    pub continue_on_error: String,
    /// How paced I/Os are spaced: linear (evenly) or poisson (exponential gaps, same mean)
    #[arg(long, default_value = "linear", value_name = "PROCESS")]
    pub rate_process: String,
    /// Write every issued I/O (worker, file, op, offset, length) to FILE as CSV
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Stamp every write (one page = the block size) and check every read: lost, torn,
    /// misdirected, corrupt and never-read pages are reported; exit status 3 when any is found
    #[arg(long)]
    pub verify: bool,
    /// Re-reads of a bad page, to tell transient from persistent faults
    #[arg(long, value_name = "N", default_value = "3")]
    pub rereads: String,
    /// Read each written page back after N more writes (fio's verify_backlog)
    #[arg(long, value_name = "N")]
    pub verify_backlog: Option<String>,
    /// Stop at the first bad page (fio's verify_fatal)
    #[arg(long)]
    pub verify_fatal: bool,
    /// Self-test: inject faults below the runner, e.g. lost:0.01,torn:0.01 (kinds: lost, torn,
    /// misdirect, bitflip, unread; rates are fractions of the eligible I/Os; --seed repeats them)
    #[arg(long, value_name = "KIND:RATE,…")]
    pub inject: Option<String>,
    #[command(flatten)]
    pub mpi: super::mpi::MpiArgs,
    #[command(flatten)]
    pub common: super::common::CommonArgs,
}

fn number<T: std::str::FromStr>(opt: &str, s: &str, allowed: &str) -> Result<T, UsageError> {
    s.trim().parse().or_else(|_| usage(opt, format!("'{s}' is not a number; use {allowed}")))
}

/// Arguments → Spec. Pure: no file is looked at.
pub fn to_spec(a: &RunArgs) -> Result<Spec, UsageError> {
    let (pattern, mix) = parse::rw(&a.rw)?;
    let blocks = match &a.bssplit {
        Some(s) => parse::bssplit(s)?,
        None => vec![BlockShare { size: parse::block_size("--bs", &a.bs)?, pct: 100 }],
    };
    let opt_size = |o: &str, v: &Option<String>| v.as_deref().map(|s| parse::size(o, s)).transpose();
    let opt_rate =
        |o: &str, v: &Option<String>| v.as_deref().map(|s| number::<f64>(o, s, "a number above 0")).transpose();
    let def = Spec::default();
    let spec = Spec {
        targets: if a.targets.is_empty() { vec![".".into()] } else { a.targets.clone() },
        blocks,
        pattern,
        seq_skip: 0,
        shared_seq: false,
        write_blocks: None,
        read_pct: match &a.read_pct {
            Some(s) => number("--read-pct", s, "0-100")?,
            None => mix,
        },
        threads: number("--threads", &a.threads, "1-1024")?,
        qd: number("--qd", &a.qd, "1-4096")?,
        batch: number("--batch", &a.batch, "1-4096")?,
        size: opt_size("--size", &a.size)?.unwrap_or(def.size),
        size_given: a.size.is_some(),
        offset: opt_size("--offset", &a.offset)?.unwrap_or(0),
        range: opt_size("--range", &a.range)?,
        align: opt_size("--align", &a.align)?,
        duration: parse::seconds("--duration", &a.duration)?,
        warmup: parse::seconds("--warmup", &a.warmup)?,
        cooldown: parse::seconds("--cooldown", &a.cooldown)?,
        direct: !a.buffered,
        write_through: a.write_through,
        hint: a.hint.as_deref().map(parse::hint).transpose()?.unwrap_or_default(),
        fsync_every: a
            .fsync_every
            .as_deref()
            .map(|s| number("--fsync-every", s, "a whole number of writes"))
            .transpose()?
            .unwrap_or(0),
        rate_iops: opt_rate("--rate-iops", &a.rate_iops)?,
        rate_mbps: opt_rate("--rate-mbps", &a.rate_mbps)?,
        random_dist: parse::random_dist(&a.random_dist)?,
        seed: a.seed.as_deref().map(|s| number("--seed", s, "a whole number")).transpose()?.unwrap_or(def.seed),
        data: parse::data(&a.data)?,
        engine: parse::engine(&a.engine)?,
        allow_write: a.common.allow_write,
        force_device: a.common.force_device,
        keep: a.common.keep,
        think: match &a.thinktime {
            None => None,
            Some(t) => Some(ThinkTime {
                us: parse::micros("--thinktime", t)?,
                spin_us: a
                    .thinktime_spin
                    .as_deref()
                    .map(|s| parse::micros("--thinktime-spin", s))
                    .transpose()?
                    .unwrap_or(0),
                blocks: number("--thinktime-blocks", &a.thinktime_blocks, "a whole number of I/Os")?,
                iotime_us: 0,
                on_issue: false,
            }),
        },
        start_delay: a
            .start_delay
            .as_deref()
            .map(|s| parse::start_delay("--start-delay", s))
            .transpose()?
            .unwrap_or_default(),
        offset_increment: opt_size("--offset-increment", &a.offset_increment)?.unwrap_or(0),
        io_limit: opt_size("--io-limit", &a.io_limit)?,
        number_ios: a.number_ios.as_deref().map(|s| number("--number-ios", s, "a whole number of I/Os")).transpose()?,
        on_error: OnError {
            go_on: OnError::parse_policy("--continue-on-error", &a.continue_on_error)?,
            errors: Default::default(),
        },
        rate_process: match a.rate_process.as_str() {
            "linear" => RateProcess::Linear,
            "poisson" => RateProcess::Poisson,
            v => return usage("--rate-process", format!("'{v}' is not linear or poisson")),
        },
        verify: verify_spec(a)?,
        // One job: flow control only weighs jobs against each other (fio job files).
        flow: None,
        steady: None,
        strided: None,
        logs: None,
        stages: None,
        cmdprio: None,
        random_map: false,
        file_service: None,
        replay: None,
        // No trims and no DiskSpd-only or fio-only regions or lengths.
        ..Spec::default()
    };
    spec.validate()?;
    Ok(spec)
}

fn verify_spec(a: &RunArgs) -> Result<Option<VerifySpec>, UsageError> {
    if !a.verify {
        let given = [
            ("--inject", a.inject.is_some()),
            ("--verify-backlog", a.verify_backlog.is_some()),
            ("--verify-fatal", a.verify_fatal),
        ];
        if let Some((opt, _)) = given.iter().find(|g| g.1) {
            return usage(opt, "checks data, which needs --verify");
        }
        return Ok(None);
    }
    Ok(Some(VerifySpec {
        rereads: number("--rereads", &a.rereads, "a whole number of re-reads (0-1000)").and_then(|n: u32| {
            if n <= 1000 {
                Ok(n)
            } else {
                usage("--rereads", "use 0-1000")
            }
        })?,
        backlog: a
            .verify_backlog
            .as_deref()
            .map(|s| number("--verify-backlog", s, "a whole number of writes"))
            .transpose()?
            .unwrap_or(0),
        fatal: a.verify_fatal,
        read_back: true,
        inject: a.inject.as_deref().map(parse_inject).transpose()?,
        count_read_backs: false,
        fio: None,
        pattern: None,
    }))
}

pub fn main(a: RunArgs) -> anyhow::Result<i32> {
    let spec = to_spec(&a)?;
    let output = a.common.output(a.trace.as_deref())?;
    let item = Item { name: spec.short_name(), spec, notes: Vec::new() };
    super::mpi::execute(&Request::once(Kind::Run, &[item], &output), a.mpi.check()?)
}

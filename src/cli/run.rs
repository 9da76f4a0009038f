//! `iolens run`: one workload, fio's and DiskSpd's knobs under one set of names.

mod knobs;

pub use knobs::Knobs;

use super::common::CommonArgs;
use super::values::{block, Parser};
use crate::error::{usage, UsageError};
use crate::result::Kind;
use crate::session::{Item, Request};
use crate::workload::verify::VerifySpec;
use crate::workload::{parse, BlockShare, DropStop, OnError, Pattern, Spec, ThinkTime};
use clap::Args;
pub use knobs::{number, word};

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Files, directories (a test file is made inside) or block devices [default: .]
    #[arg(value_name = "TARGET")]
    pub targets: Vec<String>,
    #[command(flatten)]
    pub what: Axes,
    #[command(flatten)]
    pub knobs: Knobs,
    #[command(flatten)]
    pub mpi: super::mpi::MpiArgs,
    #[command(flatten)]
    pub common: CommonArgs,
}

/// The options `sweep` takes lists of (and the block layout and pattern beside them, so the
/// help lists them in this order for both commands); `run` takes one value of each.
#[derive(Args, Debug, Clone)]
pub struct Axes {
    /// Block size: 512, 4k, 8K, 64k, 1M (k = KiB)
    #[arg(long, short = 'b', default_value = "4k", value_name = "SIZE", value_parser = block("--bs"))]
    pub bs: u64,
    #[command(flatten)]
    pub layout: Layout,
    /// Percentage of I/Os that read, for mixes (rw, randrw default to 50)
    #[arg(long, alias = "rwmixread", value_name = "N", value_parser = number::<u32>("--read-pct", "0-100"))]
    pub read_pct: Option<u32>,
    /// Worker threads per target (DiskSpd -t)
    #[arg(long, short = 't', alias = "numjobs", default_value = "1", value_name = "N",
          value_parser = number::<u32>("--threads", "1-4096"))]
    pub threads: u32,
    /// Outstanding I/Os per thread (DiskSpd -o, fio iodepth)
    #[arg(long, short = 'o', alias = "iodepth", default_value = "1", value_name = "N",
          value_parser = number::<u32>("--qd", "1-4096"))]
    pub qd: u32,
}

/// The block split and the access pattern, which `sweep` holds fixed.
#[derive(Args, Debug, Clone)]
pub struct Layout {
    /// Mixed block sizes with their shares, as fio: 4k/50:64k/50
    #[arg(long, value_name = "SPLIT", conflicts_with = "bs", value_parser = shares())]
    pub bssplit: Option<Shares>,
    /// read, write, randread, randwrite, rw or randrw (fio's words)
    #[arg(long, default_value = "randread", value_name = "PATTERN", value_parser = rw())]
    pub rw: (Pattern, u32),
}

/// A `--bssplit` as read: its block sizes and their shares.
#[derive(Debug, Clone, PartialEq)]
pub struct Shares(pub Vec<BlockShare>);

fn shares() -> impl Parser<Shares> {
    |s: &str| parse::bssplit(s).map(Shares)
}

fn rw() -> impl Parser<(Pattern, u32)> {
    |s: &str| parse::rw(s)
}

/// One point's options → Spec. Pure: no file is looked at.
pub fn to_spec(targets: &[String], what: &Axes, a: &Knobs, common: &CommonArgs) -> Result<Spec, UsageError> {
    let (pattern, mix) = what.layout.rw;
    let blocks = match &what.layout.bssplit {
        Some(s) => s.0.clone(),
        None => vec![BlockShare { size: what.bs, pct: 100 }],
    };
    let def = Spec::default();
    let spec = Spec {
        targets: if targets.is_empty() { vec![".".into()] } else { targets.to_vec() },
        blocks,
        pattern,
        seq_skip: 0,
        shared_seq: false,
        write_blocks: None,
        read_pct: what.read_pct.unwrap_or(mix),
        threads: what.threads,
        qd: what.qd,
        batch: a.batch,
        size: a.size.unwrap_or(def.size),
        size_given: a.size.is_some(),
        offset: a.offset.unwrap_or(0),
        range: a.range,
        align: a.align,
        duration: a.duration,
        warmup: a.warmup,
        cooldown: a.cooldown,
        direct: !a.buffered,
        write_through: a.write_through,
        hint: a.hint.unwrap_or_default(),
        fsync_every: a.fsync_every.unwrap_or(0),
        rate_iops: a.rate_iops,
        rate_mbps: a.rate_mbps,
        random_dist: a.random_dist.clone(),
        seed: a.seed.unwrap_or(def.seed),
        data: a.data.clone(),
        engine: a.engine,
        allow_write: common.allow_write,
        force_device: common.force_device,
        keep: common.keep,
        think: a.thinktime.map(|us| ThinkTime {
            us,
            spin_us: a.thinktime_spin.unwrap_or(0),
            blocks: a.thinktime_blocks,
            iotime_us: 0,
            on_issue: false,
        }),
        start_delay: a.start_delay.unwrap_or_default(),
        offset_increment: a.offset_increment.unwrap_or(0),
        io_limit: a.io_limit,
        number_ios: a.number_ios,
        on_error: OnError { go_on: a.continue_on_error, errors: Default::default() },
        rate_process: a.rate_process,
        stop_on_drop: a.stop_on_drop.map(|pct| DropStop { pct, window_s: a.drop_window }),
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

fn verify_spec(a: &Knobs) -> Result<Option<VerifySpec>, UsageError> {
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
        rereads: a.rereads,
        backlog: a.verify_backlog.unwrap_or(0),
        fatal: a.verify_fatal,
        read_back: true,
        inject: a.inject,
        count_read_backs: false,
        fio: None,
        pattern: None,
    }))
}

pub fn main(a: RunArgs) -> anyhow::Result<i32> {
    let spec = to_spec(&a.targets, &a.what, &a.knobs, &a.common)?;
    let output = a.common.output(a.knobs.trace.as_deref())?;
    let item = Item { name: spec.short_name(), spec, notes: Vec::new() };
    super::mpi::execute(&Request::once(Kind::Run, &[item], &output), a.mpi.check()?)
}

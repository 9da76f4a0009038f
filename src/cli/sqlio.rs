//! `iolens sqlio`: the SQLIO matrix our users ran before moving SQL Server — block sizes ×
//! threads × {sequential, random} × {read, write}, each cell a short run on one 1 GiB file.

use super::values::{self, List};
use crate::error::UsageError;
use crate::result::Kind;
use crate::session::{execute, Item, Request};
use crate::workload::size::format_block;
use crate::workload::{BlockShare, Pattern, Spec};
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct SqlioArgs {
    /// File, directory (a test file is made inside) or block device [default: .]
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
    /// Block sizes (SQL Server: 8K pages, 64K extents and read-ahead, 512K scans)
    #[arg(long, default_value = "8k,64k,512k", value_name = "LIST", value_parser = values::list("--bs", values::block("--bs")))]
    pub bs: List<u64>,
    /// Thread counts
    #[arg(long, default_value = "1,4,8", value_name = "LIST", value_parser = values::list("--threads", values::whole("--threads", 1, 4096)))]
    pub threads: List<u32>,
    /// Outstanding I/Os per thread (SQLIO -o)
    #[arg(long, default_value = "1", value_name = "N", value_parser = values::whole("--qd", 1, 4096))]
    pub qd: u32,
    /// Seconds per cell (SQLIO -s)
    #[arg(long, short = 'd', default_value = "5", value_name = "SECS", value_parser = values::seconds("--duration"))]
    pub duration: f64,
    /// Test file size
    #[arg(long, default_value = "1GiB", value_name = "SIZE", value_parser = values::size("--size"))]
    pub size: u64,
    /// Also print SQLIO's latency histogram (1 ms buckets, 0 … 24+ ms) for each cell (the text
    /// report reads this flag from the recorded arguments)
    #[arg(long)]
    pub histogram: bool,
    /// Through the page cache instead of O_DIRECT (SQLIO -BN is unbuffered, the default here)
    #[arg(long)]
    pub buffered: bool,
    #[command(flatten)]
    pub common: super::common::CommonArgs,
}

/// The cells, named as DBAs write them: "8K T4 random read".
pub fn items(a: &SqlioArgs) -> Result<Vec<Item>, UsageError> {
    let (blocks, threads) = (&a.bs.0, &a.threads.0);
    let base = Spec {
        targets: vec![a.target.clone().unwrap_or_else(|| ".".into())],
        size: a.size,
        size_given: true,
        duration: a.duration,
        qd: a.qd,
        direct: !a.buffered,
        allow_write: a.common.allow_write,
        force_device: a.common.force_device,
        keep: a.common.keep,
        ..Spec::default()
    };
    let mut items = Vec::new();
    for &t in threads {
        for &b in blocks {
            for (pattern, pname) in [(Pattern::Sequential, "sequential"), (Pattern::Random, "random")] {
                for (read_pct, op) in [(100, "read"), (0, "write")] {
                    let spec = Spec {
                        blocks: vec![BlockShare { size: b, pct: 100 }],
                        threads: t,
                        pattern,
                        read_pct,
                        ..base.clone()
                    };
                    spec.validate()?;
                    items.push(Item {
                        name: format!("{} T{t} {pname} {op}", format_block(b)),
                        spec,
                        notes: Vec::new(),
                    });
                }
            }
        }
    }
    Ok(items)
}

pub fn main(a: SqlioArgs) -> anyhow::Result<i32> {
    let items = items(&a)?;
    let output = a.common.output(None)?;
    execute(&Request::once(Kind::Sqlio, &items, &output))
}

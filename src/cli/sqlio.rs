//! `iolens sqlio`: the SQLIO matrix our users ran before moving SQL Server — block sizes ×
//! threads × {sequential, random} × {read, write}, each cell a short run on one 1 GiB file.

use crate::error::{usage, UsageError};
use crate::result::Kind;
use crate::session::{execute, Item, Request};
use crate::workload::size::format_block;
use crate::workload::{parse, BlockShare, Pattern, Spec};
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct SqlioArgs {
    /// File, directory (a test file is made inside) or block device [default: .]
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
    /// Block sizes (SQL Server: 8K pages, 64K extents and read-ahead, 512K scans)
    #[arg(long, default_value = "8k,64k,512k", value_name = "LIST")]
    pub bs: String,
    /// Thread counts
    #[arg(long, default_value = "1,4,8", value_name = "LIST")]
    pub threads: String,
    /// Outstanding I/Os per thread (SQLIO -o)
    #[arg(long, default_value = "1", value_name = "N")]
    pub qd: String,
    /// Seconds per cell (SQLIO -s)
    #[arg(long, short = 'd', default_value = "5", value_name = "SECS")]
    pub duration: String,
    /// Test file size
    #[arg(long, default_value = "1GiB", value_name = "SIZE")]
    pub size: String,
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

fn list<T>(opt: &str, s: &str, one: impl Fn(&str) -> Result<T, UsageError>) -> Result<Vec<T>, UsageError> {
    let v: Vec<T> = s.split(',').map(|x| one(x.trim())).collect::<Result<_, _>>()?;
    if v.is_empty() {
        return usage(opt, "the list is empty");
    }
    Ok(v)
}

/// The cells, named as DBAs write them: "8K T4 random read".
pub fn items(a: &SqlioArgs) -> Result<Vec<Item>, UsageError> {
    let blocks = list("--bs", &a.bs, |s| parse::block_size("--bs", s))?;
    let threads = list("--threads", &a.threads, |s| match s.parse::<u32>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => usage("--threads", format!("'{s}' is not allowed; use 1-1024")),
    })?;
    let qd = match a.qd.parse::<u32>() {
        Ok(n) if (1..=4096).contains(&n) => n,
        _ => return usage("--qd", format!("'{}' is not allowed; use 1-4096", a.qd)),
    };
    let base = Spec {
        targets: vec![a.target.clone().unwrap_or_else(|| ".".into())],
        size: parse::size("--size", &a.size)?,
        size_given: true,
        duration: parse::seconds("--duration", &a.duration)?,
        qd,
        direct: !a.buffered,
        allow_write: a.common.allow_write,
        force_device: a.common.force_device,
        keep: a.common.keep,
        ..Spec::default()
    };
    let mut items = Vec::new();
    for &t in &threads {
        for &b in &blocks {
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

//! `iolens pattern NAME`: a database's I/O pattern as a ready workload; `iolens pattern
//! --from-stats BEFORE AFTER TARGET`: the workload the database's own counters saw (`stats`).

mod stats;

use crate::error::UsageError;
use crate::result::Kind;
use crate::session::{Item, Request};
use crate::workload::dbpatterns::{pattern, Db};
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct PatternArgs {
    /// oltp, log, readahead, checkpoint, backup, restore, dss or tempdb (with --from-stats: the TARGET)
    #[arg(value_name = "PATTERN")]
    pub name: Option<String>,
    /// File, directory (a test file is made inside) or block device [default: .]
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
    /// Whose sizes: sqlserver, postgres or db2
    #[arg(long, default_value = "sqlserver", value_name = "DB", value_parser = Db::named)]
    pub db: Db,
    /// Db2's page size: 4k, 8k, 16k or 32k [default: 4k]
    #[arg(long, value_name = "SIZE", value_parser = super::values::size("--page-size"))]
    pub page_size: Option<u64>,
    /// Measured seconds
    #[arg(long, short = 'd', default_value = "10", value_name = "SECS", value_parser = super::values::seconds("--duration"))]
    pub duration: f64,
    /// Test file size
    #[arg(long, default_value = "1GiB", value_name = "SIZE", value_parser = super::values::size("--size"))]
    pub size: u64,
    /// The workload between two snapshots of SQL Server's sys.dm_io_virtual_file_stats or
    /// PostgreSQL's pg_stat_io (docs/database-counters.md), each file at its observed rates
    #[arg(long, num_args = 2, value_names = ["BEFORE.csv", "AFTER.csv"])]
    pub from_stats: Vec<std::path::PathBuf>,
    /// Through the page cache instead of O_DIRECT (databases bypass it, as SQL Server and Db2 do)
    #[arg(long)]
    pub buffered: bool,
    #[command(flatten)]
    pub mpi: super::mpi::MpiArgs,
    #[command(flatten)]
    pub common: super::common::CommonArgs,
}

pub fn item(a: &PatternArgs) -> Result<Item, UsageError> {
    let Some(name) = a.name.as_deref() else {
        return Err(UsageError::new(
            "PATTERN",
            format!(
                "name a pattern ({}) or give --from-stats BEFORE.csv AFTER.csv",
                crate::workload::dbpatterns::NAMES.join(", ")
            ),
        ));
    };
    let db = a.db.with_page(a.page_size)?;
    let base = a.common.base_spec(a.target.as_deref(), a.size, a.duration, a.buffered);
    let p = pattern(name, db, &base)?;
    Ok(Item { name: name.to_string(), spec: p.spec, notes: vec![p.description] })
}

pub fn main(a: PatternArgs) -> anyhow::Result<i32> {
    if !a.from_stats.is_empty() {
        return stats::main(&a);
    }
    let item = item(&a)?;
    let output = a.common.output(None)?;
    super::mpi::execute(&Request::once(Kind::Pattern, &[item], &output), a.mpi.check()?)
}

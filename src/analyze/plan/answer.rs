//! What `plan` answers, as the structures its JSON is: a named configuration's prediction, and
//! the target a database's counters give (`--from-stats`) beside the configurations found.
//! docs/result-schema.md describes the JSON. The command line parses the options and prints;
//! the figures are made here.

use super::{at_sizes, AtSize, Candidate};
use crate::analyze::catalog::{Caps, Catalog, Disk};
use crate::analyze::{expected, Config};
use crate::error::UsageError;
use crate::result::analysis::Expected;
use crate::workload::observed::Observed;
use serde::Serialize;

/// The block sizes a prediction shows.
pub const SIZES: [u64; 6] = [4 << 10, 8 << 10, 64 << 10, 256 << 10, 512 << 10, 1 << 20];

/// What a named configuration (`--disk` and/or `--vm`) should give: its caps and which limit
/// binds, then IOPS and MB/s at each of `SIZES`, sustained and while bursting.
#[derive(Debug, Clone, Serialize)]
pub struct Prediction {
    pub expected: Expected,
    pub at_block_size: Vec<AtSize>,
    /// Absent when nothing bursts above the sustained figures.
    pub at_block_size_burst: Option<Vec<AtSize>>,
    /// The I/O size the disk counts as one, KiB (a larger I/O counts as several).
    #[serde(skip)]
    pub unit_kib: Option<u32>,
}

/// The prediction for `cfg`, and its disk's catalog row; an error naming `--disk` when `cfg`
/// names neither a disk nor a VM.
pub fn predict<'c>(cat: &'c Catalog, cfg: &Config) -> Result<(Prediction, Option<&'c Disk>), UsageError> {
    let x = expected(cat, cfg)?
        .ok_or_else(|| UsageError::new("--disk", "name a disk (--disk) and/or a VM (--vm) to predict"))?;
    let disk = cfg.disk.as_deref().and_then(|d| cat.disk(d));
    let unit_kib = disk.and_then(|d| d.io_unit_kib);
    let at_block_size = at_sizes(Caps { iops: x.iops, mbps: x.mbps.unwrap_or(f64::INFINITY) }, unit_kib, &SIZES);
    let at_block_size_burst = x.burst_iops.map(|i| {
        let m = x.burst_mbps.or(x.mbps).unwrap_or(f64::INFINITY);
        at_sizes(Caps { iops: i, mbps: m }, unit_kib, &SIZES)
    });
    Ok((Prediction { expected: x, at_block_size, at_block_size_burst, unit_kib }, disk))
}

/// IOPS and MB/s (10^6 B/s).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rates {
    pub iops: f64,
    pub mbps: f64,
}

/// What a database's counters saw between two snapshots, and the target they give with
/// headroom above it.
#[derive(Debug, Clone, Serialize)]
pub struct FromStats {
    pub observed: Vec<Observed>,
    /// Reads and writes per second of every file together.
    pub observed_iops: f64,
    /// 10^6 B/s.
    pub observed_mbps: f64,
    pub headroom_pct: f64,
    /// The observed rates raised by the headroom: what the plan is for.
    pub target: Rates,
}

impl FromStats {
    pub fn new(observed: Vec<Observed>, headroom_pct: f64) -> FromStats {
        let observed_iops = observed.iter().map(|o| o.reads_per_s() + o.writes_per_s()).sum();
        let observed_mbps = observed.iter().map(|o| o.mbps()).sum();
        let scale = 1.0 + headroom_pct / 100.0;
        let target = Rates { iops: observed_iops * scale, mbps: observed_mbps * scale };
        FromStats { observed, observed_iops, observed_mbps, headroom_pct, target }
    }
}

/// `plan --from-stats`'s answer: the counters' target and the configurations that meet it.
#[derive(Debug, Clone, Serialize)]
pub struct StatsPlan<'a> {
    #[serde(flatten)]
    pub stats: &'a FromStats,
    pub candidates: &'a [Candidate],
}

#[cfg(test)]
mod tests;

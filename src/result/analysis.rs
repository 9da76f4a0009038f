//! What `explain` and `check` store about a result: the walls, the catalog rows they match, the
//! limits a named configuration should show, and advice. This is stored schema (SQLite and JSON,
//! docs/result-schema.md); `analyze` computes it and owns none of it, so renaming a field here is
//! a visible schema change, never a side effect of analysis code.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// What `explain` finds. The top-level walls are the reads' (the writes' where no reads were
/// measured); every key is absent when not found, never zero.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Explanation {
    /// The headline walls: the reads', or the writes' where no reads were measured. Their keys
    /// (`iops_cap`, `mbps_cap`, `knee_qd`, `binding` …) sit at the top level of the JSON.
    #[serde(flatten)]
    pub walls: Walls,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reads: Option<Walls>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub writes: Option<Walls>,
    /// Read IOPS over write IOPS at the same block size and queue depth, measured together:
    /// the median over such pairs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_write_ratio: Option<f64>,
    /// Why that ratio may not hold, when it may not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratio_unsure: Option<String>,
    /// How far apart repeated measurements of one point came out: how repeatable the target
    /// was. Absent when no point was measured twice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeatability: Option<Repeatability>,
    /// The catalog rows the headline walls match.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<Match>,
    /// The rows the writes' walls match, where reads were measured too (and head the result).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub write_matches: Vec<Match>,
    /// Matching tolerance, ± %.
    pub tolerance_pct: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
    pub advice: Vec<Advice>,
    /// The tests whose per-second figures shifted, each shift with its cause where one could
    /// be named.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub over_time: Vec<super::shifts::TestShifts>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Advice {
    pub advice: String,
    /// The measurement it follows from.
    pub because: String,
    /// Set when the measurement cannot back it: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsure: Option<String>,
}

/// The spread of points measured more than once in one result (one workload: direction,
/// pattern, block size, queue depth and threads).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Repeatability {
    /// Points measured twice or more.
    pub points: u32,
    /// The largest (max − min) ÷ mean of one point's IOPS, %.
    pub spread_pct: f64,
    /// That point and its figures: "4K random read QD 1: 11,340, 38,825 IOPS".
    pub worst: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyBound {
    /// Outstanding I/Os over which IOPS grew in step with them.
    pub from_qd: u32,
    pub to_qd: u32,
    /// Mean latency over that region, µs: IOPS ≈ outstanding ÷ this.
    pub latency_us: f64,
}

/// The figure that stays flat under a throttle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Flat {
    /// IOPS (and MB/s where one block size was measured).
    Iops,
    Mbps,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Throttle {
    pub iops: f64,
    /// 10^6 B/s.
    pub mbps: f64,
    pub on: Flat,
}

/// The wall that limits one block size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Wall {
    Iops,
    Mbps,
    Throttle,
    /// Neither cap reached: not enough I/O in flight, or the device itself.
    Latency,
}

/// The walls of one direction (reads or writes). Every field is absent when not found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Walls {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iops_cap: Option<f64>,
    /// 10^6 B/s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mbps_cap: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knee_qd: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_bound: Option<LatencyBound>,
    /// Bytes: below it the IOPS cap binds, above it the bandwidth cap (= MB/s cap ÷ IOPS cap).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crossover_bs: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throttle: Option<Throttle>,
    /// Per block size as measured ("4K").
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub binding: BTreeMap<String, Wall>,
    /// Outstanding I/Os of the block-size sweep.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep_qd: Option<u32>,
    /// Block size of the queue-depth sweep, bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep_bs: Option<u64>,
    /// I/Os in flight at the queue-depth sweep's deepest point: where "still growing" stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deepest_qd: Option<u32>,
    /// The walls above the measurement cannot back, by field name (`knee_qd`, `iops_cap`,
    /// `mbps_cap`, `throttle`, `latency_bound`), each with why: a point that disagrees with
    /// both its neighbours and was measured once, or repeated points further apart than the
    /// differences the wall is told by.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub unsure: BTreeMap<String, String>,
}

impl Flat {
    pub fn as_str(&self) -> &'static str {
        match self {
            Flat::Iops => "iops",
            Flat::Mbps => "mbps",
        }
    }
}

impl fmt::Display for Flat {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Wall {
    /// As stored in JSON: "iops", "mbps", "throttle", "latency".
    pub fn as_str(&self) -> &'static str {
        match self {
            Wall::Iops => "iops",
            Wall::Mbps => "mbps",
            Wall::Throttle => "throttle",
            Wall::Latency => "latency",
        }
    }
}

impl fmt::Display for Wall {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Walls {
    /// The block sizes where `wall` binds, as measured ("4K"), in key order.
    pub fn sizes_bound_by(&self, wall: Wall) -> impl Iterator<Item = &String> {
        self.binding.iter().filter(move |(_, b)| **b == wall).map(|(k, _)| k)
    }
}

/// Which published limit of a catalog row a cap matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Disk,
    DiskBurst,
    VmUncached,
    VmCached,
    VmBurst,
}

/// Which of the row's figures matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axes {
    IopsAndMbps,
    Iops,
    Mbps,
}

/// What matched, stored as one phrase: "iops and mbps", "burst iops", "VM uncached mbps" …
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct MatchOn {
    pub limit: Limit,
    pub axes: Axes,
}

const LIMITS: [(Limit, &str); 5] = [
    (Limit::Disk, ""),
    (Limit::DiskBurst, "burst"),
    (Limit::VmUncached, "VM uncached"),
    (Limit::VmCached, "VM cached"),
    (Limit::VmBurst, "VM burst"),
];
const AXES: [(Axes, &str); 3] = [(Axes::IopsAndMbps, "iops and mbps"), (Axes::Iops, "iops"), (Axes::Mbps, "mbps")];

impl MatchOn {
    pub fn is_burst(&self) -> bool {
        matches!(self.limit, Limit::DiskBurst | Limit::VmBurst)
    }
}

impl fmt::Display for MatchOn {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let l = LIMITS.iter().find(|(l, _)| *l == self.limit).map_or("", |x| x.1);
        let a = AXES.iter().find(|(a, _)| *a == self.axes).map_or("", |x| x.1);
        if l.is_empty() {
            f.write_str(a)
        } else {
            write!(f, "{l} {a}")
        }
    }
}

impl From<MatchOn> for String {
    fn from(m: MatchOn) -> String {
        m.to_string()
    }
}

impl TryFrom<String> for MatchOn {
    type Error = String;
    fn try_from(s: String) -> Result<MatchOn, String> {
        // The longest limit prefix first: "VM burst" before "burst"'s bare form.
        for (limit, prefix) in LIMITS.iter().rev() {
            let rest = if prefix.is_empty() { Some(s.as_str()) } else { s.strip_prefix(prefix).map(str::trim_start) };
            if let Some(axes) = rest.and_then(|r| AXES.iter().find(|(_, n)| *n == r)) {
                return Ok(MatchOn { limit: *limit, axes: axes.0 });
            }
        }
        Err(format!("'{s}' is not a match kind"))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Match {
    /// "Azure Premium SSD P30", or several tiers with the same limits: "Azure Standard SSD E1–E50".
    pub name: String,
    pub iops: f64,
    /// 10^6 B/s; absent where the row publishes no MB/s limit.
    pub mbps: Option<f64>,
    pub on: MatchOn,
    /// Where the catalog row's figures come from, and the day that was read: "A41, A39 (read
    /// 2026-11-27)". Absent in results stored before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// The limits a configuration should show: `count` disks striped, behind a VM's uncached (or,
/// with host caching, cached) limit; the lower wins on each axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    pub iops: f64,
    /// 10^6 B/s; absent where nothing named publishes a MB/s limit (legacy unmanaged disks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mbps: Option<f64>,
    /// What sets each: "4 × P30" or "VM D8s_v3 uncached".
    pub iops_by: String,
    pub mbps_by: String,
    /// The disks' sum alone, before the VM's limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disks_iops: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disks_mbps: Option<f64>,
    /// While bursting (disk credit bursting and VM-level bursting; a disk's on-demand bursting
    /// only when asked for): the same figures, absent when nothing bursts above them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst_iops: Option<f64>,
    /// 10^6 B/s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst_mbps: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst_iops_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst_mbps_by: Option<String>,
    /// How each part that bursts does it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bursts: Vec<Burst>,
    /// Where the catalog's figures for each part come from, with the day read: "P30: A41, A39
    /// (read 2026-11-27)". Empty in results stored before it was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<String>,
}

/// How a disk or VM bursts above its sustained limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BurstModel {
    /// Credits earned below the baseline pay for bursts (Azure: a full bucket lasts 30 minutes;
    /// AWS EC2: 30 minutes at least once a day); sustained load falls back to the baseline.
    Credit,
    /// Enabled on the disk and billed per burst transaction (Azure P30 and larger): lasts as long
    /// as it is paid for.
    OnDemand,
}

impl BurstModel {
    pub fn describe(&self) -> &'static str {
        match self {
            BurstModel::Credit => {
                "credit-based: bursts while its credits last (earned below the sustained figure), then falls back"
            }
            BurstModel::OnDemand => "on demand: bursts as long as it is enabled, billed per burst",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Burst {
    /// "VM D2s_v4" or "3 × P10".
    pub by: String,
    pub model: BurstModel,
    /// The catalog's terms: "credit, 30 min", "on-demand (billed)".
    pub terms: String,
    pub iops: f64,
    /// 10^6 B/s; absent where none is published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mbps: Option<f64>,
}

/// `explain ID|LABEL|FILE… --format json`: the results explained together, as they were named
/// (a stored result by its id, a result file by its path), and what they show.
#[derive(Debug, Clone, Serialize)]
pub struct ExplainedResults {
    pub analysis: Explanation,
    pub results: Vec<ResultRef>,
}

/// A result as `explain` was given it: a stored result's id, or a result file's path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ResultRef {
    Id(i64),
    File(String),
}

#[cfg(test)]
mod tests;

impl super::RunResult {
    /// Whether `t` is one of check's CrystalDiskMark tests, run before its sweep (whose tests'
    /// names start with "sweep "): a set of tests measured apart from the sweep's.
    pub fn in_check_profile(&self, t: &super::TestResult) -> bool {
        self.kind() == super::Kind::Check && !t.name.starts_with("sweep ")
    }
}

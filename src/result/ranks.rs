//! One row per MPI rank of a multi-host run (`--mpi`): who ran it, what it measured, and how
//! far its start and its clock were from rank 0's. The combined test beside these rows is the
//! exact merge of their histograms; the rows keep the histograms so anyone can check it.

use super::{Histograms, SecondStats};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankStats {
    /// MPI rank (0 gathered and reported).
    pub rank: u32,
    /// Host name of the machine the rank ran on.
    pub host: String,
    /// The rank's targets, `{rank}` expanded.
    pub targets: Vec<String>,
    pub ios: u64,
    pub bytes: u64,
    pub iops: f64,
    /// 10^6 bytes per second.
    pub mbps: f64,
    pub mean_us: Option<f64>,
    pub p99_us: Option<f64>,
    /// Measured seconds of this rank.
    pub duration_s: f64,
    /// When the rank's I/O began (its measured window less the warm-up) relative to the
    /// common start time, ms on rank 0's clock (positive: late): clock error and set-up
    /// together. The spread of these is the run's start spread.
    pub start_offset_ms: f64,
    /// The rank's wall clock minus rank 0's, ms, from the fastest of several round trips.
    pub clock_offset_ms: f64,
    /// That round trip, ms: the offset is known to within half of it.
    pub clock_rtt_ms: f64,
    /// When the rank stopped measuring relative to the common start, ms on rank 0's clock.
    pub end_offset_ms: f64,
    /// On a target every rank shares, the part this rank tested: (offset, length) in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<(u64, u64)>,
    /// What the rank had measured when the first rank was done: the common window's share
    /// of this rank (all of its test under `--stonewall first-done`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_done: Option<FirstDone>,
    /// The rank's service-latency histograms: the combined test's are their exact merge.
    pub histograms: Histograms,
    /// The rank's seconds with their latency buckets: the combined seconds' percentiles are
    /// their exact merge.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seconds: Vec<SecondStats>,
}

/// A rank's measured I/Os, bytes and seconds at the moment the first rank was done.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct FirstDone {
    pub ios: u64,
    pub bytes: u64,
    pub seconds: f64,
}

/// The ranks together over the common window (from the start until the first rank was done):
/// each rank's rate in it, summed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Common {
    pub iops: f64,
    /// 10^6 bytes per second.
    pub mbps: f64,
    pub ios: u64,
    /// The longest of the ranks' shares of the window, s.
    pub seconds: f64,
    /// Every rank's I/Os over the longest rank's measured time: what the ranks did together
    /// by the time the last was done.
    pub last_iops: f64,
    pub last_mbps: f64,
}

/// None unless every rank has its share of the common window.
pub fn common_window(ranks: &[RankStats]) -> Option<Common> {
    let parts: Vec<FirstDone> = ranks.iter().map(|r| r.first_done).collect::<Option<_>>()?;
    let longest = ranks.iter().map(|r| r.duration_s).fold(f64::MIN_POSITIVE, f64::max);
    let rate =
        |f: fn(&FirstDone) -> u64| parts.iter().filter(|p| p.seconds > 0.0).map(|p| f(p) as f64 / p.seconds).sum();
    (!parts.is_empty()).then(|| Common {
        iops: rate(|p| p.ios),
        mbps: rate(|p| p.bytes) / 1e6,
        ios: parts.iter().map(|p| p.ios).sum(),
        seconds: parts.iter().map(|p| p.seconds).fold(0.0, f64::max),
        last_iops: ranks.iter().map(|r| r.ios).sum::<u64>() as f64 / longest,
        last_mbps: ranks.iter().map(|r| r.bytes).sum::<u64>() as f64 / longest / 1e6,
    })
}

/// How far apart the ranks of a test started and ended, ms on rank 0's clock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    pub start_spread_ms: f64,
    pub first_done_ms: f64,
    pub last_done_ms: f64,
    /// The clock offsets are known to within this (half the slowest round trip).
    pub clock_within_ms: f64,
}

pub fn spread(ranks: &[RankStats]) -> Option<Spread> {
    if ranks.is_empty() {
        return None;
    }
    let range = |f: fn(&RankStats) -> f64| {
        let v = ranks.iter().map(f);
        (v.clone().fold(f64::MAX, f64::min), v.fold(f64::MIN, f64::max))
    };
    let (first_start, last_start) = range(|r| r.start_offset_ms);
    let (first_done_ms, last_done_ms) = range(|r| r.end_offset_ms);
    Some(Spread {
        start_spread_ms: last_start - first_start,
        first_done_ms,
        last_done_ms,
        clock_within_ms: ranks.iter().map(|r| r.clock_rtt_ms).fold(0.0, f64::max) / 2.0,
    })
}

/// The ranks' parts of a shared target, for a report: "rank 0 4MiB at 0, rank 1 4MiB at
/// 4MiB, …"; None when the ranks have targets of their own.
pub fn parts(ranks: &[RankStats]) -> Option<String> {
    let size = crate::workload::size::format_size;
    let at = |o: u64| if o == 0 { "0".to_string() } else { size(o) };
    let each: Option<Vec<String>> =
        ranks.iter().map(|r| r.region.map(|(o, l)| format!("rank {} {} at {}", r.rank, size(l), at(o)))).collect();
    each.filter(|e| !e.is_empty()).map(|e| e.join(", "))
}

/// How many ranks ran a multi-host result, on how many hosts, from its test with the most
/// ranks; None for a result of one host.
pub fn count(tests: &[super::TestResult]) -> Option<(usize, usize)> {
    let ranks = tests.iter().map(|t| &t.ranks).max_by_key(|r| r.len()).filter(|r| !r.is_empty())?;
    let hosts = ranks.iter().map(|r| r.host.as_str()).collect::<std::collections::BTreeSet<_>>();
    Some((ranks.len(), hosts.len()))
}

/// Who ran a result, for a heading: its host, or for a multi-host result rank 0's with how
/// many ranks on how many hosts ran it ("node0 (rank 0), 8 ranks on 8 hosts").
pub fn who(tests: &[super::TestResult], host: &str) -> String {
    match count(tests) {
        None => host.to_string(),
        Some((n, 1)) => format!("{host}, {n} ranks on 1 host"),
        Some((n, hosts)) => format!("{host} (rank 0), {n} ranks on {hosts} hosts"),
    }
}

/// The rank whose p99 is more than twice every other rank's: one slow host hides behind the
/// others' I/Os in a combined figure.
pub fn outlier(ranks: &[RankStats]) -> Option<u32> {
    let mut p99: Vec<(f64, u32)> = ranks.iter().filter_map(|r| Some((r.p99_us?, r.rank))).collect();
    p99.sort_by(|a, b| b.0.total_cmp(&a.0));
    match p99[..] {
        [(worst, rank), (next, _), ..] if worst > 2.0 * next => Some(rank),
        _ => None,
    }
}

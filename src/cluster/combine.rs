//! The ranks' tests into one: throughput is summed, latency histograms are merged bucket for
//! bucket (so the combined percentiles are those of one histogram of every rank's I/Os, not an
//! average of percentiles), and each rank keeps its row. Pure: no MPI, so it is tested in every
//! build.

use crate::result::ranks::{FirstDone, RankStats};
use crate::result::{FsyncStats, Histograms, IoErrors, OpStats, ResponseLat, SecondStats, TestResult, ThreadStats};
use crate::stats::{HistDump, LatRec, SecondHist};

/// What a rank knows about itself when its test ends: the row it contributes.
pub struct RankMeta {
    pub rank: u32,
    pub host: String,
    pub start_offset_ms: f64,
    pub end_offset_ms: f64,
    pub clock_offset_ms: f64,
    pub clock_rtt_ms: f64,
    /// The rank's part of a shared target, (offset, length).
    pub region: Option<(u64, u64)>,
    /// What it had measured when the first rank was done.
    pub first_done: Option<FirstDone>,
}

/// The rank's row for one of its tests (stored in the test's `ranks`, alone, until combined).
pub fn rank_row(t: &TestResult, m: &RankMeta) -> RankStats {
    RankStats {
        rank: m.rank,
        host: m.host.clone(),
        targets: t.spec.targets.clone(),
        ios: t.total.ios,
        bytes: t.total.bytes,
        iops: t.total.iops,
        mbps: t.total.mbps,
        mean_us: t.total.lat_us.mean,
        p99_us: t.total.lat_us.percentiles.get("99"),
        duration_s: t.duration_s,
        start_offset_ms: m.start_offset_ms,
        end_offset_ms: m.end_offset_ms,
        clock_offset_ms: m.clock_offset_ms,
        clock_rtt_ms: m.clock_rtt_ms,
        region: m.region,
        first_done: m.first_done,
        histograms: t.histograms.clone(),
        seconds: t.seconds.clone(),
    }
}

fn merged(dumps: impl Iterator<Item = HistDump>) -> LatRec {
    let mut all = LatRec::default();
    for d in dumps {
        all += &LatRec::from_dump(&d);
    }
    all
}

fn sum_op(parts: &[&OpStats], lat: &LatRec) -> OpStats {
    let sum = |f: &dyn Fn(&OpStats) -> f64| parts.iter().map(|o| f(o)).sum::<f64>();
    OpStats {
        ios: parts.iter().map(|o| o.ios).sum(),
        bytes: parts.iter().map(|o| o.bytes).sum(),
        iops: sum(&|o| o.iops),
        mbps: sum(&|o| o.mbps),
        mibps: sum(&|o| o.mibps),
        lat_us: lat.summary(),
    }
}

/// One test per rank (rank order, each carrying its own row) into the combined test.
pub fn combine(per_rank: &[TestResult]) -> Option<TestResult> {
    let first = per_rank.first()?;
    let read = merged(per_rank.iter().map(|t| t.histograms.read.clone()));
    let write = merged(per_rank.iter().map(|t| t.histograms.write.clone()));
    let trims = per_rank.iter().any(|t| t.histograms.trim.is_some());
    let trim = trims.then(|| merged(per_rank.iter().filter_map(|t| t.histograms.trim.clone())));
    let mut total = read.clone();
    total += &write;
    if let Some(t) = &trim {
        total += t;
    }
    let ops = |f: fn(&TestResult) -> &OpStats| per_rank.iter().map(f).collect::<Vec<_>>();
    let mut notices = notices(per_rank);
    let response = response(per_rank, [&read, &write, &total], &mut notices);
    Some(TestResult {
        name: first.name.clone(),
        spec: spec(per_rank),
        engine: first.engine.clone(),
        depth: first.depth,
        notices,
        options: first.options.clone(),
        group: first.group,
        started_at: first.started_at.clone(),
        duration_s: per_rank.iter().map(|t| t.duration_s).fold(0.0, f64::max),
        interrupted: per_rank.iter().any(|t| t.interrupted),
        read: sum_op(&ops(|t| &t.read), &read),
        write: sum_op(&ops(|t| &t.write), &write),
        trim: trim
            .as_ref()
            .map(|rec| sum_op(&per_rank.iter().filter_map(|t| t.trim.as_ref()).collect::<Vec<_>>(), rec)),
        total: sum_op(&ops(|t| &t.total), &total),
        response,
        fsync: fsync(per_rank),
        threads: threads(per_rank),
        seconds: seconds(per_rank),
        shifts: Vec::new(),
        dropped: None,
        cpu: first.cpu.clone(),
        disks: per_rank.iter().flat_map(|t| t.disks.iter().cloned()).collect(),
        mean_qd: per_rank.iter().map(|t| t.mean_qd).sum(),
        // The combined test's are merges already; only rows keep the others, for checking.
        histograms: Histograms::service(read.dump(), write.dump(), trim.as_ref().map(LatRec::dump)),
        verify: per_rank.iter().find_map(|t| t.verify.clone()),
        errors: errors(per_rank),
        failed: per_rank.iter().find_map(|t| t.failed.as_ref().map(|f| format!("rank {}: {f}", rank_of(t)))),
        ranks: per_rank.iter().flat_map(|t| t.ranks.iter().cloned()).collect(),
        // Each rank judges its own steady state and stops on it; there is no one window.
        steady: None,
        replay: None,
        stages: None,
    })
}

/// Rank 0's notices, then each other rank's it did not have, named by rank, then the outlier.
fn notices(per_rank: &[TestResult]) -> Vec<String> {
    let mut notices = per_rank[0].notices.clone();
    for t in &per_rank[1..] {
        for n in &t.notices {
            if !notices.contains(n) {
                notices.push(format!("rank {}: {n}", rank_of(t)));
            }
        }
    }
    notices.extend(outlier(per_rank));
    notices
}

/// The response latency of a paced test from every rank's histograms; unpaced, the service
/// latency (`service`: read, write, total, merged already). Without every rank's histograms
/// (an older iolens did not keep them), rank 0's, said in `notices`.
fn response(per_rank: &[TestResult], service: [&LatRec; 3], notices: &mut Vec<String>) -> ResponseLat {
    let first = &per_rank[0];
    if first.spec.rate_iops.is_none() && first.spec.rate_mbps.is_none() {
        // Unpaced, an I/O's response time is its service time.
        let [read, write, total] = service;
        return ResponseLat { read: read.summary(), write: write.summary(), total: total.summary() };
    }
    let all = |f: fn(&Histograms) -> &Option<HistDump>| -> Option<LatRec> {
        let dumps: Option<Vec<HistDump>> = per_rank.iter().map(|t| f(&t.histograms).clone()).collect();
        dumps.map(|d| merged(d.into_iter()))
    };
    match (all(|h| &h.response_read), all(|h| &h.response_write)) {
        (Some(r), w) => {
            let w = w.unwrap_or_default();
            let mut both = r.clone();
            both += &w;
            ResponseLat { read: r.summary(), write: w.summary(), total: both.summary() }
        }
        _ => {
            notices.push("response latency is rank 0's; service latency is every rank's".into());
            first.response.clone()
        }
    }
}

/// Rank 0's spec over every rank's targets; on one shared target, over the ranks' parts
/// together.
fn spec(per_rank: &[TestResult]) -> crate::workload::Spec {
    let first = &per_rank[0];
    let mut spec = first.spec.clone();
    let parts: Option<Vec<(u64, u64)>> = per_rank.iter().map(|t| t.ranks.first().and_then(|r| r.region)).collect();
    match parts {
        Some(p) if per_rank.iter().all(|t| t.spec.targets == first.spec.targets) => {
            spec.offset = p.iter().map(|r| r.0).min().unwrap_or(0);
            spec.range = Some(p.iter().map(|r| r.1).sum());
        }
        _ => spec.targets = per_rank.iter().flat_map(|t| t.spec.targets.iter().cloned()).collect(),
    }
    spec
}

/// Every rank's fsyncs; a rank without fsyncs keeps no fsync histogram.
fn fsync(per_rank: &[TestResult]) -> FsyncStats {
    let dumps: Option<Vec<HistDump>> =
        per_rank.iter().filter(|t| t.fsync.count > 0).map(|t| t.histograms.fsync.clone()).collect();
    FsyncStats {
        count: per_rank.iter().map(|t| t.fsync.count).sum(),
        lat_us: match dumps.map(|d| merged(d.into_iter())) {
            Some(rec) => rec.summary(),
            // From an older iolens, without the histograms: the busiest rank stands for all.
            None => per_rank.iter().max_by_key(|t| t.fsync.count).map(|t| t.fsync.lat_us.clone()).unwrap(),
        },
    }
}

/// Every rank's threads, numbered on after the previous ranks' threads and targets.
fn threads(per_rank: &[TestResult]) -> Vec<ThreadStats> {
    let mut threads = Vec::new();
    let mut base = 0u32;
    for t in per_rank {
        let n = threads.len() as u32;
        threads.extend(t.threads.iter().cloned().map(|mut th| {
            th.thread += n;
            th.target += base;
            th
        }));
        base += t.spec.targets.len() as u32;
    }
    threads
}

/// Every rank's failed I/Os summed; the first is the first rank's that had one, named by rank.
fn errors(per_rank: &[TestResult]) -> IoErrors {
    let mut errors = IoErrors::default();
    for t in per_rank {
        errors.read += t.errors.read;
        errors.write += t.errors.write;
        if errors.first.is_none() && t.errors.first.is_some() {
            errors.first = t.errors.first.as_ref().map(|f| format!("rank {}: {f}", rank_of(t)));
            errors.first_errno = t.errors.first_errno;
        }
    }
    errors
}

/// The rank whose p99 is more than twice any other's: in a combined figure one slow host hides
/// behind the others' I/Os, so it is named.
fn outlier(per_rank: &[TestResult]) -> Option<String> {
    let mut p99: Vec<(f64, &TestResult)> =
        per_rank.iter().filter_map(|t| Some((t.total.lat_us.percentiles.get("99")?, t))).collect();
    if p99.len() < 2 {
        return None;
    }
    p99.sort_by(|a, b| b.0.total_cmp(&a.0));
    let ((worst, t), next) = (p99[0], p99[1].0);
    let host = t.ranks.first().map_or(String::new(), |r| format!(" ({})", r.host));
    (worst > 2.0 * next).then(|| {
        format!("rank {}{host} is an outlier: p99 {worst:.1} µs, the next highest rank's {next:.1} µs", rank_of(t))
    })
}

fn rank_of(t: &TestResult) -> u32 {
    t.ranks.first().map_or(0, |r| r.rank)
}

/// Second by second, the ranks' throughput summed and their latency buckets merged: the
/// percentiles of one histogram of that second's I/Os on every rank. Seconds count from each
/// rank's start, which the common start time puts within milliseconds of the others'. Ranks
/// that sent no buckets (an older iolens) leave the highest p50/p99 any rank saw.
fn seconds(per_rank: &[TestResult]) -> Vec<SecondStats> {
    let n = per_rank.iter().map(|t| t.seconds.len()).max().unwrap_or(0);
    (0..n)
        .map(|i| {
            let at: Vec<&SecondStats> = per_rank.iter().filter_map(|t| t.seconds.get(i)).collect();
            let sum = |f: fn(&SecondStats) -> f64| at.iter().map(|s| f(s)).sum::<f64>();
            let max = |f: fn(&SecondStats) -> Option<f64>| at.iter().filter_map(|s| f(s)).reduce(f64::max);
            let exact = at.iter().all(|s| !s.latency_ns.is_empty() || s.p99_us.is_none());
            let mut h = SecondHist::default();
            for s in &at {
                h.add(&SecondHist::from_buckets(&s.latency_ns));
            }
            let pct = |p: f64, f: fn(&SecondStats) -> Option<f64>| if exact { h.percentile_us(p) } else { max(f) };
            SecondStats {
                second: i as u32 + 1,
                read_iops: sum(|s| s.read_iops),
                write_iops: sum(|s| s.write_iops),
                iops: sum(|s| s.iops),
                mbps: sum(|s| s.mbps),
                mibps: sum(|s| s.mibps),
                p50_us: pct(50.0, |s| s.p50_us),
                p99_us: pct(99.0, |s| s.p99_us),
                latency_ns: Vec::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;

//! Turns the merged worker records into the `TestResult`.

use super::live::{Collector, SecondAgg};
use super::worker::WorkerRec;
use crate::result::{
    FsyncStats, Histograms, IoErrors, OpStats, ResponseLat, SecondStats, TestResult, ThreadOp, ThreadStats,
};
use crate::stats::cpu::CpuSnapshot;
use crate::stats::{stddev, LatRec};
use crate::workload::{EngineKind, Spec};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Set by a multi-host run: each second's latency buckets, and the response and fsync
/// histograms, go into its results, so rank 0 can merge the ranks' figures exactly. Off,
/// results stay small.
static MERGEABLE: AtomicBool = AtomicBool::new(false);

pub fn keep_mergeable() {
    MERGEABLE.store(true, Ordering::Relaxed);
}

pub struct Parts<'a> {
    pub spec: &'a Spec,
    pub engine: EngineKind,
    pub depth: u32,
    pub notices: Vec<String>,
    /// When the group's workers started.
    pub started_at: std::time::SystemTime,
    pub recs: &'a [WorkerRec],
    pub collector: &'a Collector,
    pub cpu: (CpuSnapshot, CpuSnapshot, Duration),
    pub disks: Vec<crate::stats::disk::DiskStats>,
    /// Start of the group's measured window, ns after its start.
    pub m_start: u64,
    pub interrupted: bool,
    pub threads: u32,
}

fn merged(recs: &[WorkerRec], f: impl Fn(&WorkerRec) -> &LatRec) -> LatRec {
    let mut all = LatRec::default();
    for r in recs {
        all += f(r);
    }
    all
}

fn both(a: &LatRec, b: &LatRec) -> LatRec {
    let mut t = a.clone();
    t += b;
    t
}

pub fn test_result(p: Parts) -> TestResult {
    // The job's measured time: its workers' windows, which start later with a start delay
    // and end early when a worker's I/O limit is reached.
    let ns = |w: &WorkerRec| w.window.1.saturating_sub(w.window.0);
    let secs = p.recs.iter().map(ns).max().unwrap_or(0) as f64 / 1e9;
    let span = p.recs.iter().map(|w| w.window.1.saturating_sub(p.m_start)).max().unwrap_or(0) as f64 / 1e9;
    let delay = p.recs.iter().map(|w| w.window.0.saturating_sub(p.m_start)).min().unwrap_or(0);
    let read = merged(p.recs, |r| &r.read);
    // A trim test's workers record its trims where writes go: here they become its trims.
    let trims = p.spec.trim;
    let none = LatRec::default();
    let written = merged(p.recs, |r| &r.write);
    let total = both(&read, &written);
    let rb: u64 = p.recs.iter().map(|r| r.read_bytes).sum();
    let wb: u64 = p.recs.iter().map(|r| r.write_bytes).sum();
    let paced = p.spec.rate_iops.is_some() || p.spec.rate_mbps.is_some();
    let resp_r = if paced { merged(p.recs, |r| &r.resp_read) } else { read.clone() };
    let resp_w = if paced { merged(p.recs, |r| &r.resp_write) } else { written.clone() };
    let (write, wb, trim) = if trims { (&none, 0, Some((&written, wb))) } else { (&written, wb, None) };
    let fsync = merged(p.recs, |r| &r.fsync);
    let mergeable = MERGEABLE.load(Ordering::Relaxed);
    let (cs, ce, wall) = &p.cpu;

    let threads = p
        .recs
        .iter()
        .enumerate()
        .map(|(w, r)| {
            let series = p.collector.per_worker.get(w);
            let secs = ns(r) as f64 / 1e9;
            let per_sec = |k: Option<usize>| -> f64 {
                let v: Vec<f64> = full_seconds(r, p.m_start)
                    .map(|s| {
                        let x = series.and_then(|ser| ser.get(s)).copied().unwrap_or([0; 4]);
                        match k {
                            Some(k) => x[k] as f64,
                            None => (x[0] + x[1]) as f64,
                        }
                    })
                    .collect();
                stddev(&v)
            };
            let op = |rec: &LatRec, bytes: u64, k: Option<usize>| ThreadOp {
                bytes,
                ios: rec.count(),
                mbps: if secs > 0.0 { bytes as f64 / secs / 1e6 } else { 0.0 },
                mibps: if secs > 0.0 { bytes as f64 / secs / 1048576.0 } else { 0.0 },
                iops: if secs > 0.0 { rec.count() as f64 / secs } else { 0.0 },
                lat_mean_us: rec.mean_ns().map(|v| v / 1000.0),
                lat_stddev_us: rec.stddev_ns().map(|v| v / 1000.0),
                iops_stddev: per_sec(k),
            };
            ThreadStats {
                thread: w as u32,
                target: (w as u32) / p.threads,
                read: op(&r.read, r.read_bytes, Some(0)),
                write: if trims { op(&none, 0, Some(1)) } else { op(&r.write, r.write_bytes, Some(1)) },
                total: op(&both(&r.read, &r.write), r.read_bytes + r.write_bytes, None),
            }
        })
        .collect();

    let idle = SecondAgg::default();
    let seconds = (0..span.ceil() as usize)
        .map(|k| (k, p.collector.seconds.get(k).unwrap_or(&idle)))
        .filter_map(|(k, a)| {
            let len = (span - k as f64).min(1.0);
            (len > 0.0).then(|| SecondStats {
                second: k as u32 + 1,
                read_iops: a.ios[0] as f64 / len,
                write_iops: if trims { 0.0 } else { a.ios[1] as f64 / len },
                iops: (a.ios[0] + a.ios[1]) as f64 / len,
                mbps: (a.bytes[0] + a.bytes[1]) as f64 / len / 1e6,
                mibps: (a.bytes[0] + a.bytes[1]) as f64 / len / 1048576.0,
                p50_us: a.hist.percentile_us(50.0),
                p99_us: a.hist.percentile_us(99.0),
                latency_ns: if MERGEABLE.load(Ordering::Relaxed) { a.hist.buckets() } else { Vec::new() },
            })
        })
        .collect();

    let qd_area: f64 = p.recs.iter().map(|r| r.qd_area).sum();
    let mut notices = p.notices;
    for n in p.recs.iter().filter_map(|r| r.notice.as_ref()) {
        if !notices.contains(n) {
            notices.push(n.clone());
        }
    }
    let errors = IoErrors {
        read: p.recs.iter().map(|r| r.errors[0]).sum(),
        write: p.recs.iter().map(|r| r.errors[1]).sum(),
        first: p.recs.iter().find_map(|r| r.first_error.clone()),
        first_errno: p.recs.iter().find_map(|r| r.first_errno),
    };
    if let Some(first) = &errors.first {
        notices.push(format!(
            "{} failed I/Os passed over ({} reads, {} writes); the first: {first}",
            errors.total(),
            errors.read,
            errors.write
        ));
    }
    let failed = p.spec.min_rate.as_ref().and_then(|m| {
        p.recs.iter().enumerate().find_map(|(w, r)| {
            let why = below_min_rate(m, p.collector.per_worker.get(w)?, full_seconds(r, p.m_start), p.spec.read_pct)?;
            Some(format!("worker {w}: {why}"))
        })
    });
    let started_at = p.started_at + Duration::from_nanos(delay);
    TestResult {
        name: p.spec.short_name(),
        spec: p.spec.clone(),
        engine: p.engine.name().into(),
        depth: p.depth,
        notices,
        group: 0,
        options: Vec::new(),
        started_at: humantime::format_rfc3339_seconds(started_at).to_string(),
        duration_s: secs,
        interrupted: p.interrupted,
        read: OpStats::new(&read, rb, secs),
        write: OpStats::new(write, wb, secs),
        trim: trim.map(|(t, b)| OpStats::new(t, b, secs)),
        total: OpStats::new(&total, rb + trim.map_or(wb, |t| t.1), secs),
        response: ResponseLat {
            read: resp_r.summary(),
            write: if trims { none.summary() } else { resp_w.summary() },
            total: both(&resp_r, &resp_w).summary(),
        },
        fsync: FsyncStats { count: fsync.count(), lat_us: fsync.summary() },
        threads,
        seconds,
        cpu: ce.since(cs, *wall, total.count()),
        disks: p.disks,
        mean_qd: if secs > 0.0 { qd_area / (secs * 1e9) } else { 0.0 },
        histograms: Histograms {
            response_read: (mergeable && paced).then(|| resp_r.dump()),
            response_write: (mergeable && paced && !trims).then(|| resp_w.dump()),
            fsync: (mergeable && fsync.count() > 0).then(|| fsync.dump()),
            ..Histograms::service(read.dump(), write.dump(), trim.map(|t| t.0.dump()))
        },
        verify: p.recs.iter().filter_map(|r| r.verify.clone()).reduce(|mut a, b| {
            a.merge(b);
            a
        }),
        errors,
        failed,
        ranks: Vec::new(),
    }
}

/// The whole seconds (on the group's clock) inside a worker's measured window.
fn full_seconds(r: &WorkerRec, m_start: u64) -> std::ops::Range<usize> {
    let (a, b) = (r.window.0.saturating_sub(m_start), r.window.1.saturating_sub(m_start));
    (a.div_ceil(1_000_000_000) as usize)..((b / 1_000_000_000) as usize).max(a.div_ceil(1_000_000_000) as usize)
}

/// fio's rate_min check: each whole rate cycle of a worker's measured seconds against its
/// minimum; the first cycle that falls short, with the cycle's place.
fn below_min_rate(
    m: &crate::workload::MinRate,
    series: &[[u64; 4]],
    secs: std::ops::Range<usize>,
    read_pct: u32,
) -> Option<String> {
    let cycle = (m.cycle_ms / 1000).max(1) as usize;
    let at = |s: usize| series.get(s).copied().unwrap_or([0; 4]);
    let mut start = secs.start;
    while start + cycle <= secs.end {
        let sum =
            (start..start + cycle).map(at).fold([0u64; 4], |a, x| [a[0] + x[0], a[1] + x[1], a[2] + x[2], a[3] + x[3]]);
        if let Some(why) = m.shortfall([sum[2], sum[3]], [sum[0], sum[1]], cycle as f64, read_pct) {
            let when = match cycle {
                1 => format!("second {}", start + 1),
                _ => format!("seconds {}-{}", start + 1, start + cycle),
            };
            return Some(format!("{why} in {when} of the run"));
        }
        start += cycle;
    }
    None
}

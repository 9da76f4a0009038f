//! Assembles a test's `TestResult` from what its workers recorded: the merged latency records,
//! per-thread and per-second rows, notices and failures.

use super::live::{Collector, SecondAgg};
use super::stages::StageRecs;
use super::worker::WorkerRec;
use crate::result::{
    FsyncStats, Histograms, IoErrors, OpStats, ResponseLat, SecondLat, SecondStats, TestResult, ThreadOp, ThreadStats,
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

pub(super) fn mergeable() -> bool {
    MERGEABLE.load(Ordering::Relaxed)
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
    pub steady: Option<crate::result::SteadyOutcome>,
    pub dropped: Option<crate::result::shifts::Dropped>,
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
    let w = Window::of(&p);
    let recs = Recs::merge(&p);
    let (secs, (rb, wb, tb)) = (w.secs, recs.bytes);
    let errors = errors(p.recs);
    let failed = below_min_rate_in_any(&p);
    let (cs, ce, wall) = &p.cpu;
    let qd_area: f64 = p.recs.iter().map(|r| r.qd_area).sum();
    let mean_qd = if secs > 0.0 { qd_area / (secs * 1e9) } else { 0.0 };
    let mut notices = notices(p.notices.clone(), p.recs, &errors);
    notices.extend(short_queue(&p, mean_qd, secs));
    let started_at = p.started_at + Duration::from_nanos(w.delay);
    TestResult {
        name: p.spec.short_name(),
        spec: p.spec.as_ran(),
        engine: p.engine.name().into(),
        depth: p.depth,
        notices,
        group: 0,
        options: Vec::new(),
        started_at: humantime::format_rfc3339_seconds(started_at).to_string(),
        duration_s: secs,
        interrupted: p.interrupted,
        read: OpStats::new(&recs.read, rb, secs),
        write: OpStats::new(&recs.write, wb, secs),
        trim: recs.trim.as_ref().map(|t| OpStats::new(t, tb, secs)),
        total: OpStats::new(&recs.total, rb + wb + tb, secs),
        response: recs.response(),
        fsync: FsyncStats { count: recs.fsync.count(), lat_us: recs.fsync.summary() },
        threads: threads(p.recs, p.collector, (p.m_start, w.span), p.threads, p.spec.trim),
        seconds: seconds(p.collector, w.span, p.spec.trim),
        shifts: Vec::new(),
        dropped: p.dropped,
        cpu: ce.since(cs, *wall, recs.total.count()),
        mean_qd,
        histograms: recs.histograms(),
        verify: p.recs.iter().filter_map(|r| r.verify.clone()).reduce(|mut a, b| {
            a.merge(b);
            a
        }),
        disks: p.disks,
        errors,
        failed,
        ranks: Vec::new(),
        steady: p.steady.map(|mut s| {
            s.stop = Some(super::steady::stop(s.attained, p.interrupted, secs, p.spec.duration));
            s
        }),
        replay: p.spec.replay.as_ref().map(|r| {
            let mut lag = LatRec::default();
            for l in p.recs.iter().filter_map(|w| w.lag.as_ref()) {
                lag += l;
            }
            crate::result::replay::ReplayOutcome::new(r, &lag)
        }),
        stages: StageRecs::merged(
            p.recs.iter().filter_map(|r| r.stages.as_deref()),
            &p.spec.cmdprio.as_ref().map_or(vec![0], |c| c.levels()),
        ),
    }
}

/// A worker's measured time, ns.
fn measured_ns(w: &WorkerRec) -> u64 {
    w.window.1.saturating_sub(w.window.0)
}

/// The job's measured time: its workers' windows, which start later with a start delay and end
/// early when a worker's I/O limit is reached.
struct Window {
    /// The longest worker's measured seconds.
    secs: f64,
    /// Seconds from the group's window start to the last worker's end.
    span: f64,
    /// ns from the group's window start to the first worker's start.
    delay: u64,
}

impl Window {
    fn of(p: &Parts) -> Window {
        Window {
            secs: p.recs.iter().map(measured_ns).max().unwrap_or(0) as f64 / 1e9,
            span: p.recs.iter().map(|w| w.window.1.saturating_sub(p.m_start)).max().unwrap_or(0) as f64 / 1e9,
            delay: p.recs.iter().map(|w| w.window.0.saturating_sub(p.m_start)).min().unwrap_or(0),
        }
    }
}

/// The workers' latency records merged into the test's.
struct Recs {
    read: LatRec,
    /// Empty in a trim test: its workers record its trims where writes go, and here they
    /// become its trims.
    write: LatRec,
    /// A trim test's trims, or the trims of trim+write pairs.
    trim: Option<LatRec>,
    /// A trim test: no writes.
    trims_only: bool,
    total: LatRec,
    /// Bytes read, written and trimmed.
    bytes: (u64, u64, u64),
    /// Response latency (from the intended start) where the test is paced, else the service's.
    resp_read: LatRec,
    resp_write: LatRec,
    paced: bool,
    fsync: LatRec,
}

impl Recs {
    fn merge(p: &Parts) -> Recs {
        let read = merged(p.recs, |r| &r.read);
        let written = merged(p.recs, |r| &r.write);
        // A replayed log's trims, if it had any, are trims too.
        let pair_trims = Some(merged(p.recs, |r| &r.trim))
            .filter(|t| p.spec.trim_write || (p.spec.replay.is_some() && t.count() > 0));
        let total = both(&both(&read, &written), pair_trims.as_ref().unwrap_or(&LatRec::default()));
        let sum = |f: fn(&WorkerRec) -> u64| p.recs.iter().map(f).sum::<u64>();
        let (rb, wb, tb) = (sum(|r| r.read_bytes), sum(|r| r.write_bytes), sum(|r| r.trim_bytes));
        let bytes = if p.spec.trim { (rb, 0, wb) } else { (rb, wb, tb) };
        let paced = p.spec.rate_iops.is_some() || p.spec.rate_mbps.is_some();
        let resp_read = if paced { merged(p.recs, |r| &r.resp_read) } else { read.clone() };
        let resp_write = if paced { merged(p.recs, |r| &r.resp_write) } else { written.clone() };
        let (write, trim) = if p.spec.trim { (LatRec::default(), Some(written)) } else { (written, pair_trims) };
        let fsync = merged(p.recs, |r| &r.fsync);
        Recs { read, write, trim, trims_only: p.spec.trim, total, bytes, resp_read, resp_write, paced, fsync }
    }

    fn response(&self) -> ResponseLat {
        ResponseLat {
            read: self.resp_read.summary(),
            write: if self.trims_only { LatRec::default().summary() } else { self.resp_write.summary() },
            total: both(&self.resp_read, &self.resp_write).summary(),
        }
    }

    /// The service and fsync histograms (fio reports fsync percentiles), and where a multi-host
    /// run merges them, the response ones.
    fn histograms(&self) -> Histograms {
        let mergeable = mergeable();
        let trims = self.trims_only;
        Histograms {
            response_read: (mergeable && self.paced).then(|| self.resp_read.dump()),
            response_write: (mergeable && self.paced && !trims).then(|| self.resp_write.dump()),
            fsync: (self.fsync.count() > 0).then(|| self.fsync.dump()),
            ..Histograms::service(self.read.dump(), self.write.dump(), self.trim.as_ref().map(|t| t.dump()))
        }
    }
}

/// One row per worker: what it read and wrote over its own measured seconds, and its I/Os in
/// each second of the group's window (`window`: its start, ns, and its length, s).
fn threads(
    recs: &[WorkerRec],
    collector: &Collector,
    window: (u64, f64),
    per_target: u32,
    trims: bool,
) -> Vec<ThreadStats> {
    let (m_start, span) = window;
    let none = LatRec::default();
    recs.iter()
        .enumerate()
        .map(|(w, r)| {
            let series = collector.per_worker.get(w).map_or(&[][..], |s| &s[..]);
            let lats = collector.per_worker_lat.get(w).map_or(&[][..], |s| &s[..]);
            let secs = measured_ns(r) as f64 / 1e9;
            let op = |rec: &LatRec, bytes: u64, k: Option<usize>| {
                thread_op(rec, bytes, secs, iops_stddev(series, full_seconds(r, m_start), k))
            };
            ThreadStats {
                thread: w as u32,
                target: (w as u32) / per_target,
                read: op(&r.read, r.read_bytes, Some(0)),
                write: if trims { op(&none, 0, Some(1)) } else { op(&r.write, r.write_bytes, Some(1)) },
                total: op(&both(&r.read, &r.write), r.read_bytes + r.write_bytes, None),
                seconds: (0..span.ceil() as usize)
                    .map(|s| series.get(s).map_or([0; 2], |x| [x[0], if trims { 0 } else { x[1] }]))
                    .collect(),
                second_lat: (0..span.ceil() as usize)
                    .map(|s| {
                        let x = lats.get(s).copied().unwrap_or_default();
                        [x[0], if trims { SecondLat::default() } else { x[1] }]
                    })
                    .collect(),
                waits: Some(r.waits),
            }
        })
        .collect()
}

/// A worker's I/Os per second over its whole seconds, spread as a standard deviation: of reads
/// (`k` 0), writes (1), or both (none).
fn iops_stddev(series: &[[u64; 4]], secs: std::ops::Range<usize>, k: Option<usize>) -> f64 {
    let v: Vec<f64> = secs
        .map(|s| {
            let x = series.get(s).copied().unwrap_or([0; 4]);
            match k {
                Some(k) => x[k] as f64,
                None => (x[0] + x[1]) as f64,
            }
        })
        .collect();
    stddev(&v)
}

fn thread_op(rec: &LatRec, bytes: u64, secs: f64, iops_stddev: f64) -> ThreadOp {
    ThreadOp {
        bytes,
        ios: rec.count(),
        mbps: if secs > 0.0 { bytes as f64 / secs / 1e6 } else { 0.0 },
        mibps: if secs > 0.0 { bytes as f64 / secs / 1048576.0 } else { 0.0 },
        iops: if secs > 0.0 { rec.count() as f64 / secs } else { 0.0 },
        lat_mean_us: rec.mean_ns().map(|v| v / 1000.0),
        lat_stddev_us: rec.stddev_ns().map(|v| v / 1000.0),
        iops_stddev,
    }
}

/// One row per second the group's window spans, the last one cut short where it ends.
fn seconds(collector: &Collector, span: f64, trims: bool) -> Vec<SecondStats> {
    let idle = SecondAgg::default();
    (0..span.ceil() as usize)
        .map(|k| (k, collector.seconds.get(k).unwrap_or(&idle)))
        .filter_map(|(k, a)| {
            let len = (span - k as f64).min(1.0);
            (len > 0.0).then(|| SecondStats {
                second: k as u32 + 1,
                read_iops: a.ios[0] as f64 / len,
                write_iops: if trims { 0.0 } else { a.ios[1] as f64 / len },
                iops: (a.ios[0] + a.ios[1]) as f64 / len,
                mbps: (a.bytes[0] + a.bytes[1]) as f64 / len / 1e6,
                mibps: (a.bytes[0] + a.bytes[1]) as f64 / len / 1048576.0,
                p50_us: a.p50_us(),
                p99_us: a.p99_us(),
                latency_ns: if mergeable() { a.buckets() } else { Vec::new() },
            })
        })
        .collect()
}

/// The failed I/Os the workers passed over.
fn errors(recs: &[WorkerRec]) -> IoErrors {
    IoErrors {
        read: recs.iter().map(|r| r.errors[0]).sum(),
        write: recs.iter().map(|r| r.errors[1]).sum(),
        first: recs.iter().find_map(|r| r.first_error.clone()),
        first_errno: recs.iter().find_map(|r| r.first_errno),
    }
}

/// The group's notices, each worker's not already among them, then the failed I/Os passed over.
fn notices(mut notices: Vec<String>, recs: &[WorkerRec], errors: &IoErrors) -> Vec<String> {
    for n in recs.iter().filter_map(|r| r.notice.as_ref()) {
        if !notices.contains(n) {
            notices.push(n.clone());
        }
    }
    if let Some(first) = &errors.first {
        notices.push(format!(
            "{} failed I/Os passed over ({} reads, {} writes); the first: {first}",
            errors.total(),
            errors.read,
            errors.write
        ));
    }
    notices
}

/// A run that kept fewer I/Os in flight than it asked for measured a shallower queue: said beside
/// the figures. Only on the queuing engines, and where nothing was meant to hold I/Os back (a
/// rate, think time, a flow share, a replayed trace, verification, fsyncs, trim+write pairs).
fn short_queue(p: &Parts, mean_qd: f64, secs: f64) -> Option<String> {
    let s = p.spec;
    let held = s.rate_iops.is_some()
        || s.rate_mbps.is_some()
        || s.think.is_some()
        || s.flow.is_some()
        || s.replay.is_some()
        || s.verify.is_some()
        || s.fsync_every > 0
        || s.trim_write;
    let queuing = matches!(p.engine, EngineKind::IoUring | EngineKind::Iocp);
    let asked = p.depth as f64 * p.recs.len() as f64;
    if held || !queuing || p.depth < 2 || secs < 1.0 || p.interrupted || mean_qd >= 0.95 * asked {
        return None;
    }
    Some(format!(
        "kept {mean_qd:.1} of the {asked} I/Os asked for in flight on average ({:.0} %): the figures are a shallower queue's",
        100.0 * mean_qd / asked
    ))
}

/// Why the test failed fio's rate_min check: the first worker whose rate fell short.
fn below_min_rate_in_any(p: &Parts) -> Option<String> {
    let m = p.spec.min_rate.as_ref()?;
    p.recs.iter().enumerate().find_map(|(w, r)| {
        let why = below_min_rate(m, p.collector.per_worker.get(w)?, full_seconds(r, p.m_start), p.spec.read_pct)?;
        Some(format!("worker {w}: {why}"))
    })
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

#[cfg(test)]
mod tests;

//! The users' measurements as a result: one test per user kind (latency percentiles, per
//! second figures, per thread, findings), and SQLIOSim's per-file summary.

use super::checkpoint::CHECKPOINT_RUN;
use super::io::Meter;
use super::page_io::MAX_RUN_BYTES;
use super::{log, Kind, Sim};
use crate::result::simdb::{Simdb, SimdbFile};
use crate::result::verify::Verification;
use crate::result::{FsyncStats, Histograms, OpStats, ResponseLat, SecondStats, TestResult, ThreadOp, ThreadStats};
use crate::stats::cpu::CpuSnapshot;
use crate::stats::{LatRec, SecondHist};
use crate::workload::{BlockShare, EngineKind, Pattern, Spec};
use std::sync::atomic::Ordering;
use std::time::Duration;

pub fn outcome(
    sim: &Sim,
    init: Meter,
    meters: Vec<(Kind, Meter)>,
    cpu: (CpuSnapshot, CpuSnapshot, Duration),
    interrupted: bool,
) -> (Vec<TestResult>, Simdb) {
    let secs = cpu.2.as_secs_f64();
    let mut findings: Vec<(Kind, crate::result::verify::Finding)> =
        std::mem::take(&mut *sim.findings.lock().unwrap_or_else(|e| e.into_inner()));
    let mut tests = Vec::new();
    for kind in Kind::ALL {
        let mine: Vec<&Meter> = meters.iter().filter(|(k, _)| *k == kind).map(|(_, m)| m).collect();
        if mine.is_empty() {
            continue;
        }
        let targets: Vec<String> = if kind == Kind::Log {
            vec![sim.log.path.display().to_string()]
        } else {
            sim.data.iter().map(|d| d.path.display().to_string()).collect()
        };
        let mut v = Verification {
            unit: sim.cfg.unit as u32,
            page: sim.cfg.page as u32,
            pages_written: mine.iter().map(|m| m.pages_written).sum(),
            pages_checked: mine.iter().map(|m| m.pages_checked).sum(),
            rereads: sim.cfg.rereads,
            ..Default::default()
        };
        if kind == Kind::Log {
            v.pages_written = sim.log_records.load(Ordering::Relaxed);
            v.pages_checked = sim.log_checked.load(Ordering::Relaxed);
        }
        let (own, rest): (Vec<_>, Vec<_>) = findings.into_iter().partition(|(k, _)| *k == kind);
        findings = rest;
        for (_, f) in own {
            v.add(f);
        }
        let name = format!("simdb {}", kind.name());
        let spec = spec_for(sim, kind, mine.len() as u32, targets);
        let slot = Kind::ALL.iter().position(|k| *k == kind).expect("a kind of ALL");
        let hists = std::mem::take(&mut *sim.ctx.per_second[slot].lock().unwrap_or_else(|e| e.into_inner()));
        tests.push(test(name, spec, &mine, &hists, secs, &cpu, interrupted, Some(v)));
    }
    let mut files: Vec<SimdbFile> = sim
        .data
        .iter()
        .map(|d| SimdbFile {
            path: d.path.display().to_string(),
            kind: "data".into(),
            size: (d.live.load(Ordering::Relaxed) * sim.cfg.page) as u64,
            ..Default::default()
        })
        .collect();
    files.push(SimdbFile {
        path: sim.log.path.display().to_string(),
        kind: "log".into(),
        size: sim.log.size,
        ..Default::default()
    });
    for (i, f) in files.iter_mut().enumerate() {
        f.target_io_ms = sim.cfg.target_io_ms;
        sim.ctx.gauges[i].fill(f);
        init.files[i].add_to(f);
        for (_, m) in &meters {
            m.files[i].add_to(f);
        }
    }
    let mut users: Vec<(String, u32)> = Vec::new();
    for (k, _) in &meters {
        match users.iter_mut().find(|(n, _)| n == k.name()) {
            Some(u) => u.1 += 1,
            None => users.push((k.name().into(), 1)),
        }
    }
    let summary = Simdb {
        page: sim.cfg.page as u32,
        unit: sim.cfg.unit as u32,
        users,
        write_through: sim.cfg.write_through,
        buffered: sim.cfg.buffered,
        journal: sim.journal.path.display().to_string(),
        verify_only: false,
        files,
        stall_ms: sim.cfg.stall_ms,
        stalls: std::mem::take(&mut *sim.ctx.stalls.lock().unwrap_or_else(|e| e.into_inner())),
        errors: std::mem::take(&mut *sim.ctx.errors.lock().unwrap_or_else(|e| e.into_inner())),
        log_records: sim.log_records.load(Ordering::Relaxed),
        log_records_checked: sim.log_checked.load(Ordering::Relaxed),
    };
    (tests, summary)
}

/// What a user kind runs, in the terms every result uses, so that `compare` meets the same
/// user in two results: the mean of the I/O sizes it draws (rounded to KiB), its pattern and
/// its nominal read share (a random access user reads every page it claims and writes half of
/// them back: two reads in three I/Os).
pub fn spec_for(sim: &Sim, kind: Kind, users: u32, targets: Vec<String>) -> Spec {
    let page = sim.cfg.page as u64;
    let mean = |lo: u64, hi: u64| ((lo + hi) * page / 2).div_ceil(1024) * 1024;
    let (block, pattern, read_pct) = match kind {
        Kind::Random => (page, Pattern::Random, 67),
        Kind::ReadAhead => ((64 + 512) * 1024 / 2, Pattern::Sequential, 100),
        Kind::Bulk => (mean(2, 32), Pattern::Random, 50),
        Kind::Lazy => (mean(1, 16), Pattern::Random, 0),
        Kind::Checkpoint => (mean(CHECKPOINT_RUN.0 as u64, CHECKPOINT_RUN.1 as u64), Pattern::Random, 0),
        Kind::Log => ((log::MAX_RECORD as u64 + sim.cfg.unit as u64) / 2 / 1024 * 1024, Pattern::Sequential, 50),
        Kind::Resize => (MAX_RUN_BYTES as u64, Pattern::Sequential, 0),
        Kind::Audit => (mean(1, 16), Pattern::Random, 100),
    };
    base_spec(sim.cfg, kind, block, pattern, read_pct, users, targets)
}

pub fn base_spec(
    cfg: &super::Config,
    kind: Kind,
    block: u64,
    pattern: Pattern,
    read_pct: u32,
    users: u32,
    targets: Vec<String>,
) -> Spec {
    Spec {
        targets,
        blocks: vec![BlockShare { size: block, pct: 100 }],
        pattern,
        read_pct,
        threads: users,
        qd: 1,
        size: if kind == Kind::Log { cfg.log_size } else { cfg.data_size },
        duration: cfg.duration,
        direct: !cfg.buffered,
        write_through: cfg.write_through || kind == Kind::Log,
        fsync_every: 0,
        seed: cfg.seed,
        engine: EngineKind::Psync,
        keep: false,
        ..Spec::default()
    }
}

fn merged(mine: &[&Meter], f: impl Fn(&Meter) -> &LatRec) -> LatRec {
    let mut all = LatRec::default();
    for m in mine {
        all += f(m);
    }
    all
}

/// One user kind as a test: `hists` are its per-second latency histograms (`Ctx::per_second`).
#[allow(clippy::too_many_arguments)]
pub fn test(
    name: String,
    spec: Spec,
    mine: &[&Meter],
    hists: &[SecondHist],
    secs: f64,
    cpu: &(CpuSnapshot, CpuSnapshot, Duration),
    interrupted: bool,
    verify: Option<Verification>,
) -> TestResult {
    let read = merged(mine, |m| &m.read);
    let write = merged(mine, |m| &m.write);
    let fsync = merged(mine, |m| &m.flush);
    let mut total = read.clone();
    total += &write;
    let rb: u64 = mine.iter().map(|m| m.read_bytes).sum();
    let wb: u64 = mine.iter().map(|m| m.write_bytes).sum();
    let threads = threads(mine, secs);
    let seconds = seconds(mine, hists, secs);
    let io_ns: u64 = mine.iter().map(|m| m.io_ns).sum();
    TestResult {
        name,
        engine: EngineKind::Psync.name().into(),
        depth: 1,
        notices: Vec::new(),
        options: Vec::new(),
        group: 0,
        started_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        duration_s: secs,
        interrupted,
        read: OpStats::new(&read, rb, secs),
        write: OpStats::new(&write, wb, secs),
        total: OpStats::new(&total, rb + wb, secs),
        response: ResponseLat { read: read.summary(), write: write.summary(), total: total.summary() },
        fsync: FsyncStats { count: fsync.count(), lat_us: fsync.summary() },
        threads,
        seconds,
        shifts: Vec::new(),
        dropped: None,
        cpu: cpu.1.since(&cpu.0, cpu.2, total.count()),
        disks: Vec::new(),
        mean_qd: if secs > 0.0 { io_ns as f64 / (secs * 1e9) } else { 0.0 },
        histograms: Histograms::service(read.dump(), write.dump(), None),
        trim: None,
        verify,
        errors: Default::default(),
        failed: None,
        ranks: Vec::new(),
        steady: None,
        replay: None,
        stages: None,
        spec,
    }
}

/// Each user of a kind as a thread of the test.
fn threads(mine: &[&Meter], secs: f64) -> Vec<ThreadStats> {
    let per = |x: u64| if secs > 0.0 { x as f64 / secs } else { 0.0 };
    mine.iter()
        .enumerate()
        .map(|(i, m)| {
            let op = |rec: &LatRec, bytes: u64| ThreadOp {
                bytes,
                ios: rec.count(),
                mbps: per(bytes) / 1e6,
                mibps: per(bytes) / 1048576.0,
                iops: per(rec.count()),
                lat_mean_us: rec.mean_ns().map(|v| v / 1000.0),
                lat_stddev_us: rec.stddev_ns().map(|v| v / 1000.0),
                // A second the user did no I/O in counts, even past its last I/O.
                iops_stddev: crate::stats::stddev(
                    &m.seconds
                        .iter()
                        .map(|s| (s[0] + s[1]) as f64)
                        .chain(std::iter::repeat(0.0))
                        .take(secs.floor() as usize)
                        .collect::<Vec<_>>(),
                ),
            };
            let mut both = m.read.clone();
            both += &m.write;
            ThreadStats {
                thread: i as u32,
                target: 0,
                read: op(&m.read, m.read_bytes),
                write: op(&m.write, m.write_bytes),
                total: op(&both, m.read_bytes + m.write_bytes),
                seconds: m.seconds.iter().map(|s| [s[0], s[1]]).collect(),
                second_lat: Vec::new(),
                waits: None,
            }
        })
        .collect()
}

/// The users of a kind second by second: `hists` are their per-second latency histograms.
fn seconds(mine: &[&Meter], hists: &[SecondHist], secs: f64) -> Vec<SecondStats> {
    (0..secs.ceil() as usize)
        .map(|k| {
            let len = (secs - k as f64).clamp(1e-9, 1.0);
            let s = mine.iter().fold([0u64; 5], |mut a, m| {
                if let Some(x) = m.seconds.get(k) {
                    for j in 0..4 {
                        a[j] += x[j];
                    }
                    a[4] = a[4].max(x[4]);
                }
                a
            });
            // A histogram bucket's upper edge can lie past the slowest I/O it holds.
            let pct = |p: f64| hists.get(k).and_then(|h| h.percentile_us(p)).map(|v| v.min(s[4] as f64 / 1000.0));
            SecondStats {
                second: k as u32 + 1,
                read_iops: s[0] as f64 / len,
                write_iops: s[1] as f64 / len,
                iops: (s[0] + s[1]) as f64 / len,
                mbps: (s[2] + s[3]) as f64 / len / 1e6,
                mibps: (s[2] + s[3]) as f64 / len / 1048576.0,
                p50_us: pct(50.0),
                p99_us: pct(99.0),
                latency_ns: Vec::new(),
            }
        })
        .collect()
}

//! One of fio's direction objects (read, write, trim, or all three as `mixed` under
//! unified_rw_reporting), with its three latency stages as fio prints them: slat_ns, clat_ns
//! and lat_ns, each with percentiles where the job reports that stage (json+: with its bins),
//! and per I/O priority where more than one priority saw I/O (fio's cmdprio).

use super::{obj, FIO_PCT, V};
use crate::result::{OpStats, RunResult, TestResult};
use crate::stats::{stddev, HistDump, LatRec, LatStats, Percentiles};
use crate::workload::stages::LatStages;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Dir {
    Read,
    Write,
    Trim,
    /// Reads, writes and trims as one (fio's unified_rw_reporting=mixed).
    Mixed,
}

impl Dir {
    /// fio's direction numbers this object covers.
    fn ddirs(self) -> &'static [u8] {
        match self {
            Dir::Read => &[0],
            Dir::Write => &[1],
            Dir::Trim => &[2],
            Dir::Mixed => &[0, 1, 2],
        }
    }
}

/// What the object is made of: counts, and the histograms of each stage.
struct Parts {
    op: OpStats,
    /// Response latency where no lat stage was kept.
    resp: LatStats,
    clat: Option<HistDump>,
    slat: Option<HistDump>,
    lat: Option<HistDump>,
    iops: Vec<f64>,
    /// Counted, never issued (verify_only's writes): no time, no rate.
    walked: bool,
}

fn none() -> LatStats {
    LatStats { min: None, mean: None, stddev: None, max: None, percentiles: Percentiles::default() }
}

fn zero() -> OpStats {
    OpStats { ios: 0, bytes: 0, iops: 0.0, mbps: 0.0, mibps: 0.0, lat_us: none() }
}

/// The histograms merged exactly; None when there are none.
fn merge<'a>(hs: impl Iterator<Item = &'a HistDump>) -> Option<HistDump> {
    hs.map(LatRec::from_dump)
        .reduce(|mut a, b| {
            a += &b;
            a
        })
        .map(|r| r.dump())
}

fn op_of(t: &TestResult, d: u8) -> Option<&OpStats> {
    match d {
        0 => Some(&t.read),
        1 => Some(&t.write),
        _ => t.trim.as_ref(),
    }
}

fn parts(t: &TestResult, dir: Dir) -> Parts {
    // fio's verify_only walks a writing job's writes without issuing them and counts them, in
    // no time: as many as the blocks it then reads back.
    if dir == Dir::Write && crate::report::fio_verify::walked_writes(t) {
        let op = OpStats { ios: t.read.ios, bytes: t.read.bytes, ..zero() };
        return Parts { op, resp: none(), clat: None, slat: None, lat: None, iops: Vec::new(), walked: true };
    }
    let stage = |pick: fn(&crate::result::Stages) -> Option<&[HistDump; 3]>| {
        let all = t.stages.as_ref().and_then(pick)?;
        merge(dir.ddirs().iter().map(|&d| &all[d as usize]))
    };
    let clat = merge(dir.ddirs().iter().filter_map(|&d| match d {
        0 => Some(&t.histograms.read),
        1 => Some(&t.histograms.write),
        _ => t.histograms.trim.as_ref(),
    }));
    let slat = stage(|s| s.slat.as_ref());
    let lat = stage(|s| s.lat.as_ref());
    let (op, resp) = match dir {
        Dir::Read => (t.read.clone(), t.response.read.clone()),
        Dir::Write => (t.write.clone(), t.response.write.clone()),
        Dir::Trim => t.trim.as_ref().map_or((zero(), none()), |op| (op.clone(), op.lat_us.clone())),
        Dir::Mixed => {
            let ops: Vec<&OpStats> = [0, 1, 2].iter().filter_map(|&d| op_of(t, d)).collect();
            let sum = |f: fn(&OpStats) -> f64| ops.iter().map(|o| f(o)).sum::<f64>();
            let op = OpStats {
                ios: ops.iter().map(|o| o.ios).sum(),
                bytes: ops.iter().map(|o| o.bytes).sum(),
                iops: sum(|o| o.iops),
                mbps: sum(|o| o.mbps),
                mibps: sum(|o| o.mibps),
                lat_us: t.total.lat_us.clone(),
            };
            (op, t.response.total.clone())
        }
    };
    let active = op.ios > 0 && t.duration_s > 0.0;
    let iops = match dir {
        _ if !active => Vec::new(),
        Dir::Read => t.seconds.iter().map(|s| s.read_iops).collect(),
        Dir::Write => t.seconds.iter().map(|s| s.write_iops).collect(),
        // A test that trims does nothing else: its seconds are its trims'.
        Dir::Trim | Dir::Mixed => t.seconds.iter().map(|s| s.iops).collect(),
    };
    Parts { op, resp, clat, slat, lat, iops, walked: false }
}

/// fio's latency object from a histogram (ns): min, max, mean, fio's sample (n − 1) standard
/// deviation and N; with `pct`, fio's default percentiles, and with `plus` too, the bins.
pub(super) fn lat_hist(h: Option<&HistDump>, pct: bool, plus: bool) -> V {
    let n = h.map_or(0, |h| h.count);
    let Some(h) = h.filter(|_| n > 0) else {
        return obj([("min", V::U(0)), ("max", V::U(0)), ("mean", V::F(0.0)), ("stddev", V::F(0.0)), ("N", V::U(0))]);
    };
    let mean = h.sum_ns as f64 / n as f64;
    let var = (h.sum_sq_ns / n as f64 - mean * mean).max(0.0);
    let dev = if n > 1 { (var * n as f64 / (n - 1) as f64).sqrt() } else { 0.0 };
    let mut kv = vec![
        ("min", V::U(h.min_ns)),
        ("max", V::U(h.max_ns)),
        ("mean", V::F(mean)),
        ("stddev", V::F(dev)),
        ("N", V::U(n)),
    ];
    if pct {
        let p = FIO_PCT.iter().map(|&p| (format!("{p:.6}"), V::U(h.percentile_ns(p).unwrap_or(0))));
        kv.push(("percentile", V::O(p.collect())));
        if plus {
            let bins = h.buckets.iter().filter(|&&(_, c)| c > 0).map(|&(ns, c)| (ns.to_string(), V::U(c)));
            kv.push(("bins", V::O(bins.collect())));
        }
    }
    obj(kv)
}

/// The direction object of `t` (see the module's doc).
pub(super) fn ddir(r: &RunResult, t: &TestResult, dir: Dir, plus: bool) -> V {
    let st = t.spec.stages.unwrap_or_default();
    let p = parts(t, dir);
    let op = &p.op;
    let active = !p.walked && op.ios > 0 && t.duration_s > 0.0;
    let ms = if active { (t.duration_s * 1000.0).round() as u64 } else { 0 };
    let bw_bytes = if active { (op.bytes as f64 / t.duration_s) as u64 } else { 0 };
    // The model splits each second's I/Os by direction but not its bytes, so a second's
    // bandwidth is its I/Os × this direction's mean I/O size over the test (bytes / ios).
    let per_io_kib = if active { op.bytes as f64 / op.ios as f64 / 1024.0 } else { 0.0 };
    let bw: Vec<f64> = p.iops.iter().map(|x| x * per_io_kib).collect();
    let (bw_min, bw_max, bw_mean, bw_dev) = series(&bw);
    let (io_min, io_max, io_mean, io_dev) = series(&p.iops);
    // fio's bw_agg: this job's share (%) of its group's total bandwidth; jobs of one group run
    // together, so the group's rate is its bytes over its longest test.
    let group = r.tests.iter().filter(|x| x.group == t.group);
    let pick = |x: &TestResult| dir.ddirs().iter().filter_map(|&d| op_of(x, d)).map(|o| o.bytes).sum::<u64>();
    let g_secs = group.clone().map(|x| x.duration_s).fold(0.0, f64::max);
    let g_kib = if g_secs > 0.0 { group.map(pick).sum::<u64>() as f64 / g_secs / 1024.0 } else { 0.0 };
    let agg = if active && g_kib > 0.0 { (bw_mean * 100.0 / g_kib).min(100.0) } else { 0.0 };
    let lat = match &p.lat {
        Some(h) => lat_hist(Some(h), st.lat, plus),
        None => super::lat(&p.resp, op.ios),
    };
    let mut kv = vec![
        ("io_bytes", V::U(op.bytes)),
        ("io_kbytes", V::U(op.bytes >> 10)),
        ("bw_bytes", V::U(bw_bytes)),
        ("bw", V::U(bw_bytes / 1024)),
        ("iops", V::F(if active { op.iops } else { 0.0 })),
        ("runtime", V::U(ms)),
        ("total_ios", V::U(op.ios)),
        ("short_ios", V::U(0)),
        ("drop_ios", V::U(0)),
        ("slat_ns", lat_hist(p.slat.as_ref(), st.slat, plus)),
        ("clat_ns", lat_hist(p.clat.as_ref().filter(|_| op.ios > 0), st.clat, plus)),
        ("lat_ns", lat),
    ];
    if let Some(prios) = prios(t, dir, &st, plus) {
        kv.push(("prios", prios));
    }
    kv.extend([
        ("bw_min", V::U(bw_min.round() as u64)),
        ("bw_max", V::U(bw_max.round() as u64)),
        ("bw_agg", V::F(agg)),
        ("bw_mean", V::F(bw_mean)),
        ("bw_dev", V::F(bw_dev)),
        ("bw_samples", V::U(bw.len() as u64)),
        ("iops_min", V::U(io_min.round() as u64)),
        ("iops_max", V::U(io_max.round() as u64)),
        ("iops_mean", V::F(io_mean)),
        ("iops_stddev", V::F(io_dev)),
        ("iops_samples", V::U(p.iops.len() as u64)),
    ]);
    obj(kv)
}

/// fio's `prios`: one object per I/O priority that saw I/O in this direction, when at least
/// two did, each with lat_ns (the job reports lat percentiles) or clat_ns.
fn prios(t: &TestResult, dir: Dir, st: &LatStages, plus: bool) -> Option<V> {
    let all = &t.stages.as_ref()?.prios;
    let mut levels: Vec<u16> = Vec::new();
    for p in all.iter().filter(|p| dir.ddirs().contains(&p.ddir)) {
        if !levels.contains(&p.ioprio) {
            levels.push(p.ioprio);
        }
    }
    if levels.len() < 2 {
        return None;
    }
    let name = if st.lat { "lat_ns" } else { "clat_ns" };
    let one = |level: u16| {
        let h = merge(all.iter().filter(|p| p.ioprio == level && dir.ddirs().contains(&p.ddir)).map(|p| &p.lat));
        obj([
            ("prioclass", V::U(u64::from(level >> 13))),
            ("prio", V::U(u64::from(level & 7))),
            (name, lat_hist(h.as_ref(), st.clat || st.lat, plus)),
        ])
    };
    Some(V::A(levels.into_iter().map(one).collect()))
}

/// Min, max, mean and fio's sample (n − 1) standard deviation of a per-second series.
pub(super) fn series(xs: &[f64]) -> (f64, f64, f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let n = xs.len() as f64;
    let dev = if xs.len() > 1 { stddev(xs) * (n / (n - 1.0)).sqrt() } else { 0.0 };
    let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
    (min, xs.iter().copied().fold(0.0, f64::max), xs.iter().sum::<f64>() / n, dev)
}

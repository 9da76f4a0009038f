//! fio's JSON layout (`fio --output-format=json`, fio 3.x) from the result model, so tools built on
//! it (fio-plot, KDiskMark, scripts reading jobs[].read.iops, bw, clat_ns.percentile, lat_ns.mean)
//! read iolens' results. One test is one job, reported as fio's `group_reporting` would (all
//! threads together). Key names, order, units and JSON types (integer vs float) follow fio 3.33.
//!
//! What iolens does not measure is written as fio writes "nothing measured", never guessed:
//! `slat_ns` is zeros (no separate submission latency), `ctx`/`majf`/`minf` and disk
//! `read_ticks`/`write_ticks` are 0, `sync.lat_ns` has no percentiles (no fsync histogram kept).
//! `lat_ns` is iolens' response latency (intended start → completion): it equals `clat_ns`
//! without a rate limit and includes pacing delays under one, so lat ≠ slat + clat there.
//! `iodepth_level` is the configured depth (100 % in its bucket), not a measured distribution.

use crate::result::{OpStats, RunResult, TestResult};
use crate::stats::{stddev, HistDump, LatStats, Percentiles};
use crate::workload::size::format_block;
use std::fmt::Write;

/// fio's default `percentile_list`.
const FIO_PCT: [f64; 17] =
    [1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99];
/// Upper edges (exclusive) of fio's latency_ns / latency_us / latency_ms buckets.
const LAT_EDGES: [u64; 10] = [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000];

/// A JSON value that keeps key order and prints integers and floats as fio does.
enum V {
    U(u64),
    F(f64),
    S(String),
    O(Vec<(String, V)>),
    A(Vec<V>),
}

fn obj<'a>(kv: impl IntoIterator<Item = (&'a str, V)>) -> V {
    V::O(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// fio's pretty printing: two-space indent, `"key" : value`, floats with six decimals.
fn write_json(v: &V, ind: usize, o: &mut String) {
    let items: Vec<(Option<&str>, &V)> = match v {
        V::U(n) => return write!(o, "{n}").unwrap(),
        V::F(x) => return write!(o, "{:.6}", if x.is_finite() { *x } else { 0.0 }).unwrap(),
        V::S(s) => return o.push_str(&serde_json::to_string(s).expect("strings serialize")),
        V::O(kv) => kv.iter().map(|(k, v)| (Some(k.as_str()), v)).collect(),
        V::A(xs) => xs.iter().map(|v| (None, v)).collect(),
    };
    let (open, close) = if matches!(v, V::O(_)) { ('{', '}') } else { ('[', ']') };
    o.push(open);
    for (i, (k, x)) in items.iter().enumerate() {
        o.push_str(if i == 0 { "\n" } else { ",\n" });
        o.push_str(&" ".repeat(ind + 2));
        if let Some(k) = k {
            write!(o, "{} : ", serde_json::to_string(k).expect("strings serialize")).unwrap();
        }
        write_json(x, ind + 2, o);
    }
    if !items.is_empty() {
        write!(o, "\n{}", " ".repeat(ind)).unwrap();
    }
    o.push(close);
}

pub fn render(r: &RunResult) -> String {
    render_as(r, false)
}

/// fio's `--output-format=json+`: json, and each direction's completion latencies as fio's
/// `clat_ns.bins` (latency in ns → I/Os), from the exact histogram, for fio_jsonplus_clat2csv.
pub fn render_plus(r: &RunResult) -> String {
    render_as(r, true)
}

fn render_as(r: &RunResult, plus: bool) -> String {
    // fio stamps the end of the run; iolens keeps its start (`started_at`).
    let ts = humantime::parse_rfc3339(&r.started_at)
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    let root = obj([
        ("fio version", V::S(format!("iolens-{}", r.iolens_version))),
        ("timestamp", V::U(ts)),
        ("timestamp_ms", V::U(ts * 1000)),
        ("time", V::S(ctime(ts as i64 + crate::stats::clock::utc_offset(ts as i64)))),
        ("global options", obj([])),
        ("jobs", V::A(r.tests.iter().map(|t| job(r, t, plus)).collect())),
        ("disk_util", disk_util(r)),
    ]);
    let mut o = String::new();
    write_json(&root, 0, &mut o);
    o.push('\n');
    o
}

fn job(r: &RunResult, t: &TestResult, plus: bool) -> V {
    let sp = &t.spec;
    // fio's CPU figures are % of one CPU; iolens' are % of all of the host's.
    let cores = f64::from(t.cpu.cores.max(1));
    let [lat_ns, lat_us, lat_ms] = latency_buckets(t);
    // As fio: with continue_on_error, the first error passed over is the job's, and the count
    // and first error get keys of their own.
    let first = super::fio_verify::job_error(t);
    let mut errors = Vec::new();
    if t.spec.on_error.go_on != [false, false] {
        errors = vec![("total_err", V::U(t.errors.total())), ("first_error", V::U(first))];
    }
    let mut o = obj([
        ("jobname", V::S(t.name.clone())),
        ("groupid", V::U(t.group.into())),
        ("error", V::U(first)),
        ("eta", V::U(0)),
        // Whole seconds of I/O, warm-up and cool-down included (fio also counts its file layout).
        ("elapsed", V::U((sp.warmup + t.duration_s + sp.cooldown).ceil().max(0.0) as u64)),
        ("job options", job_options(t)),
        ("read", ddir(r, t, Some(true), plus)),
        ("write", ddir(r, t, Some(false), plus)),
        ("trim", ddir(r, t, None, plus)),
        ("sync", obj([("total_ios", V::U(t.fsync.count)), ("lat_ns", lat(&t.fsync.lat_us, t.fsync.count, None))])),
        ("job_runtime", V::U((t.duration_s * 1000.0).round() as u64)),
        ("usr_cpu", V::F(t.cpu.user_pct * cores)),
        ("sys_cpu", V::F(t.cpu.system_pct * cores)),
        ("ctx", V::U(0)),
        ("majf", V::U(0)),
        ("minf", V::U(0)),
        // fio's buckets: depth 1, 2–3, 4–7, …, 32–63, ≥64 at submission; here the configured depth.
        ("iodepth_level", one_hot(&["1", "2", "4", "8", "16", "32", ">=64"], t.depth.max(1).ilog2() as usize)),
        // I/Os per submit and per reap call: 0, 1–4, 5–8, …, 33–64, >64. Each call carries at
        // most `batch` (submit) or `depth` (reap) I/Os, so 100 % in the bucket holding that
        // bound is exact when it is ≤ 4 and an upper bound otherwise.
        ("iodepth_submit", one_hot(&SUBMIT, submit_bucket(sp.batch.min(t.depth)))),
        ("iodepth_complete", one_hot(&SUBMIT, submit_bucket(t.depth))),
        ("latency_ns", lat_ns),
        ("latency_us", lat_us),
        ("latency_ms", lat_ms),
        ("latency_depth", V::U(t.depth.into())),
        ("latency_target", V::U(0)),
        ("latency_percentile", V::F(100.0)),
        ("latency_window", V::U(0)),
    ]);
    if let V::O(kv) = &mut o {
        kv.extend(errors.into_iter().map(|(k, v)| (k.to_string(), v)));
        if let Some(ss) = steady::steady(t) {
            kv.push(("steadystate".into(), ss));
        }
    }
    o
}

const SUBMIT: [&str; 7] = ["0", "4", "8", "16", "32", "64", ">=64"];

fn submit_bucket(n: u32) -> usize {
    match n {
        0 => 0,
        1..=4 => 1,
        _ => ((n - 1).ilog2() as usize).min(6),
    }
}

fn one_hot(labels: &[&str], idx: usize) -> V {
    obj(labels.iter().enumerate().map(|(i, l)| (*l, V::F(if i == idx.min(labels.len() - 1) { 100.0 } else { 0.0 }))))
}

/// The options as written (fio leaves out bare flags); without them, the spec in fio's words.
/// fio-plot needs rw, bs, iodepth and numjobs, so those are added from the spec when missing.
fn job_options(t: &TestResult) -> V {
    let sp = &t.spec;
    // Writes' own sizes follow the reads' after a comma, as fio writes them (bs=4k,64k).
    let sizes = [Some(&sp.blocks), sp.write_blocks.as_ref()];
    let one = sizes.iter().flatten().all(|b| b.len() == 1);
    let each =
        |f: &dyn Fn(&[crate::workload::BlockShare]) -> String| sizes.iter().flatten().map(|b| f(b)).collect::<Vec<_>>();
    let bs = |b: &[crate::workload::BlockShare]| format_block(b[0].size).to_lowercase();
    let split = |b: &[crate::workload::BlockShare]| {
        b.iter().map(|x| format!("{}/{}", format_block(x.size).to_lowercase(), x.pct)).collect::<Vec<_>>().join(":")
    };
    let (bs, split) = (each(&bs).join(","), each(&split).join(","));
    let runtime = if sp.duration.fract() == 0.0 {
        format!("{}", sp.duration)
    } else {
        format!("{}ms", (sp.duration * 1e3).round())
    };
    let derived = [
        ("rw", sp.rw_name().to_string()),
        ("rwmixread", if (1..100).contains(&sp.read_pct) { sp.read_pct.to_string() } else { String::new() }),
        ("bs", if one { bs } else { String::new() }),
        ("bssplit", if one { String::new() } else { split }),
        ("iodepth", sp.qd.to_string()),
        ("numjobs", sp.threads.to_string()),
        ("runtime", runtime),
        ("size", sp.size.to_string()),
        ("direct", u8::from(sp.direct).to_string()),
        ("ioengine", t.engine.clone()),
    ];
    let mut kv: Vec<(String, String)> = t.options.iter().filter(|(_, v)| !v.is_empty()).cloned().collect();
    for (k, v) in derived.into_iter().filter(|(_, v)| !v.is_empty()) {
        let aliases: &[&str] = match k {
            "rw" => &["rw", "readwrite"],
            "bs" | "bssplit" => &["bs", "blocksize", "bssplit"],
            "iodepth" | "numjobs" => &[k],
            _ if t.options.is_empty() => &[],
            _ => continue,
        };
        if !kv.iter().any(|(o, _)| aliases.contains(&o.as_str())) {
            kv.push((k.to_string(), v));
        }
    }
    V::O(kv.into_iter().map(|(k, v)| (k, V::S(v))).collect())
}

/// fio's clat_ns / lat_ns object from a µs summary. fio's stddev is the sample one (n − 1);
/// iolens keeps the population one, so it is rescaled.
fn lat(l: &LatStats, n: u64, hist: Option<&HistDump>) -> V {
    let ns = |x: Option<f64>| if n > 0 { x.map_or(0.0, |v| v * 1000.0) } else { 0.0 };
    let dev = if n > 1 { ns(l.stddev) * (n as f64 / (n - 1) as f64).sqrt() } else { 0.0 };
    let mut kv = vec![
        ("min", V::U(ns(l.min).round() as u64)),
        ("max", V::U(ns(l.max).round() as u64)),
        ("mean", V::F(ns(l.mean))),
        ("stddev", V::F(dev)),
        ("N", V::U(n)),
    ];
    if let Some(h) = hist.filter(|h| h.count > 0 && n > 0) {
        let p = FIO_PCT.iter().map(|&p| (format!("{p:.6}"), V::U(h.percentile_ns(p).unwrap_or(0))));
        kv.push(("percentile", V::O(p.collect())));
    }
    obj(kv)
}

/// json+'s `bins` added to a clat_ns object: every recorded latency (ns) with its I/Os. As in
/// fio, a direction without I/Os has none (fio's own json+ readers take a `bins` as non-empty).
fn with_bins(mut clat: V, hist: Option<&HistDump>) -> V {
    if let (V::O(kv), Some(h)) = (&mut clat, hist.filter(|h| h.count > 0)) {
        let bins = h.buckets.iter().filter(|&&(_, n)| n > 0).map(|&(ns, n)| (ns.to_string(), V::U(n)));
        kv.push(("bins".into(), V::O(bins.collect())));
    }
    clat
}

/// One of fio's read / write / trim blocks; `None` is trim.
fn ddir(r: &RunResult, t: &TestResult, read: Option<bool>, plus: bool) -> V {
    let none = LatStats { min: None, mean: None, stddev: None, max: None, percentiles: Percentiles::default() };
    let zero = OpStats { ios: 0, bytes: 0, iops: 0.0, mbps: 0.0, mibps: 0.0, lat_us: none };
    // fio's verify_only walks a writing job's writes without issuing them and counts them,
    // in no time: as many as the blocks it then reads back.
    let walked = read == Some(false) && super::fio_verify::walked_writes(t);
    let walked_op = OpStats { ios: t.read.ios, bytes: t.read.bytes, ..zero.clone() };
    let (op, resp, hist) = match read {
        _ if walked => (&walked_op, &zero.lat_us, None),
        Some(true) => (&t.read, &t.response.read, Some(&t.histograms.read)),
        Some(false) => (&t.write, &t.response.write, Some(&t.histograms.write)),
        // A test that trims does nothing else: its seconds are its trims'.
        None => t.trim.as_ref().map_or((&zero, &zero.lat_us, None), |op| (op, &op.lat_us, t.histograms.trim.as_ref())),
    };
    let active = !walked && op.ios > 0 && t.duration_s > 0.0;
    let ms = if active { (t.duration_s * 1000.0).round() as u64 } else { 0 };
    let bw_bytes = if active { (op.bytes as f64 / t.duration_s) as u64 } else { 0 };
    // The model splits each second's I/Os by direction but not its bytes, so a second's
    // bandwidth is its I/Os × this direction's mean I/O size over the test (bytes / ios).
    let per_io_kib = if active { op.bytes as f64 / op.ios as f64 / 1024.0 } else { 0.0 };
    let iops: Vec<f64> = match read {
        Some(rd) if active => t.seconds.iter().map(|s| if rd { s.read_iops } else { s.write_iops }).collect(),
        None if active => t.seconds.iter().map(|s| s.iops).collect(),
        _ => Vec::new(),
    };
    let bw: Vec<f64> = iops.iter().map(|x| x * per_io_kib).collect();
    let (bw_min, bw_max, bw_mean, bw_dev) = series(&bw);
    let (io_min, io_max, io_mean, io_dev) = series(&iops);
    // fio's bw_agg: this job's share (%) of its group's total bandwidth; jobs of one group run
    // together, so the group's rate is its bytes over its longest test.
    let group = r.tests.iter().filter(|x| x.group == t.group);
    let pick = |x: &TestResult| match read {
        Some(true) => x.read.bytes,
        Some(false) => x.write.bytes,
        None => x.trim.as_ref().map_or(0, |t| t.bytes),
    };
    let g_secs = group.clone().map(|x| x.duration_s).fold(0.0, f64::max);
    let g_kib = if g_secs > 0.0 { group.map(pick).sum::<u64>() as f64 / g_secs / 1024.0 } else { 0.0 };
    let agg = if active && g_kib > 0.0 { (bw_mean * 100.0 / g_kib).min(100.0) } else { 0.0 };
    obj([
        ("io_bytes", V::U(op.bytes)),
        ("io_kbytes", V::U(op.bytes >> 10)),
        ("bw_bytes", V::U(bw_bytes)),
        ("bw", V::U(bw_bytes / 1024)),
        ("iops", V::F(if active { op.iops } else { 0.0 })),
        ("runtime", V::U(ms)),
        ("total_ios", V::U(op.ios)),
        ("short_ios", V::U(0)),
        ("drop_ios", V::U(0)),
        ("slat_ns", lat(&zero.lat_us, 0, None)),
        ("clat_ns", with_bins(lat(&op.lat_us, op.ios, hist), hist.filter(|_| plus && op.ios > 0))),
        ("lat_ns", lat(resp, op.ios, None)),
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
        ("iops_samples", V::U(iops.len() as u64)),
    ])
}

/// Min, max, mean and fio's sample (n − 1) standard deviation of a per-second series.
fn series(xs: &[f64]) -> (f64, f64, f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let n = xs.len() as f64;
    let dev = if xs.len() > 1 { stddev(xs) * (n / (n - 1.0)).sqrt() } else { 0.0 };
    let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
    (min, xs.iter().copied().fold(0.0, f64::max), xs.iter().sum::<f64>() / n, dev)
}

/// fio's latency_ns / _us / _ms: % of all I/Os whose service latency is below each edge (and
/// at least the previous one), nonzero shares shown as at least 0.01 as fio does. Buckets are
/// placed by their highest value, so within 0.1 % of an edge an I/O may land in the next one.
fn latency_buckets(t: &TestResult) -> [V; 3] {
    let (rd, wr) = (&t.histograms.read, &t.histograms.write);
    let total = (rd.count + wr.count) as f64;
    let mut c = [[0u64; 12]; 3];
    for &(v, n) in rd.buckets.iter().chain(&wr.buckets) {
        let (unit, x) = if v < 1000 {
            (0, v)
        } else if v < 1_000_000 {
            (1, v / 1000)
        } else {
            (2, v / 1_000_000)
        };
        c[unit][LAT_EDGES.iter().position(|&e| x < e).unwrap_or(if x < 2000 { 10 } else { 11 })] += n;
    }
    let labels: Vec<String> = LAT_EDGES.iter().map(|e| e.to_string()).chain(["2000".into(), ">=2000".into()]).collect();
    [0, 1, 2].map(|u| {
        let len = if u == 2 { 12 } else { 10 };
        V::O((0..len).map(|i| (labels[i].clone(), V::F(pct_of(c[u][i], total)))).collect())
    })
}

fn pct_of(n: u64, total: f64) -> f64 {
    match n {
        0 => 0.0,
        _ => (100.0 * n as f64 / total).max(0.01),
    }
}

/// fio's disk_util from every test's device figures: counts add up, util is time-weighted, and
/// in_queue (ms of requests in flight) is the mean device queue × the window.
fn disk_util(r: &RunResult) -> V {
    // Per device: read, write requests and merges, util % × s, ms in queue, s.
    let mut devs: Vec<(&str, [f64; 7])> = Vec::new();
    for t in &r.tests {
        for d in &t.disks {
            let s = t.duration_s;
            let (rq, wq, rm, wm) = (d.read_requests, d.write_requests, d.read_merges, d.write_merges);
            let add = [rq as f64, wq as f64, rm as f64, wm as f64, d.util_pct * s, d.mean_queue * s * 1e3, s];
            match devs.iter_mut().find(|x| x.0 == d.device) {
                Some(e) => e.1.iter_mut().zip(add).for_each(|(a, b)| *a += b),
                None => devs.push((&d.device, add)),
            }
        }
    }
    let keys = ["read_ios", "write_ios", "read_merges", "write_merges", "read_ticks", "write_ticks", "in_queue"];
    let dev = |(name, n): (&str, [f64; 7])| {
        let mut kv = vec![("name", V::S(name.to_string()))];
        kv.extend(
            keys.into_iter().zip([n[0], n[1], n[2], n[3], 0.0, 0.0, n[5]]).map(|(k, x)| (k, V::U(x.round() as u64))),
        );
        kv.push(("util", V::F(if n[6] > 0.0 { n[4] / n[6] } else { 0.0 })));
        obj(kv)
    };
    V::A(devs.into_iter().map(dev).collect())
}

/// C's ctime() layout without the newline: "Sun Nov 22 15:41:09 2026", for seconds since the
/// epoch already shifted to local time.
fn ctime(t: i64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]; // 1970-01-01 was a Thursday
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let (days, s) = (t.div_euclid(86400), t.rem_euclid(86400));
    // Days → civil date (H. Hinnant's civil_from_days).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let (d, m) = (doy - (153 * mp + 2) / 5 + 1, if mp < 10 { mp + 3 } else { mp - 9 });
    let y = yoe + era * 400 + i64::from(m <= 2);
    let (wd, mo) = (DAYS[days.rem_euclid(7) as usize], MONTHS[m as usize - 1]);
    format!("{wd} {mo} {d:2} {:02}:{:02}:{:02} {y}", s / 3600, s / 60 % 60, s % 60)
}

mod steady;

#[cfg(test)]
mod tests;

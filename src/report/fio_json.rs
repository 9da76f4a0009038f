//! fio's JSON layout (`fio --output-format=json`, fio 3.x) from the result model, so tools built on
//! it (fio-plot, KDiskMark, scripts reading jobs[].read.iops, bw, clat_ns.percentile, lat_ns.mean)
//! read iolens' results. One test is one job, reported as fio's `group_reporting` would (all
//! threads together). Key names, order, units and JSON types (integer vs float) follow fio 3.33.
//!
//! What iolens does not measure is written as fio writes "nothing measured", never guessed:
//! `slat_ns` is zeros unless the job names its latency stages (slat_percentiles,
//! clat_percentiles, lat_percentiles or unified_rw_reporting: see `ddir.rs`), `ctx`/`majf`/`minf`
//! and disk `read_ticks`/`write_ticks` are 0.
//! Without the stages, `lat_ns` is iolens' response latency (intended start → completion): it
//! equals `clat_ns` without a rate limit and includes pacing delays under one.
//! `iodepth_level` is the configured depth (100 % in its bucket), not a measured distribution.

use crate::result::{RunResult, TestResult};
use crate::stats::LatStats;
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

/// fio's JSON; with `plus`, fio's json+: each stage reported with percentiles also carries its
/// `bins` (latency in ns → I/Os), from the exact histogram, for fio_jsonplus_clat2csv.
pub fn render_as(r: &RunResult, plus: bool) -> String {
    let r = &*groups::entries(r);
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
    let mut kv = vec![
        ("jobname", V::S(t.name.clone())),
        ("groupid", V::U(t.group.into())),
        ("error", V::U(first)),
        ("eta", V::U(0)),
        // Whole seconds of I/O, warm-up and cool-down included (fio also counts its file layout).
        ("elapsed", V::U((sp.warmup + t.duration_s + sp.cooldown).ceil().max(0.0) as u64)),
        ("job options", job_options(t)),
    ];
    kv.extend(directions(r, t, plus));
    kv.extend([
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
    let mut o = obj(kv);
    if let V::O(kv) = &mut o {
        kv.extend(errors.into_iter().map(|(k, v)| (k.to_string(), v)));
        if let Some(ss) = steady::steady(t) {
            kv.push(("steadystate".into(), ss));
        }
        // What iolens ran differently from the job as written (libaio on io_uring, its own
        // verify stamps …), in a key fio's readers skip, so JSON output does not hide it.
        if !t.notices.is_empty() {
            kv.push(("iolens_notices".into(), V::A(t.notices.iter().cloned().map(V::S).collect())));
        }
    }
    o
}

/// read, write, trim and sync; or, under unified_rw_reporting, `mixed` alone, as fio.
fn directions(r: &RunResult, t: &TestResult, plus: bool) -> Vec<(&'static str, V)> {
    use ddir::{ddir, Dir};
    let st = t.spec.stages.unwrap_or_default();
    if st.unified {
        return vec![("mixed", ddir(r, t, Dir::Mixed, plus))];
    }
    // fio's sync percentiles follow its clat and lat ones.
    let sync_lat = match t.histograms.fsync.as_ref() {
        Some(h) => ddir::lat_hist(Some(h), st.clat || st.lat, plus),
        None => lat(&t.fsync.lat_us, t.fsync.count),
    };
    vec![
        ("read", ddir(r, t, Dir::Read, plus)),
        ("write", ddir(r, t, Dir::Write, plus)),
        ("trim", ddir(r, t, Dir::Trim, plus)),
        ("sync", obj([("total_ios", V::U(t.fsync.count)), ("lat_ns", sync_lat)])),
    ]
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
fn lat(l: &LatStats, n: u64) -> V {
    let ns = |x: Option<f64>| if n > 0 { x.map_or(0.0, |v| v * 1000.0) } else { 0.0 };
    let dev = if n > 1 { ns(l.stddev) * (n as f64 / (n - 1) as f64).sqrt() } else { 0.0 };
    obj([
        ("min", V::U(ns(l.min).round() as u64)),
        ("max", V::U(ns(l.max).round() as u64)),
        ("mean", V::F(ns(l.mean))),
        ("stddev", V::F(dev)),
        ("N", V::U(n)),
    ])
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

mod ddir;
mod groups;
mod steady;
mod terse;

pub use terse::render as render_terse;

#[cfg(test)]
mod tests;

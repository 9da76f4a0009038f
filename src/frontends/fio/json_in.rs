//! fio's JSON output (`--output-format=json` or `json+`) as a `RunResult`, so results measured
//! with fio on other machines are stored and compared like iolens' own. A job's spec comes
//! from its options (through the fio job reader), so `compare` matches it by
//! what it ran. fio reports a job with `numjobs=N` and no `group_reporting` as N entries of the
//! same name: they become one test with a thread each, as `compare` folds iolens' own clones. Latency is
//! fio's total latency (`lat_ns`) when it has percentiles (`lat_percentiles=1`), else its
//! completion latency (`clat_ns`); `json+` adds the histogram bins, which merge exactly.

use crate::error::UsageError;
use crate::result::{
    FsyncStats, Histograms, Host, OpStats, ResponseLat, RunResult, TargetInfo, TestResult, ThreadOp, ThreadStats,
};
use crate::stats::cpu::CpuStats;
use crate::stats::{HistDump, LatRec, LatStats, Percentiles, PERCENTILES};
use serde_json::Value;

/// One direction (read or write) of one fio job entry.
struct Dir {
    ios: u64,
    bytes: u64,
    iops: f64,
    bw: f64,
    iops_stddev: f64,
    lat: Lat,
}

/// A latency block of fio's: exact moments, fio's percentiles, and the bins if `json+`.
struct Lat {
    rec: LatRec,
    pcts: Vec<(f64, f64)>,
    bins: bool,
}

fn num(v: &Value, k: &str) -> f64 {
    v.get(k).and_then(Value::as_f64).unwrap_or(0.0)
}

fn lat(block: &Value) -> Lat {
    let n = num(block, "N") as u64;
    let (mean, sd) = (num(block, "mean"), num(block, "stddev"));
    let bins: Vec<(u64, u64)> = block
        .get("bins")
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, c)| Some((k.parse().ok()?, c.as_u64()?))).collect())
        .unwrap_or_default();
    let dump = HistDump {
        unit: "ns".into(),
        significant_digits: 3,
        count: n,
        sum_ns: (mean * n as f64) as u64,
        sum_sq_ns: n as f64 * (sd * sd + mean * mean),
        min_ns: num(block, "min") as u64,
        max_ns: num(block, "max") as u64,
        buckets: bins.clone(),
    };
    let pcts = block
        .get("percentile")
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| Some((k.parse().ok()?, v.as_f64()?))).collect())
        .unwrap_or_default();
    Lat { rec: LatRec::from_dump(&dump), pcts, bins: n == 0 || !bins.is_empty() }
}

/// One entry's direction; its histogram goes into `acc` at once, so that thousands of json+
/// entries never hold a histogram each (the entry keeps what its thread's figures need).
fn dir(v: &Value, use_lat: bool, acc: &mut LatRec) -> Dir {
    let block = if use_lat { &v["lat_ns"] } else { &v["clat_ns"] };
    Dir {
        ios: num(v, "total_ios") as u64,
        bytes: num(v, "io_bytes") as u64,
        iops: num(v, "iops"),
        bw: num(v, "bw_bytes"),
        iops_stddev: num(v, "iops_stddev"),
        lat: lat_into(block, acc),
    }
}

fn lat_into(block: &Value, acc: &mut LatRec) -> Lat {
    let mut l = lat(block);
    *acc += &l.rec;
    l.rec = l.rec.stats_only();
    l
}

/// Merged latency of several entries: percentiles from the bins when every entry has them,
/// fio's own when there is one entry, none otherwise (percentiles do not add up). `all` is the
/// entries' merged record where it was kept as they were read; else their figures are summed.
fn merged(lats: &[&Lat], all: Option<LatRec>) -> (LatStats, LatRec, bool) {
    let rec = all.unwrap_or_else(|| {
        let mut rec = LatRec::default();
        for l in lats {
            rec += &l.rec;
        }
        rec
    });
    let mut s = rec.summary();
    let have: Vec<&&Lat> = lats.iter().filter(|l| l.rec.count() > 0).collect();
    let exact = have.iter().all(|l| l.bins);
    if !exact {
        s.percentiles = Percentiles(
            PERCENTILES
                .iter()
                .map(|p| {
                    let want: f64 = p.parse().expect("percentile keys are numbers");
                    let v = match have.as_slice() {
                        [one] => one.pcts.iter().find(|(k, _)| (k - want).abs() < 1e-6).map(|(_, ns)| ns / 1000.0),
                        _ => None,
                    };
                    (p.to_string(), v)
                })
                .collect(),
        );
    }
    (s, rec, exact)
}

fn op_stats(dirs: &[&Dir], all: Option<LatRec>) -> (OpStats, LatRec, bool) {
    let (lat_us, rec, exact) = merged(&dirs.iter().map(|d| &d.lat).collect::<Vec<_>>(), all);
    let bytes: u64 = dirs.iter().map(|d| d.bytes).sum();
    let bw: f64 = dirs.iter().map(|d| d.bw).sum();
    let ios = dirs.iter().map(|d| d.ios).sum();
    let iops = dirs.iter().map(|d| d.iops).sum::<f64>();
    (OpStats { ios, bytes, iops, mbps: bw / 1e6, mibps: bw / 1048576.0, lat_us }, rec, exact)
}

fn thread_op(d: &[&Dir]) -> ThreadOp {
    let (s, _, _) = op_stats(d, None);
    ThreadOp {
        bytes: s.bytes,
        ios: s.ios,
        mbps: s.mbps,
        mibps: s.mibps,
        iops: s.iops,
        lat_mean_us: s.lat_us.mean,
        lat_stddev_us: s.lat_us.stddev,
        iops_stddev: d.iter().map(|x| x.iops_stddev).sum(),
    }
}

fn options(v: &Value) -> Vec<(String, String)> {
    v.as_object()
        .map(|m| {
            m.iter()
                .map(|(k, x)| (k.clone(), x.as_str().map(str::to_string).unwrap_or_else(|| x.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

/// fio's REAL_MAX_JOBS: no fio run reports more jobs than this.
const MAX_JOBS: usize = 4096;

/// `doc` is fio's JSON; `file` names it in notices; `host` is where it ran when fio does not say.
pub fn from_fio_json(doc: &Value, file: &str, host: Option<&str>) -> Result<RunResult, UsageError> {
    let bad = |m: &str| UsageError::new(file, format!("is not fio's JSON output: {m}"));
    let jobs = doc.get("jobs").and_then(Value::as_array).ok_or_else(|| bad("no \"jobs\" list"))?;
    if jobs.is_empty() {
        return Err(bad("its \"jobs\" list is empty"));
    }
    if jobs.len() > MAX_JOBS {
        return Err(bad(&format!("its \"jobs\" list holds {} entries; fio runs at most {MAX_JOBS} jobs", jobs.len())));
    }
    let version = doc.get("fio version").and_then(Value::as_str).unwrap_or("fio").to_string();
    let globals = options(&doc["global options"]);
    // Entries of one job (same name and group) become one test, in the order fio listed them.
    let mut groups: Vec<((String, u64), Vec<&Value>)> = Vec::new();
    let mut index: std::collections::HashMap<(String, u64), usize> = std::collections::HashMap::new();
    for j in jobs {
        let key = (
            j["jobname"].as_str().ok_or_else(|| bad("a job without \"jobname\""))?.to_string(),
            j["groupid"].as_u64().unwrap_or(0),
        );
        match index.get(&key) {
            Some(&k) => groups[k].1.push(j),
            None => {
                index.insert(key.clone(), groups.len());
                groups.push((key, vec![j]));
            }
        }
    }
    bounds::check(doc, &mut String::new()).map_err(|m| bad(&m))?;
    let started_at = match doc.get("timestamp").and_then(Value::as_u64) {
        // Past 9999-12-31 the time has no RFC 3339 form.
        Some(t) if t > bounds::LAST_SECOND => return Err(bad(&format!("\"timestamp\" {t} is past the year 9999"))),
        Some(t) => {
            humantime::format_rfc3339_seconds(std::time::UNIX_EPOCH + std::time::Duration::from_secs(t)).to_string()
        }
        None => String::new(),
    };
    let mut tests = Vec::new();
    let mut targets: Vec<TargetInfo> = Vec::new();
    for ((name, group), entries) in groups {
        tests.push(test(&name, group, &entries, &globals, &started_at, &version)?);
        let opts: Vec<(String, String)> = globals.iter().cloned().chain(options(&entries[0]["job options"])).collect();
        for (k, v) in opts.iter().rev() {
            if k == "filename" || k == "directory" {
                for path in v.split(':').filter(|p| !p.is_empty()) {
                    if !targets.iter().any(|t| t.path == path) {
                        targets.push(target(path, tests.last().map_or(0, |t: &TestResult| t.spec.size)));
                    }
                }
                break;
            }
        }
    }
    let hostname = jobs.iter().find_map(|j| j.get("hostname").and_then(Value::as_str)).or(host).unwrap_or("unknown");
    Ok(RunResult {
        schema_version: crate::result::SCHEMA_VERSION,
        iolens_version: env!("CARGO_PKG_VERSION").into(),
        build: None,
        command: "fio".into(),
        args: Vec::new(),
        started_at,
        host: Host::named(hostname, targets),
        tests,
        interrupted: false,
        label: None,
        tags: Vec::new(),
        source: Some(format!("{version} JSON output ({file})")),
        analysis: None,
        simdb: None,
    })
}

fn target(path: &str, size: u64) -> TargetInfo {
    let kind = if path.starts_with("/dev/") {
        crate::result::TargetKind::BlockDevice
    } else {
        crate::result::TargetKind::File
    };
    TargetInfo {
        path: path.to_string(),
        kind,
        size_bytes: size,
        created: false,
        device: None,
        model: None,
        scheduler: None,
        rotational: None,
        logical_block_size: None,
        filesystem: None,
        mount_point: None,
        cluster_bytes: None,
        bus: None,
    }
}

fn test(
    name: &str,
    group: u64,
    entries: &[&Value],
    globals: &[(String, String)],
    at: &str,
    version: &str,
) -> Result<TestResult, UsageError> {
    let opts = options(&entries[0]["job options"]);
    let mut notices = Vec::new();
    let mut spec = spec(name, globals, &opts, &mut notices);
    let all: Vec<(String, String)> = globals.iter().cloned().chain(opts).collect();
    let opt = |k: &str| all.iter().rev().find(|(o, _)| o == k).map(|(_, v)| v.clone());
    let use_lat = entries
        .iter()
        .any(|e| e["read"]["lat_ns"].get("percentile").is_some() || e["write"]["lat_ns"].get("percentile").is_some());
    let [mut r, mut w, mut t, mut s] = [(); 4].map(|_| LatRec::default());
    let reads: Vec<Dir> = entries.iter().map(|e| dir(&e["read"], use_lat, &mut r)).collect();
    let writes: Vec<Dir> = entries.iter().map(|e| dir(&e["write"], use_lat, &mut w)).collect();
    let trims: Vec<Dir> = entries.iter().map(|e| dir(&e["trim"], use_lat, &mut t)).collect();
    let mut every = r.clone();
    every += &w;
    every += &t;
    let secs =
        entries.iter().flat_map(|e| ["read", "write", "trim"].map(|d| num(&e[d], "runtime"))).fold(0f64, f64::max)
            / 1000.0;
    let (read, rrec, rx) = op_stats(&reads.iter().collect::<Vec<_>>(), Some(r));
    let (write, wrec, wx) = op_stats(&writes.iter().collect::<Vec<_>>(), Some(w));
    let (trim, trec, trx) = op_stats(&trims.iter().collect::<Vec<_>>(), Some(t));
    let trim = (trim.ios > 0).then_some((trim, trec, trx));
    let (total, _, tx) = op_stats(&reads.iter().chain(&writes).chain(&trims).collect::<Vec<_>>(), Some(every));
    notices.push(format!(
        "from {version}: latency is fio's {}; no per-second figures",
        if use_lat { "total latency (lat)" } else { "completion latency (clat, from submission to completion)" }
    ));
    if !(rx && wx && tx) && entries.len() > 1 {
        notices.push(format!(
            "{} fio entries merged without histogram bins: no merged percentiles (use group_reporting or --output-format=json+)",
            entries.len()
        ));
    }
    if entries.len() > 1 {
        spec.threads = entries.len() as u32;
    }
    let threads = threads(&reads, &writes, &trims);
    notices.push("CPU: fio's usr/sys percentages of one CPU, summed over its jobs".into());
    let sync: Vec<Lat> = entries.iter().map(|e| lat_into(&e["sync"]["lat_ns"], &mut s)).collect();
    let (fsync_lat, _, _) = merged(&sync.iter().collect::<Vec<_>>(), Some(s));
    let errors: Vec<i64> = entries.iter().filter_map(|e| e["error"].as_i64()).filter(|&e| e != 0).collect();
    if let Some(e) = errors.first() {
        notices.push(format!("fio reported error {e} for this job"));
    }
    let depth = opt("iodepth").and_then(|d| d.parse().ok()).unwrap_or(1);
    let mean_qd = total.iops * total.lat_us.mean.unwrap_or(0.0) / 1e6;
    let dump = |rec: &LatRec, exact: bool| if exact { rec.dump() } else { LatRec::default().dump() };
    Ok(TestResult {
        name: name.to_string(),
        engine: opt("ioengine").unwrap_or_else(|| "psync".into()),
        depth,
        options: all,
        group: group as u32,
        started_at: at.to_string(),
        duration_s: secs,
        interrupted: false,
        response: ResponseLat { read: read.lat_us.clone(), write: write.lat_us.clone(), total: total.lat_us.clone() },
        fsync: FsyncStats { count: sync.iter().map(|l| l.rec.count()).sum(), lat_us: fsync_lat },
        histograms: Histograms::service(dump(&rrec, rx), dump(&wrec, wx), trim.as_ref().map(|(_, r, x)| dump(r, *x))),
        trim: trim.map(|t| t.0),
        verify: None,
        read,
        write,
        total,
        threads,
        seconds: Vec::new(),
        shifts: Vec::new(),
        dropped: None,
        cpu: cpu(entries, reads.iter().chain(&writes).map(|d| d.ios).sum()),
        disks: Vec::new(),
        mean_qd,
        notices,
        spec,
        errors: Default::default(),
        failed: None,
        ranks: Vec::new(),
        steady: None,
        replay: None,
        stages: None,
    })
}

/// The job's spec from its options; what does not make one, or is left out of it, in `notices`.
fn spec(
    name: &str,
    globals: &[(String, String)],
    opts: &[(String, String)],
    notices: &mut Vec<String>,
) -> crate::workload::Spec {
    let (spec, dropped) = super::spec_of_options(name, globals, opts).unwrap_or_else(|e| {
        notices.push(format!("the job's options do not make an iolens spec ({e}); matched as a default test"));
        (crate::workload::Spec::default(), Vec::new())
    });
    if !dropped.is_empty() {
        notices.push(format!("options iolens does not know, left out of the spec: {}", dropped.join(", ")));
    }
    spec.as_ran()
}

/// One thread per fio entry of the job.
fn threads(reads: &[Dir], writes: &[Dir], trims: &[Dir]) -> Vec<ThreadStats> {
    (0..reads.len())
        .map(|i| ThreadStats {
            thread: i as u32,
            target: 0,
            read: thread_op(&[&reads[i]]),
            write: thread_op(&[&writes[i]]),
            total: thread_op(&[&reads[i], &writes[i], &trims[i]]),
            seconds: Vec::new(),
            second_lat: Vec::new(),
            waits: None,
        })
        .collect()
}

/// fio's usr/sys percentages of one CPU, summed over the job's entries, and the CPU time per
/// read or write (`ios` of them).
fn cpu(entries: &[&Value], ios: u64) -> CpuStats {
    let cpu_s: f64 =
        entries.iter().map(|e| (num(e, "usr_cpu") + num(e, "sys_cpu")) / 100.0 * num(e, "job_runtime") / 1000.0).sum();
    CpuStats {
        cores: 0,
        user_pct: entries.iter().map(|e| num(e, "usr_cpu")).sum(),
        system_pct: entries.iter().map(|e| num(e, "sys_cpu")).sum(),
        us_per_io: (cpu_s > 0.0).then(|| cpu_s * 1e6 / ios.max(1) as f64),
        per_cpu: Vec::new(),
    }
}

mod bounds;

#[cfg(test)]
mod tests;

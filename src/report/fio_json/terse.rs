//! fio's terse output, version 3 (`--output-format=terse`, `--minimal`): one `;`-separated line
//! per job, as fio's show_thread_status_terse_all writes it. Every field is read from the job's
//! JSON object, so the two outputs of one run cannot disagree.
//!
//! Per job: `3;VERSION;NAME;GROUP;ERROR`, then reads (or `mixed` under unified reporting) and
//! writes, each `KiB;KiB/s;IOPS;ms` + slat, clat (min, max, mean, dev, µs) + 20 percentiles
//! (lat's where the job reports lat percentiles, else clat's; `0%=0` past fio's 17) + lat + bw
//! (min, max, agg %, mean, dev, KiB/s); CPU (usr %, sys %, ctx, majf, minf); 7 depth levels;
//! 10 µs and 12 ms latency shares; each disk's figures; with continue_on_error, the error
//! count and the first error.

use super::{disk_util, job, V};
use crate::result::RunResult;
use std::fmt::Write;

/// fio's FIO_IO_U_LIST_MAX_LEN: the percentile fields every direction has.
const PCT_FIELDS: usize = 20;

fn get<'a>(v: &'a V, key: &str) -> Option<&'a V> {
    match v {
        V::O(kv) => kv.iter().find(|(k, _)| k == key).map(|(_, x)| x),
        _ => None,
    }
}

fn num(v: &V, key: &str) -> f64 {
    match get(v, key) {
        Some(V::U(n)) => *n as f64,
        Some(V::F(x)) => *x,
        _ => 0.0,
    }
}

fn int(v: &V, key: &str) -> u64 {
    num(v, key) as u64
}

fn values(v: Option<&V>) -> Vec<(String, f64)> {
    match v {
        Some(V::O(kv)) => kv
            .iter()
            .map(|(k, x)| {
                let n = match x {
                    V::U(n) => *n as f64,
                    V::F(f) => *f,
                    _ => 0.0,
                };
                (k.clone(), n)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// One latency stage: min, max (whole µs), mean and deviation (µs, six decimals).
fn stage(o: &mut String, lat: Option<&V>) {
    let Some(l) = lat.filter(|l| int(l, "N") > 0) else {
        o.push_str(";0;0;0.000000;0.000000");
        return;
    };
    let _ = write!(
        o,
        ";{};{};{:.6};{:.6}",
        int(l, "min") / 1000,
        int(l, "max") / 1000,
        num(l, "mean") / 1000.0,
        num(l, "stddev") / 1000.0
    );
}

fn direction(o: &mut String, d: &V, lat_pct: bool) {
    let (ios, runtime) = (int(d, "total_ios"), int(d, "runtime"));
    let iops = (1000 * ios).checked_div(runtime).unwrap_or(0);
    let _ = write!(o, ";{};{};{};{}", int(d, "io_kbytes"), int(d, "bw"), iops, runtime);
    stage(o, get(d, "slat_ns"));
    stage(o, get(d, "clat_ns"));
    let from = if lat_pct { "lat_ns" } else { "clat_ns" };
    let pct = values(get(d, from).and_then(|l| get(l, "percentile")));
    for i in 0..PCT_FIELDS {
        match pct.get(i) {
            Some((p, ns)) => {
                let _ = write!(o, ";{p}%={}", *ns as u64 / 1000);
            }
            None => o.push_str(";0%=0"),
        }
    }
    stage(o, get(d, "lat_ns"));
    let _ = write!(
        o,
        ";{};{};{:.6}%;{:.6};{:.6}",
        int(d, "bw_min"),
        int(d, "bw_max"),
        num(d, "bw_agg"),
        num(d, "bw_mean"),
        num(d, "bw_dev")
    );
}

pub fn render(r: &RunResult) -> String {
    let r = &*super::groups::entries(r);
    let mut out = String::new();
    let disks = match disk_util(r) {
        V::A(ds) => ds,
        _ => Vec::new(),
    };
    for t in &r.tests {
        let j = job(r, t, false);
        let st = t.spec.stages.unwrap_or_default();
        let o = &mut out;
        let name = match get(&j, "jobname") {
            Some(V::S(s)) => s.replace([';', '\n'], " "),
            _ => String::new(),
        };
        let _ = write!(o, "3;iolens-{};{name};{};{}", r.iolens_version, t.group, int(&j, "error"));
        let dirs: &[&str] = if st.unified { &["mixed"] } else { &["read", "write"] };
        for d in dirs {
            if let Some(d) = get(&j, d) {
                direction(o, d, st.lat);
            }
        }
        let _ = write!(
            o,
            ";{:.6}%;{:.6}%;{};{};{}",
            num(&j, "usr_cpu"),
            num(&j, "sys_cpu"),
            int(&j, "ctx"),
            int(&j, "majf"),
            int(&j, "minf")
        );
        for (_, p) in values(get(&j, "iodepth_level")) {
            let _ = write!(o, ";{p:.1}%");
        }
        // fio's microsecond shares take the nanosecond ones into their first.
        let ns: f64 = values(get(&j, "latency_ns")).iter().map(|(_, p)| p).sum();
        for (i, (_, p)) in values(get(&j, "latency_us")).into_iter().enumerate() {
            let _ = write!(o, ";{:.2}%", if i == 0 { p + ns } else { p });
        }
        for (_, p) in values(get(&j, "latency_ms")) {
            let _ = write!(o, ";{p:.2}%");
        }
        for d in &disks {
            let name = match get(d, "name") {
                Some(V::S(s)) => s.as_str(),
                _ => "",
            };
            let _ = write!(o, ";{name}");
            for k in ["read_ios", "write_ios", "read_merges", "write_merges", "read_ticks", "write_ticks", "in_queue"] {
                let _ = write!(o, ";{}", int(d, k));
            }
            let _ = write!(o, ";{:.2}%", num(d, "util"));
        }
        if t.spec.on_error.go_on != [false, false] {
            let _ = write!(o, ";{};{}", int(&j, "total_err"), int(&j, "first_error"));
        }
        o.push('\n');
    }
    out
}

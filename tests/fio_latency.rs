//! fio's latency stages as fio's latency_percentiles test reads them: slat, clat and lat
//! percentiles (json and json+), the lat logs holding exactly the I/Os counted with the values
//! the percentiles come from, unified reporting, fsync percentiles, terse output, and per-I/O
//! priorities. Before, slat was zeros, lat had no percentiles, the logs were timed apart from
//! the result (a null clat p50 of 24 ns logged against 244 ns reported, one I/O more logged than
//! counted), and terse output and cmdprio were refused.
#![cfg(target_os = "linux")]

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

fn fio(dir: &Path, args: &[&str]) -> (i32, String, String) {
    parts(&bin().current_dir(dir).arg("fio").args(args).output().unwrap())
}

fn json(out: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// The values of a fio latency log's lines of direction `ddir` (None: every line).
fn logged(path: &Path, ddir: Option<u64>) -> Vec<u64> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|l| l.split(", ").map(|f| f.parse::<u64>().unwrap_or(0)).collect::<Vec<_>>())
        .filter(|f| ddir.is_none_or(|d| f[2] == d))
        .map(|f| f[1])
        .collect()
}

/// fio's test: every percentile within 1/128 of the logged value at fio's rank.
fn percentiles_match(stage: &Value, mut values: Vec<u64>, what: &str) {
    values.sort_unstable();
    assert_eq!(stage["N"].as_u64(), Some(values.len() as u64), "{what}: N against the lines logged");
    let pct = stage["percentile"].as_object().unwrap_or_else(|| panic!("{what}: no percentiles: {stage}"));
    assert_eq!(pct.len(), 17, "{what}");
    for (p, v) in pct {
        let rank = (p.parse::<f64>().unwrap() / 100.0 * values.len() as f64).ceil() as usize;
        let want = values[rank.max(1) - 1] as f64;
        let got = v.as_u64().unwrap() as f64;
        assert!((got - want).abs() <= want / 128.0, "{what} p{p}: reported {got}, logged {want}");
    }
}

#[test]
fn lat_logs_hold_the_counted_ios_and_the_reported_percentiles() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--name=latency",
        "--ioengine=null",
        "--rw=randread",
        "--size=16M",
        "--number_ios=20000",
        "--write_lat_log=l",
        "--slat_percentiles=1",
        "--clat_percentiles=1",
        "--lat_percentiles=1",
        "--output-format=json+",
    ];
    let (code, out, err) = fio(dir.path(), &args);
    assert_eq!(code, 0, "{err}");
    let read = json(&out)["jobs"][0]["read"].clone();
    assert_eq!(read["total_ios"].as_u64(), Some(20000));
    // The null engine does each I/O in the submitting call: no submission latency, as fio.
    assert!(read["slat_ns"].get("percentile").is_none(), "{}", read["slat_ns"]);
    for stage in ["clat", "lat"] {
        let s = &read[format!("{stage}_ns")];
        percentiles_match(s, logged(&dir.path().join(format!("l_{stage}.1.log")), Some(0)), stage);
        let bins: u64 = s["bins"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
        assert_eq!(bins, 20000, "{stage}: json+ bins hold every I/O");
    }
}

#[test]
fn an_async_engine_reports_slat_and_unified_reporting_gives_mixed() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "--name=latency",
        "--ioengine=libaio",
        "--iodepth=4",
        "--rw=randrw",
        "--size=4M",
        "--number_ios=4000",
        "--filename=f",
        "--write_lat_log=l",
        "--slat_percentiles=1",
        "--lat_percentiles=1",
        "--output-format=json",
    ];
    let (code, out, err) = fio(dir.path(), &base);
    assert_eq!(code, 0, "{err}");
    let j = json(&out)["jobs"][0].clone();
    for (d, name) in [(0, "read"), (1, "write")] {
        let slat = &j[name]["slat_ns"];
        percentiles_match(slat, logged(&dir.path().join("l_slat.1.log"), Some(d)), name);
        percentiles_match(&j[name]["lat_ns"], logged(&dir.path().join("l_lat.1.log"), Some(d)), name);
        // json, not json+: no bins.
        assert!(slat.get("bins").is_none());
    }
    // clat percentiles stay on by default.
    assert!(j["read"]["clat_ns"]["percentile"].is_object());
    let (code, out, err) = fio(dir.path(), &[&base[..], &["--unified_rw_reporting=1"]].concat());
    assert_eq!(code, 0, "{err}");
    let j = json(&out)["jobs"][0].clone();
    assert!(j.get("read").is_none() && j.get("write").is_none() && j.get("sync").is_none(), "{j}");
    assert_eq!(j["mixed"]["total_ios"].as_u64(), Some(4000));
    percentiles_match(&j["mixed"]["lat_ns"], logged(&dir.path().join("l_lat.1.log"), None), "mixed");
}

#[test]
fn fsyncs_get_percentiles_and_terse_output_matches_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--name=t",
        "--ioengine=null",
        "--rw=randwrite",
        "--size=16M",
        "--number_ios=3200",
        "--fsync=32",
        "--output-format=terse,json+",
    ];
    let (code, out, err) = fio(dir.path(), &args);
    assert_eq!(code, 0, "{err}");
    let (terse, doc) = out.split_once('\n').unwrap();
    let sync = &json(doc)["jobs"][0]["sync"];
    let n = sync["total_ios"].as_u64().unwrap();
    assert!(n >= 99, "{sync}");
    assert_eq!(sync["lat_ns"]["N"].as_u64(), Some(n));
    assert!(sync["lat_ns"]["percentile"].is_object() && sync["lat_ns"]["bins"].is_object(), "{sync}");
    // fio's version 3: 5 fields, 41 per direction (reads, writes), 5 CPU, 7 depths, 10 + 12
    // latency shares, then 9 per disk.
    let f: Vec<&str> = terse.split(';').collect();
    let fixed = 5 + 2 * 41 + 5 + 7 + 10 + 12;
    assert_eq!((f[0], (f.len() - fixed) % 9), ("3", 0), "{terse}");
    let write_clat = &json(doc)["jobs"][0]["write"]["clat_ns"]["percentile"];
    for field in &f[58..75] {
        let (p, us) = field.split_once("%=").unwrap();
        assert_eq!(us.parse::<u64>().unwrap(), write_clat[p].as_u64().unwrap() / 1000, "{field}");
    }
    assert_eq!(f[75..78], ["0%=0"; 3]);
    // --minimal is the same line alone.
    let (code, out, err) = fio(dir.path(), &[&args[..6], &["--minimal"]].concat());
    assert_eq!((code, out.lines().count()), (0, 1), "{err}");
    assert!(out.starts_with("3;iolens-"), "{out}");
}

#[test]
fn cmdprio_gives_a_share_of_the_ios_another_priority() {
    let privileged = Privileged::new();
    // The real-time class needs CAP_SYS_ADMIN (or CAP_SYS_NICE) for io_uring to accept it.
    if privileged.need("root (real-time I/O priority)", root()).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--name=p",
        "--ioengine=libaio",
        "--rw=randread",
        "--size=4M",
        "--number_ios=4000",
        "--filename=f",
        "--cmdprio_percentage=50",
        "--lat_percentiles=1",
        "--output-format=json+",
    ];
    let (code, out, err) = fio(dir.path(), &args);
    assert_eq!(code, 0, "{err}");
    let read = json(&out)["jobs"][0]["read"].clone();
    let prios = read["prios"].as_array().unwrap_or_else(|| panic!("no prios: {read}"));
    let keys: Vec<(u64, u64)> =
        prios.iter().map(|p| (p["prioclass"].as_u64().unwrap(), p["prio"].as_u64().unwrap())).collect();
    assert_eq!(keys, [(0, 0), (1, 0)]);
    let n: Vec<u64> = prios.iter().map(|p| p["lat_ns"]["N"].as_u64().unwrap()).collect();
    assert_eq!(n.iter().sum::<u64>(), 4000);
    assert!((1600..2400).contains(&n[1]), "{n:?}: about half carry the real-time class");
}

#[test]
fn bad_stage_and_priority_values_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for (bad, names) in [
        ("--cmdprio_percentage=101", "cmdprio_percentage"),
        ("--lat_percentiles=2", "lat_percentiles"),
        ("--cmdprio_bssplit=4k/50/1", "cmdprio_bssplit"),
        ("--unified_rw_reporting=both", "unified_rw_reporting"),
        ("--output-format=xml", "--output-format"),
    ] {
        let (code, _, err) = fio(dir.path(), &["--name=x", "--ioengine=libaio", "--size=1M", "--filename=f", bad]);
        assert_eq!((code, err.lines().count()), (2, 1), "{bad}: {err}");
        assert!(err.contains(names), "{bad}: {err}");
    }
    assert!(!dir.path().join("f").exists(), "a refused job touches no file");
}

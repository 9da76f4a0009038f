//! `pattern --from-stats` and `plan --from-stats`: the workload two snapshots of a database's own
//! counters describe, run at its rates on a file, and the cloud configurations that carry it.
//! The snapshots (tests/data/counters/) are of a known synthetic workload over 60 s: 2,000 reads/s
//! of 8 KiB on the data file, 300 writes/s of 60 KiB on the log, tempdb idle.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/counters").join(name).display().to_string()
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("from-stats-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn test_named<'a>(v: &'a Value, end: &str) -> &'a Value {
    v["tests"].as_array().unwrap().iter().find(|t| t["name"].as_str().unwrap().ends_with(end)).unwrap_or_else(|| {
        panic!(
            "no test named …{end} in {:?}",
            v["tests"].as_array().unwrap().iter().map(|t| &t["name"]).collect::<Vec<_>>()
        )
    })
}

#[test]
fn pattern_from_stats_runs_each_file_at_its_observed_rate_and_size() {
    let dir = scratch("pattern");
    let (before, after) = (data("sqlserver-before.csv"), data("sqlserver-after.csv"));
    let out = bin()
        .args(["pattern", "--from-stats", &before, &after])
        .arg(&dir)
        .args(["--duration", "5", "--size", "64MiB", "--format", "json", "--quiet", "--no-store"])
        .output()
        .unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["command"], "pattern");
    // tempdb did no I/O in the interval; the data file only read, the log only wrote.
    assert_eq!(v["tests"].as_array().unwrap().len(), 2);
    let reads = test_named(&v, r"sales.mdf reads");
    let writes = test_named(&v, r"sales_log.ldf writes");
    assert_eq!((f(&reads["spec"]["rate_iops"]), f(&writes["spec"]["rate_iops"])), (2000.0, 300.0));
    let r = f(&reads["read"]["iops"]);
    let w = f(&writes["write"]["iops"]);
    assert!((r / 2000.0 - 1.0).abs() <= 0.02, "reads/s {r}");
    assert!((w / 300.0 - 1.0).abs() <= 0.02, "writes/s {w}");
    assert_eq!(u(&reads["write"]["ios"]) + u(&writes["read"]["ios"]), 0);
    // The database's average sizes, exactly: 8 KiB reads, 60 KiB writes.
    assert_eq!(u(&reads["read"]["bytes"]), u(&reads["read"]["ios"]) * 8192);
    assert_eq!(u(&writes["write"]["bytes"]), u(&writes["write"]["ios"]) * 61440);
    assert_eq!(
        (reads["spec"]["pattern"].as_str(), writes["spec"]["pattern"].as_str()),
        (Some("random"), Some("sequential"))
    );
    // Each stream says whether it kept up, and against what the database waited.
    let said = |t: &Value| {
        t["notices"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    let verdict = said(reads).into_iter().find(|n| n.contains("asked 2000.0 reads/s")).expect("a verdict");
    assert!(verdict.contains("keeps up") && verdict.contains("against 2.00 ms the database waited"), "{verdict}");
    assert!(said(writes).iter().any(|n| n.contains("against 0.50 ms the database waited")));
    assert!(entries(&dir).is_empty(), "left behind: {:?}", entries(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_restart_between_the_snapshots_is_one_line_exit_2_touching_nothing() {
    let dir = scratch("reset");
    let after = dir.join("after.csv");
    let text = std::fs::read_to_string(data("sqlserver-after.csv"))
        .unwrap()
        .replace("5,1,86460000,1120000", "5,1,86460000,120");
    std::fs::write(&after, text).unwrap();
    let run = dir.join("run");
    std::fs::create_dir(&run).unwrap();
    let out = bin()
        .args(["pattern", "--from-stats", &data("sqlserver-before.csv")])
        .arg(&after)
        .arg(&run)
        .args(["--duration", "1", "--no-store"])
        .output()
        .unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        format!(
            "error: {}: line 5: reads of database 5 file 1 went from 1000000 to 120: counters only grow, so the server restarted (or they were reset) between the snapshots; take both since then\n",
            after.display()
        )
    );
    assert!(entries(&run).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plan_from_stats_names_configurations_whose_sustained_limits_meet_the_observed_rates() {
    let (before, after) = (data("sqlserver-before.csv"), data("sqlserver-after.csv"));
    let out =
        bin().args(["plan", "--from-stats", &before, &after, "--cloud", "azure", "--format", "json"]).output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    // 2,000 reads/s + 300 writes/s; 16.384 + 18.432 MB/s.
    assert_eq!(f(&v["observed_iops"]), 2300.0);
    assert!((f(&v["observed_mbps"]) - 34.816).abs() < 1e-9);
    assert_eq!(f(&v["headroom_pct"]), 20.0);
    assert!((f(&v["target"]["iops"]) - 2760.0).abs() < 1e-9);
    let found = v["candidates"].as_array().unwrap();
    assert!(!found.is_empty());
    for c in found {
        assert_eq!(c["cloud"], "azure");
        assert!(f(&c["iops"]) >= 2300.0 * 1.2 && f(&c["mbps"]) >= 34.816 * 1.2, "{c}");
    }
    // Priced configurations rank first, cheapest first.
    let prices: Vec<f64> = found.iter().map_while(|c| c["price_month"].as_f64()).collect();
    assert!(prices.windows(2).all(|p| p[0] <= p[1]), "{prices:?}");
    // The text says what was observed and where the prices hold.
    let out = bin().args(["plan", "--from-stats", &before, &after, "--cloud", "azure"]).output().unwrap();
    let (code, text, _) = parts(&out);
    assert_eq!(code, 0);
    assert!(
        text.starts_with(
            "Observed: 2300.0 IOPS, 34.82 MB/s over 60 s; planned with 20 % headroom for 2760.0 IOPS, 41.78 MB/s\n"
        ),
        "{text}"
    );
    assert!(text.contains("no price in eastus") && text.contains("(read 2026-11-27)"), "{text}");
}

#[test]
fn plan_from_stats_refuses_a_target_given_twice() {
    let (before, after) = (data("sqlserver-before.csv"), data("sqlserver-after.csv"));
    let out = bin().args(["plan", "--from-stats", &before, &after, "--iops", "5000"]).output().unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(
        (code, stderr.as_str()),
        (2, "error: --from-stats: gives the IOPS and MB/s itself; leave out --iops and --mbps\n")
    );
}

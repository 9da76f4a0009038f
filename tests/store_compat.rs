//! Results from before and from elsewhere: a store written by the first schema opens, migrated,
//! with its results whole; fio's JSON output is imported and compared with iolens' own
//! results; comparisons come out in every format.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use iolens::store::Store;
use std::path::{Path, PathBuf};

fn store_cmd(store: &Path, args: &[&str]) -> (i32, String, String) {
    let out = bin().env("IOLENS_STORE", store).args(args).output().unwrap();
    parts(&out)
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

#[test]
fn a_store_of_the_first_schema_is_migrated_with_its_results() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v1.db");
    // Made by iolens at schema 1: a `run` on the null engine and a two-test `cdm`.
    std::fs::copy(data("tests/data/store-v1.db"), &db).unwrap();
    let (code, list, err) = store_cmd(&db, &["history"]);
    assert_eq!(code, 0, "{err}");
    assert!(list.contains("\"v1 null randread\"") && list.contains("\"v1 cdm\""), "{list}");
    let s = Store::open(&db).unwrap();
    assert_eq!(s.version().unwrap(), 3);
    let cdm = s.load(2).unwrap().expect("result 2 survives the migration");
    assert_eq!(cdm.command, "cdm");
    assert_eq!(cdm.tests.len(), 4);
    assert_eq!(cdm.source, None);
    assert!(cdm.tests.iter().all(|t| t.histograms.read.count + t.histograms.write.count == t.total.ios));
    drop(s);
    // The migrated store takes new results, with the column the migration added.
    let fio = data("src/frontends/fio/testdata/fio-3.33-three-groups.json");
    let (code, out, err) = store_cmd(&db, &["import", fio.to_str().unwrap(), "--host", "vm2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("3\tvm2\tfio\t"), "{out}");
    let (_, shown, _) = store_cmd(&db, &["show", "3"]);
    assert!(shown.contains("source: fio-3.33 JSON output (fio-3.33-three-groups.json)"), "{shown}");
    // Opening it again changes nothing.
    assert_eq!(Store::open(&db).unwrap().version().unwrap(), 3);
}

#[test]
fn fio_output_is_compared_with_iolens_running_the_same_job() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let fio = data("src/frontends/fio/testdata/fio-3.33-three-groups.json");
    let (code, _, err) = store_cmd(&db, &["import", fio.to_str().unwrap(), "--label", "fio on vm2", "--host", "vm2"]);
    assert_eq!(code, 0, "{err}");
    // The fixture's first job, run by iolens from fio's own options.
    let f = dir.path().join("f.dat");
    let args = ["fio", "--name=rnd4k-q16", "--rw=randread", "--bs=4k", "--iodepth=16", "--numjobs=2"];
    let file = format!("--filename={}", f.display());
    let (code, _, err) =
        store_cmd(&db, &[&args[..], &[&file, "--size=16m", "--runtime=1", "--label", "iolens", "-q"]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = store_cmd(&db, &["compare", "fio on vm2", "iolens", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<String>> = out.lines().map(|l| l.split(',').map(str::to_string).collect()).collect();
    assert_eq!(rows[0], ["test", "op", "result", "host", "baseline", "iops", "mbps", "p50_us", "p99_us", "verdict"]);
    let mine: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == "RND4K Q16T2 Read").collect();
    assert_eq!(mine.len(), 2, "one row per result: {out}");
    assert_eq!((mine[0][3].as_str(), mine[0][4].as_str(), mine[0][9].as_str()), ("vm2", "true", ""));
    assert!(["≈", ">", "<", ">>", "<<"].iter().any(|v| mine[1][9].starts_with(v)), "a verdict: {:?}", mine[1]);
    // The fixture's other tests are listed with the iolens side empty.
    let seq: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == "SEQ1M Q8T1 Read").collect();
    assert_eq!((seq.len(), seq[1][5].as_str(), seq[1][9].as_str()), (2, "", "-"));
}

#[test]
fn comparisons_come_out_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let t = dir.path().join("t");
    for (label, mode) in [("direct", "--direct"), ("buffered", "--buffered")] {
        let args =
            ["run", t.to_str().unwrap(), "--rw", "read", "--bs", "1M", "--qd", "8", "-d", "0.5", "--size", "64M"];
        let (code, _, err) = store_cmd(&db, &[&args[..], &[mode, "--label", label, "-q"]].concat());
        assert_eq!(code, 0, "{err}");
    }
    let (code, md, err) = store_cmd(&db, &["compare", "direct", "buffered", "--format", "markdown"]);
    assert_eq!(code, 0, "{err}");
    let row = md.lines().find(|l| l.starts_with("| SEQ1M Q8T1 Read |")).unwrap_or_else(|| panic!("{md}"));
    assert_eq!(row.matches('|').count(), 9, "test, 3 columns a result, a verdict: {row}");
    let (code, json, err) = store_cmd(&db, &["compare", "direct", "buffered", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["results"][0]["name"], "#1 direct");
    assert_eq!(v["rows"][0]["test"], "SEQ1M Q8T1 Read");
    assert_eq!(v["rows"][0]["verdicts"][0], serde_json::Value::Null, "the baseline has no verdict");
    let verdict = v["rows"][0]["verdicts"][1].as_str().unwrap().to_string();
    assert!(row.contains(&verdict.replace('<', "&lt;").replace('>', "&gt;")), "{row} / {verdict}");
    let html = dir.path().join("c.html");
    let (code, text, err) = store_cmd(&db, &["compare", "direct", "buffered", "--out", html.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("SEQ1M Q8T1 Read"), "text on the terminal: {text}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.matches("<figure class=\"chart\">").count() == 3);
    // A format that does not exist: one line, exit 2, no file.
    let out = dir.path().join("c.pdf");
    let (code, _, err) =
        store_cmd(&db, &["compare", "direct", "buffered", "--format", "pdf", "--out", out.to_str().unwrap()]);
    assert_eq!(
        (code, err.trim()),
        (2, "error: --format: 'pdf' is not a format; use text, json, csv, markdown or html")
    );
    assert!(!out.exists());
}

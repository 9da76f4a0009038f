//! The result store through the binary: every measuring command saves, `history` lists,
//! `show` prints the stored result whole, `delete` removes it, and two processes saving at the
//! same moment both land.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use std::process::Stdio;

fn store_cmd(store: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = bin().env("IOLENS_STORE", store).args(args).output().unwrap();
    parts(&out)
}

#[test]
fn results_are_saved_listed_shown_and_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.db");
    let target = dir.path().join("t");
    std::fs::create_dir(&target).unwrap();
    let t = target.to_str().unwrap();
    let (code, first, err) = store_cmd(
        &store,
        &["run", "-d", "0.3", "--size", "8M", "--format", "json", "-q", "--label", "plain", "--tag", "cache=none", t],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("saved as result 1 in"), "{err}");
    let (code, _, err) = store_cmd(
        &store,
        &[
            "cdm",
            "--profile",
            "demo",
            "--passes",
            "1",
            "--time",
            "0.2",
            "--interval",
            "0",
            "--no-prepare",
            "--size",
            "16M",
            "-q",
            t,
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = store_cmd(&store, &["run", "-d", "0.2", "--size", "8M", "-q", "--no-store", t]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("saved"), "{err}");
    let (_, list, _) = store_cmd(&store, &["history"]);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 2, "{list}");
    assert!(
        lines[0].trim_start().starts_with("2 ") && lines[0].contains("cdm") && lines[0].contains("SEQ1M Q8T1 Read")
    );
    assert!(lines[1].trim_start().starts_with("1 ") && lines[1].contains("\"plain\"") && lines[1].contains("IOPS"));
    let (_, only, _) = store_cmd(&store, &["history", "--label", "pla"]);
    assert_eq!(only.lines().count(), 1);
    // The stored result is the printed one, label and tags included.
    let (code, shown, _) = store_cmd(&store, &["show", "1", "--format", "json"]);
    assert_eq!(code, 0);
    let (a, b): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&first).unwrap(), serde_json::from_str(&shown).unwrap());
    assert_eq!(a, b);
    assert_eq!(b["label"], "plain");
    assert_eq!(b["tags"][0], serde_json::json!(["cache", "none"]));
    let (code, _, err) = store_cmd(&store, &["delete", "1"]);
    assert_eq!((code, err.trim()), (0, "deleted result 1"));
    let (code, _, err) = store_cmd(&store, &["show", "1"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: ID: no result 1 in"), "{err}");
    let (code, _, err) = store_cmd(&store, &["run", "--tag", "nokey", t]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: --tag: 'nokey' is not key=value"), "{err}");
}

#[test]
fn two_processes_saving_at_once_both_land() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.db");
    let children: Vec<_> = (0..2)
        .map(|k| {
            let target = dir.path().join(format!("t{k}"));
            std::fs::create_dir(&target).unwrap();
            bin()
                .env("IOLENS_STORE", &store)
                .args(["run", "-d", "0.3", "--size", "8M", "-q", "--label", &format!("proc{k}")])
                .arg(&target)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && err.contains("saved as result"), "{err}");
    }
    let (_, list, _) = store_cmd(&store, &["history"]);
    assert!(list.contains("\"proc0\"") && list.contains("\"proc1\""), "{list}");
    assert_eq!(list.lines().count(), 2);
}

/// The first processes to open a new store race to switch it to WAL; SQLite refuses the loser
/// at once, without waiting, and that refusal once cost a result.
#[test]
fn many_processes_opening_a_new_store_at_once_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("t");
    std::fs::create_dir(&target).unwrap();
    let json = dir.path().join("r.json");
    let out = bin()
        .args(["run", "-d", "0.1", "--size", "8M", "-q", "--no-store", "--format", "json"])
        .arg(&target)
        .output()
        .unwrap();
    std::fs::write(&json, &out.stdout).unwrap();
    for round in 0..12 {
        let store = dir.path().join(format!("s{round}.db"));
        let children: Vec<_> = (0..8)
            .map(|_| {
                bin()
                    .env("IOLENS_STORE", &store)
                    .arg("import")
                    .arg(&json)
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().unwrap();
            assert!(out.status.success(), "round {round}: {}", String::from_utf8_lossy(&out.stderr));
        }
        let (_, list, _) = store_cmd(&store, &["history"]);
        assert_eq!(list.lines().count(), 8, "round {round}: {list}");
    }
}

#[test]
fn import_and_export_carry_results_between_stores() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    let target = dir.path().join("t");
    std::fs::create_dir(&target).unwrap();
    let (code, _, err) =
        store_cmd(&a, &["run", "-d", "0.2", "--size", "8M", "-q", "--label", "vm1", target.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = store_cmd(&a, &["export", "1", "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let file = dir.path().join("iolens-1.json");
    let (code, out, err) = store_cmd(&b, &["import", file.to_str().unwrap(), "--tag", "site=home"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("1\t"), "{out}");
    let (_, original, _) = store_cmd(&a, &["show", "1", "--format", "json"]);
    let (_, imported, _) = store_cmd(&b, &["show", "1", "--format", "json"]);
    let (mut o, i): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&original).unwrap(), serde_json::from_str(&imported).unwrap());
    assert_eq!(i["host"], o["host"], "the measuring host is kept");
    assert_eq!(i["label"], "vm1");
    o["tags"] = serde_json::json!([["site", "home"]]);
    assert_eq!(i, o);
    // A file that is neither an iolens result nor fio's output is named, and nothing is saved.
    let fio = dir.path().join("fio.json");
    std::fs::write(&fio, r#"{"fio version": "fio-3.33", "jobs": []}"#).unwrap();
    let (code, _, err) = store_cmd(&b, &["import", file.to_str().unwrap(), fio.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("is not fio's JSON output: its \"jobs\" list is empty"), "{err}");
    let (_, list, _) = store_cmd(&b, &["history"]);
    assert_eq!(list.lines().count(), 1, "{list}");
}

#[test]
fn a_save_killed_midway_leaves_no_half_result() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("k.db");
    // A large result (about 1 MB of JSON), so that a kill often lands inside a save.
    let mut r: serde_json::Value =
        serde_json::from_str(include_str!("../src/report/testdata/iolens_randrw_q4.json")).unwrap();
    let t = r["tests"][0].clone();
    r["tests"] = serde_json::Value::Array(vec![t; 20]);
    let big = dir.path().join("big.json");
    std::fs::write(&big, serde_json::to_string(&r).unwrap()).unwrap();
    for delay_ms in [700u64, 1100, 1500] {
        let mut child = std::process::Command::new("sh")
            .env("IOLENS_STORE", &store)
            .arg("-c")
            .arg(format!("while true; do {} import {} >/dev/null; done", env!("CARGO_BIN_EXE_iolens"), big.display()))
            .process_group(0)
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
        let _ = child.wait();
    }
    let s = iolens::store::Store::open(&store).expect("the store opens after SIGKILL");
    let rows = s.list(&iolens::store::Filter { limit: Some(100_000), ..Default::default() }).unwrap();
    assert!(rows.len() >= 3, "only {} saves landed", rows.len());
    for e in &rows {
        let loaded = s.load(e.id).unwrap().expect("listed result loads");
        assert_eq!(loaded.tests.len(), 20, "result {} is whole", e.id);
    }
    let conn = rusqlite::Connection::open(&store).unwrap();
    let ok: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(ok, "ok");
}

#[test]
fn compare_lays_results_side_by_side_with_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("c.db");
    let target = dir.path().join("t");
    std::fs::create_dir(&target).unwrap();
    let t = target.to_str().unwrap();
    for (label, extra) in [("direct", None), ("pagecache", Some("--buffered"))] {
        let mut args = vec![
            "run", "--rw", "read", "--bs", "64k", "--qd", "4", "-d", "0.5", "--size", "32M", "-q", "--label", label,
        ];
        args.extend(extra);
        args.push(t);
        let (code, _, err) = store_cmd(&store, &args);
        assert_eq!(code, 0, "{err}");
    }
    let (code, _, err) = store_cmd(
        &store,
        &[
            "cdm",
            "--tests",
            "SEQ64K Q4T1",
            "--passes",
            "1",
            "--time",
            "0.3",
            "--interval",
            "0",
            "--no-prepare",
            "--size",
            "32M",
            "-q",
            "--label",
            "cdm",
            t,
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = store_cmd(&store, &["compare", "direct", "pagecache", "3"]);
    assert_eq!(code, 0, "{err}");
    // The run and the CrystalDiskMark test of the same workload share a row.
    let row = out.lines().find(|l| l.starts_with("SEQ64K Q4T1 Read ")).unwrap_or_else(|| panic!("{out}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(cells.len(), 6, "{row}");
    assert!(!cells[2].is_empty() && !cells[4].is_empty(), "{row}");
    // The CDM write test is listed, not dropped.
    assert!(out.contains("SEQ64K Q4T1 Write") && out.contains("note: SEQ64K Q4T1 Write is not in #1 direct"), "{out}");
    assert!(out.contains("≈ within ±10 %"), "{out}");
    let (code, _, err) = store_cmd(&store, &["compare", "direct", "nosuchlabel"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: nosuchlabel: is no file, id or label in the store"), "{err}");
}

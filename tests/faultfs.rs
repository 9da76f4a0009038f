//! Detection through the kernel: a FUSE file system (tests/common/faultfs.rs) breaks page-sized
//! reads and writes below the VFS, and `run --verify` must find every fault, each as its own
//! class; a healthy mount must show nothing. Needs root and /dev/fuse: skipped with the reason
//! elsewhere, failed under IOLENS_REQUIRE_PRIVILEGED=1.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
#[path = "common/faultfs.rs"]
mod faultfs;

use common::*;
use faultfs::{Fate, FaultFs, KINDS};
use serde_json::Value;

const PAGE: u32 = 8192;
const SIZE: u64 = 8 << 20;
/// Faults wanted per kind, over as many runs as it takes.
const WANT: u64 = 1000;

fn class_of(kind: &str) -> &'static str {
    match kind {
        "lost" => "stale",
        "torn" => "torn",
        "misdirect" => "misdirected",
        "bitflip" => "corrupt",
        _ => "never_read",
    }
}

fn mounted(p: &Privileged, dir: &std::path::Path) -> Option<FaultFs> {
    p.need("root", root())?;
    p.need("/dev/fuse", std::fs::metadata("/dev/fuse").map(|_| ()))?;
    let mnt = dir.join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    Some(FaultFs::mount(&mnt, &dir.join("backing"), SIZE, 11).expect("mounting the fault file system"))
}

/// One verifying run on the mount; its `verify` object.
fn run(fs: &FaultFs, seed: u64) -> (i32, Value) {
    let data = fs.data();
    let seed = seed.to_string();
    let args = [
        "--verify",
        "--allow-write",
        "--bs",
        "8k",
        "--rw",
        "randrw",
        "--qd",
        "4",
        "--threads",
        "2",
        "--verify-backlog",
        "1",
        "-d",
        "1",
        "--no-store",
        "--seed",
        &seed,
        data.to_str().unwrap(),
    ];
    let (code, v, stderr) = run_json(&args);
    assert!(code == 0 || code == 3, "exit {code}: {stderr}");
    (code, test0(&v)["verify"].clone())
}

#[test]
fn every_fault_below_the_vfs_is_found_as_its_own_class() {
    let p = Privileged::new();
    let dir = tempfile::tempdir().unwrap();
    let Some(fs) = mounted(&p, dir.path()) else { return };
    let mut table = vec![format!(
        "{:<10} {:>8} {:>6} {:>22} {:>18} {:>6}",
        "kind", "injected", "runs", "found as that class", "bad re-reads", "other"
    )];
    let mut seed = 0;
    for kind in &KINDS[..5] {
        let kind = *kind;
        fs.set(Some(kind), 0.03, PAGE);
        let (mut injected, mut found, mut rereads_bad, mut other, mut runs) = (0, 0, 0, 0, 0);
        while injected < WANT {
            seed += 1;
            runs += 1;
            let (code, v) = run(&fs, seed);
            let faults = fs.take();
            let n = faults.injected[KINDS.iter().position(|k| *k == kind).unwrap()];
            let findings = v["findings"].as_array().unwrap();
            let mine = findings.iter().filter(|f| f["class"] == class_of(kind)).count() as u64;
            let bad: u64 = findings.iter().map(|f| u(&f["bad_rereads"])).sum();
            injected += n;
            found += mine;
            other += findings.len() as u64 - mine;
            let write_fault = matches!(kind, "lost" | "torn");
            // A read fault can also strike a re-read of a page already found bad; it is seen
            // there as a bad re-read. Write faults stay on the medium, so every re-read is bad.
            if write_fault {
                assert_eq!(mine, n, "{kind}: run {seed} injected {n}, found {mine}");
            } else {
                rereads_bad += bad;
                assert_eq!(mine + bad, n, "{kind}: run {seed} injected {n}, found {mine} + {bad} bad re-reads");
            }
            assert_eq!(code, if n > 0 { 3 } else { 0 });
            assert_eq!(findings.len() as u64, mine, "{kind}: findings of other classes: {v}");
        }
        table.push(format!("{kind:<10} {injected:>8} {runs:>6} {found:>22} {rereads_bad:>18} {other:>6}"));
    }
    fs.set(None, 0.0, PAGE);
    let mut clean_pages = 0;
    for run_no in 0..10 {
        let (code, v) = run(&fs, 100 + run_no);
        assert_eq!(code, 0, "clean run {run_no}: {v}");
        assert_eq!(v["findings"].as_array().unwrap().len(), 0);
        clean_pages += u(&v["pages_checked"]);
    }
    table.push(format!("clean: 10 runs, {clean_pages} pages checked, 0 findings"));
    eprintln!("{}", table.join("\n"));
}

// ---- `iolens simdb` on the fault file system ----

/// What simdb's data files are called (the faults aim at them, not at the log or journal).
const DATA_FILES: &str = ".mdf";
const LOG_FILE: &str = "log.ldf";

/// One simdb run on the mount: (exit code, result, stderr).
fn simdb(fs: &FaultFs, seed: u64, secs: &str, extra: &[&str]) -> (i32, Value, String) {
    let out = bin()
        .arg("simdb")
        .arg(&fs.mountpoint)
        .args(["--data-size", "4m", "--log-size", "1m", "--users", "2", "--duration", secs, "--seed"])
        .arg(seed.to_string())
        .args(extra)
        .args(["--no-store", "--format", "json", "--quiet"])
        .output()
        .unwrap();
    let (code, stdout, stderr) = parts(&out);
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\n{stderr}"));
    assert!(entries(&fs.mountpoint).is_empty(), "simdb left {:?}", entries(&fs.mountpoint));
    (code, v, stderr)
}

fn all_findings(v: &Value) -> Vec<Value> {
    v["tests"].as_array().unwrap().iter().flat_map(|t| t["verify"]["findings"].as_array().unwrap().clone()).collect()
}

fn name_of(f: &Value) -> String {
    std::path::Path::new(f["file"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned()
}

/// The faults of `kind` and the run that met them, for the table.
#[derive(Default)]
struct IoCount {
    runs: u64,
    injected: u64,
    seen: u64,
    hidden: u64,
    found: u64,
    bad_rereads: u64,
}

/// One run of simdb with `kind` injected into its data files' page-sized I/O: every finding
/// is of the kind's class at a page the file system broke and handed to a reader, and every
/// fault handed over is found (a read fault as a finding or a bad re-read of one).
fn simdb_with(fs: &FaultFs, kind: &'static str, seed: u64, t: &mut IoCount) {
    fs.arm(faultfs::Faults { rate: 0.05, page: PAGE, file: Some(DATA_FILES.into()), ..faultfs::Faults::of(kind) });
    let (code, v, stderr) = simdb(fs, seed, "2", &[]);
    let faults = fs.take();
    let found = all_findings(&v);
    let n = faults.count(kind);
    assert_eq!(code, if found.is_empty() { 0 } else { 3 }, "{stderr}");
    assert!(v["simdb"]["errors"].as_array().unwrap().is_empty(), "{}", v["simdb"]["errors"]);
    let seen = faults.with_fate(Fate::Seen);
    for f in &found {
        assert_eq!(f["class"], class_of(kind), "{kind}: {f}");
        let at = (name_of(f), u(&f["offset"]));
        assert!(seen.iter().any(|i| (i.file.clone(), i.offset) == at), "{kind}: no fault handed over at {at:?}: {f}");
    }
    let bad: u64 = found.iter().map(|f| u(&f["bad_rereads"])).sum();
    if matches!(kind, "lost" | "torn") {
        // The audit's last pass reads every page, so none is left pending.
        assert!(faults.with_fate(Fate::Pending).is_empty(), "{kind}: unread: {:?}", faults.with_fate(Fate::Pending));
        assert_eq!(found.len(), seen.len(), "{kind}: run {seed}: {n} injected, {} read back", seen.len());
        // A persistent fault: every re-read is bad too.
        assert!(found.iter().all(|f| f["bad_rereads"] == f["rereads"]), "{kind}");
    } else {
        assert_eq!(seen.len() as u64, n);
        assert_eq!(
            found.len() as u64 + bad,
            n,
            "{kind}: run {seed}: {n} injected, {} found + {bad} bad re-reads",
            found.len()
        );
    }
    t.runs += 1;
    t.injected += n;
    t.seen += seen.len() as u64;
    t.hidden += faults.with_fate(Fate::Hidden).len() as u64;
    t.found += found.len() as u64;
    t.bad_rereads += bad;
}

fn simdb_mount(p: &Privileged, dir: &std::path::Path) -> Option<FaultFs> {
    p.need("root", root())?;
    p.need("/dev/fuse", std::fs::metadata("/dev/fuse").map(|_| ()))?;
    let mnt = dir.join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    Some(FaultFs::mount(&mnt, &dir.join("backing"), 0, 17).expect("mounting the fault file system"))
}

/// Faults wanted per kind for simdb, over as many 2-second runs as it takes.
const SIMDB_WANT: u64 = 1000;

#[test]
fn simdb_names_every_fault_below_the_vfs_by_its_class_file_and_offset() {
    let p = Privileged::new();
    let dir = tempfile::tempdir().unwrap();
    let Some(fs) = simdb_mount(&p, dir.path()) else { return };
    let mut table = vec![format!(
        "{:<10} {:>5} {:>9} {:>14} {:>17} {:>16} {:>12}",
        "kind", "runs", "injected", "read back", "hidden by write", "found (class)", "bad re-reads"
    )];
    let mut seed = 0;
    for kind in &KINDS[..5] {
        let mut t = IoCount::default();
        while t.injected < SIMDB_WANT {
            seed += 1;
            simdb_with(&fs, kind, seed, &mut t);
        }
        assert!(t.found > 0, "{kind}: nothing found in {} runs", t.runs);
        table.push(format!(
            "{kind:<10} {:>5} {:>9} {:>14} {:>17} {:>16} {:>12}",
            t.runs,
            t.injected,
            t.seen,
            t.hidden,
            format!("{} {}", t.found, class_of(kind)),
            t.bad_rereads
        ));
    }
    fs.set(None, 0.0, PAGE);
    let mut checked = 0;
    for run in 0..2 {
        let (code, v, stderr) = simdb(&fs, 100 + run, "2", &[]);
        assert_eq!(code, 0, "clean run {run}: {stderr}");
        assert!(all_findings(&v).is_empty(), "clean run {run}: {:?}", all_findings(&v));
        assert!(v["simdb"]["stalls"].as_array().unwrap().is_empty());
        checked += v["tests"].as_array().unwrap().iter().map(|t| u(&t["verify"]["pages_checked"])).sum::<u64>();
    }
    table.push(format!("clean: 2 runs, {checked} pages and log records checked, 0 findings"));
    eprintln!("{}", table.join("\n"));
}

#[test]
fn simdb_names_a_lost_or_torn_log_record_as_a_break_in_the_lsn_chain() {
    let p = Privileged::new();
    let dir = tempfile::tempdir().unwrap();
    let Some(fs) = simdb_mount(&p, dir.path()) else { return };
    for (kind, nth) in [("lost", 50), ("torn", 20)] {
        // One fault: the nth record the log writer writes, whatever its length.
        fs.arm(faultfs::Faults { nth: Some(nth), page: 0, file: Some(LOG_FILE.into()), ..faultfs::Faults::of(kind) });
        let (code, v, stderr) = simdb(&fs, nth, "2", &[]);
        let faults = fs.take();
        assert_eq!(faults.count(kind), 1, "{kind}: the log writer wrote fewer than {nth} records");
        let fault = &faults.log[0];
        assert_eq!((fault.kind, fault.fate), (kind, Fate::Seen), "{kind}: the chain check never read it: {fault:?}");
        let found = all_findings(&v);
        assert_eq!(code, 3, "{stderr}");
        assert_eq!(found.len(), 1, "{kind}: {found:?}");
        let f = &found[0];
        assert_eq!(
            (f["class"].as_str().unwrap(), name_of(f), u(&f["offset"])),
            ("log", fault.file.clone(), fault.offset)
        );
        assert_eq!((u(&f["expected_gen"]), u(&f["bad_rereads"])), (nth, 3), "{kind}: LSN {nth} is the one broken: {f}");
        eprintln!("log {kind}: record {nth} at {} ({} B): {}", fault.offset, fault.len, f["diff"]);
        if kind == "torn" && fault.len > 1024 {
            assert!(f["diff"].as_str().unwrap().contains("bad checksum"), "{f}");
        }
        assert!(v["simdb"]["log_records_checked"].as_u64().unwrap() >= nth - 1);
    }
}

#[test]
fn simdb_reports_a_delayed_read_as_a_stall_with_its_file_offset_and_duration() {
    let p = Privileged::new();
    let dir = tempfile::tempdir().unwrap();
    let Some(fs) = simdb_mount(&p, dir.path()) else { return };
    let delay = std::time::Duration::from_millis(2000);
    fs.arm(faultfs::Faults {
        nth: Some(200),
        page: PAGE,
        file: Some(DATA_FILES.into()),
        delay,
        ..faultfs::Faults::of("delay")
    });
    let (code, v, stderr) = simdb(&fs, 5, "4", &["--stall-ms", "1000"]);
    let faults = fs.take();
    assert_eq!(code, 0, "{stderr}");
    assert!(all_findings(&v).is_empty());
    assert_eq!(faults.count("delay"), 1);
    let fault = &faults.log[0];
    let s = &v["simdb"];
    assert_eq!(f(&s["stall_ms"]), 1000.0);
    let stalls = s["stalls"].as_array().unwrap();
    assert_eq!(stalls.len(), 1, "{stalls:?}");
    let st = &stalls[0];
    assert_eq!((name_of(st), u(&st["offset"]), st["op"].as_str().unwrap()), (fault.file.clone(), fault.offset, "read"));
    let ms = f(&st["ms"]);
    assert!((2000.0..3000.0).contains(&ms), "{st}");
    eprintln!("delayed read of {} at {}: stall {st}", fault.file, fault.offset);
    // Said as it happened too, while the read was outstanding.
    assert!(stderr.contains("warning: stall: an I/O of the"), "{stderr}");
}

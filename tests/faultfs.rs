//! Detection through the kernel: a FUSE file system (tests/common/faultfs.rs) breaks page-sized
//! reads and writes below the VFS, and `run --verify` must find every fault, each as its own
//! class; a healthy mount must show nothing. Needs root and /dev/fuse: skipped with the reason
//! elsewhere, failed under IOLENS_REQUIRE_PRIVILEGED=1.

mod common;
#[path = "common/faultfs.rs"]
mod faultfs;

use common::*;
use faultfs::{FaultFs, KINDS};
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
    for kind in KINDS {
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

//! `run --verify` through the binary: a clean run finds nothing, every fault the `--inject`
//! self-test puts in is found as its own class and counted, and the exit status tells.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use serde_json::Value;

const KINDS: [(&str, &str); 5] = [
    ("lost", "stale"),
    ("torn", "torn"),
    ("misdirect", "misdirected"),
    ("bitflip", "corrupt"),
    ("unread", "never_read"),
];

fn class_count(v: &Value, class: &str) -> u64 {
    v["findings"].as_array().unwrap().iter().filter(|f| f["class"] == class).count() as u64
}

fn verify_run(args: &[&str]) -> (i32, Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let mut all = vec!["--verify", "--size", "8M", "-d", "1", "--no-store"];
    all.extend_from_slice(args);
    all.push(d);
    let (code, v, stderr) = run_json(&all);
    assert!(entries(dir.path()).is_empty(), "test file left behind");
    (code, test0(&v)["verify"].clone(), stderr)
}

#[test]
fn a_clean_run_checks_pages_and_finds_nothing() {
    let (code, v, stderr) = verify_run(&["--rw", "randrw", "--qd", "4", "--threads", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(v["findings"].as_array().unwrap().len(), 0);
    assert!(u(&v["pages_checked"]) > 100 && u(&v["pages_written"]) > 100, "{v}");
    assert_eq!((u(&v["page"]), u(&v["unit"])), (4096, 512));
    assert!(v.get("injected").is_none());
}

#[test]
fn a_write_only_run_reads_every_page_back_at_its_end() {
    let (code, v, stderr) = verify_run(&["--rw", "write", "--bs", "8k"]);
    assert_eq!(code, 0, "{stderr}");
    // 8 MiB of 8 KiB pages, each read back once.
    assert_eq!(u(&v["pages_checked"]), 1024);
    assert_eq!(v["findings"].as_array().unwrap().len(), 0);
}

#[test]
fn mixed_block_sizes_verify_in_pages_of_their_common_divisor() {
    // 4 KiB and 12 KiB I/Os share 4 KiB pages; a 12 KiB write stamps three of them, each with
    // its own generation, and every read checks each page it covers.
    let (code, v, stderr) = verify_run(&["--rw", "randrw", "--bssplit", "4k/50:12k/50", "--qd", "8", "--threads", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(v["findings"].as_array().unwrap().len(), 0, "{v}");
    assert_eq!(u(&v["page"]), 4096);
    assert!(u(&v["pages_checked"]) > u(&v["pages_written"]) / 4 && u(&v["pages_written"]) > 100, "{v}");
    // A lost write among them is still found, as a stale page.
    let (code, v, _) = verify_run(&[
        "--rw",
        "randrw",
        "--bssplit",
        "4k/50:12k/50",
        "--verify-backlog",
        "1",
        "--inject",
        "lost:0.01",
        "--seed",
        "7",
    ]);
    assert_eq!(code, 3);
    assert!(class_count(&v, "stale") > 0, "{v}");
}

#[test]
fn each_injected_fault_is_found_as_its_own_class() {
    let mut rows = Vec::new();
    for (kind, class) in KINDS {
        let spec = format!("{kind}:0.01");
        // Written pages are read back right away (backlog 1), before a later write could hide a
        // lost or torn one.
        let (code, v, stderr) =
            verify_run(&["--rw", "randrw", "--qd", "4", "--verify-backlog", "1", "--inject", &spec, "--seed", "7"]);
        let injected = u(&v["injected"][kind]);
        let found = class_count(&v, class);
        let total = v["findings"].as_array().unwrap().len() as u64;
        rows.push(format!(
            "{kind:<10} injected {injected:>5}  found as {class:<12} {found:>5}  other {}",
            total - found
        ));
        assert!(injected >= 20, "{kind}: only {injected} injected; {stderr}");
        assert_eq!(found, injected, "{kind}: {v}");
        assert_eq!(total, found, "{kind}: findings of other classes");
        assert_eq!(code, 3, "{kind}: exit status with findings");
        // Read faults are one transfer (re-reads are good); write faults stay on the medium.
        let persistent = matches!(kind, "lost" | "torn");
        let first = &v["findings"][0];
        assert_eq!(first["bad_rereads"] == first["rereads"], persistent, "{kind}: {first}");
        assert_eq!(first["rereads"], 3);
    }
    eprintln!("{}", rows.join("\n"));
}

#[test]
fn all_kinds_at_once_are_told_apart() {
    let spec = "lost:0.01,torn:0.01,misdirect:0.01,bitflip:0.01,unread:0.01";
    let (code, v, _) = verify_run(&["--rw", "randrw", "--verify-backlog", "1", "--inject", spec, "--rereads", "1"]);
    assert_eq!(code, 3);
    for (kind, class) in KINDS {
        // A read fault may land on the read-back of a lost or torn write and mask it (one class
        // per page), so the write kinds may be found a little less often than injected.
        let (inj, found) = (u(&v["injected"][kind]), class_count(&v, class));
        assert!(inj > 5, "{kind}: {inj}");
        if matches!(kind, "lost" | "torn") {
            assert!(found <= inj && found * 10 >= inj * 8, "{kind}: injected {inj}, found {found}");
        } else {
            assert_eq!(found, inj, "{kind}");
        }
    }
}

#[test]
fn verify_fatal_stops_at_the_first_finding() {
    let (code, v, _) = verify_run(&["--rw", "randread", "--inject", "bitflip:0.01", "--verify-fatal"]);
    assert_eq!(code, 3);
    assert_eq!(v["findings"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(u(&v["injected"]["bitflip"]), 1);
}

#[test]
fn the_text_report_gives_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["run", "--verify", "--size", "4M", "-d", "0.5", "--rw", "randrw", "--no-store", "--quiet"])
        .args(["--verify-backlog", "1", "--inject", "lost:0.02"])
        .arg(dir.path())
        .output()
        .unwrap();
    let (code, text, _) = parts(&out);
    assert_eq!(code, 3);
    let verdict = text.lines().find(|l| l.starts_with("verify: ")).expect("a verdict line");
    assert!(verdict.ends_with("stale (lost writes)"), "{verdict}");
    assert!(text.contains("Self-test: faults injected"), "{text}");
}

#[test]
fn bad_verify_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    for (args, says) in [
        (vec!["--verify", "--bssplit", "4k/50:1000/50", "--buffered"], "--bs: 1000 bytes is not a multiple of 512"),
        (vec!["--verify", "--bs", "1000", "--buffered"], "--bs: 1000 bytes is not a multiple of 512"),
        (vec!["--verify", "--engine", "null"], "--verify: needs an engine"),
        (vec!["--verify", "--inject", "lost:3"], "--inject: rate '3'"),
        (vec!["--inject", "lost:0.1"], "--inject: checks data, which needs --verify"),
    ] {
        let out = bin().arg("run").args(&args).args(["--size", "4M", "-d", "1", d]).output().unwrap();
        let (code, _, stderr) = parts(&out);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(entries(dir.path()).is_empty());
    }
}

/// `iolens fio JOB` in a directory of its own: (exit code, the tests' `verify`, stderr), and
/// the directory holds nothing afterwards (the jobs say unlink=1; fio's files stay otherwise).
fn fio_verify(job: &str) -> (i32, Vec<Value>, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("job.fio");
    // Verification state files are fio's (saved by default); these jobs keep none behind.
    let job = job.replacen("[global]\n", "[global]\nunlink=1\nverify_state_save=0\n", 1);
    std::fs::write(&file, job.replace("DIR", dir.path().to_str().unwrap())).unwrap();
    let out = bin().args(["fio", "--format", "json", "--quiet", "--no-store"]).arg(&file).output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    std::fs::remove_file(&file).unwrap();
    assert!(entries(dir.path()).is_empty(), "test file left behind: {:?}", entries(dir.path()));
    let tests = serde_json::from_str::<Value>(&stdout)
        .map_or(Vec::new(), |v| v["tests"].as_array().unwrap().iter().map(|t| t["verify"].clone()).collect());
    (code, tests, stderr)
}

#[test]
fn fio_jobs_verifying_one_file_expect_what_each_other_wrote() {
    // Two jobs writing and reading the same pages at once: each must expect the other's writes
    // (with a map per job, job b's reads of job a's pages were thousands of false findings).
    let global =
        "[global]\nfilename=DIR/shared.dat\nsize=8m\ndirect=1\nruntime=1\ntime_based\nverify=crc32c\nrw=randrw\n";
    let (code, tests, stderr) = fio_verify(&format!("{global}bs=4k\n[a]\n[b]\n"));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(tests.len(), 2);
    for v in &tests {
        assert_eq!(v["findings"].as_array().unwrap().len(), 0, "{v}");
        assert!(u(&v["pages_written"]) > 100 && u(&v["pages_checked"]) > 100, "{v}");
    }
    // Parts of their own, with pages of their own: separate maps, still clean.
    let (code, tests, stderr) = fio_verify(&format!("{global}[a]\nbs=4k\n[b]\nbs=8k\noffset=8m\n"));
    assert_eq!(code, 0, "{stderr}");
    assert!(tests.iter().all(|v| v["findings"].as_array().unwrap().is_empty()), "{tests:?}");
    // The same pages seen as two different sizes cannot be verified: refused in one line.
    let (code, _, stderr) = fio_verify(&format!("{global}[a]\nbs=4k\n[b]\nbs=8k\n"));
    assert_eq!(code, 2, "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].starts_with("error: verify: two jobs verify overlapping parts of ")
            && errors[0].ends_with("shared.dat with different pages (4KiB at 0 and 8KiB at 0); give them the same block size and region, or parts of their own"),
        "{}",
        errors[0]
    );
}

#[test]
fn a_new_file_is_written_once_before_a_verifying_run() {
    // The stamps of generation 0 cover the whole new file: filling it with random data first
    // wrote every byte twice. Counted from the system calls, by strace, not by iolens.
    let p = Privileged::new();
    let Some(()) = p.need("strace (the independent count)", program("strace")) else { return };
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("strace.txt");
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let out = std::process::Command::new("strace")
        .args(["-f", "-y", "-e", "trace=write,pwrite64,pwritev,pwritev2", "-o"])
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_iolens"))
        .args(["run", "--verify", "--rw", "randread", "--size", "8M", "-d", "0.3", "--no-store", "--quiet"])
        .arg(&data)
        .env("IOLENS_STORE", test_store())
        .output()
        .unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let inside = format!("<{}/", data.display());
    let written: u64 = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .filter(|l| l.contains(&inside) && !l.contains("unfinished"))
        .filter_map(|l| l.rsplit_once(") = ").and_then(|(_, n)| n.split_whitespace().next()?.parse::<u64>().ok()))
        .sum();
    let resumed: u64 = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .filter(|l| l.contains("resumed>") && l.contains("write"))
        .count() as u64;
    assert_eq!(resumed, 0, "a write strace split in two would be missed: see {}", trace.display());
    assert_eq!(written, 8 << 20, "bytes written to the test file before and during a read-only run");
}

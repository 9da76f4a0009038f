//! Bad input, foreign files, clean-up and Ctrl-C: each refused input exits 2 with one line
//! naming the option and leaves no file behind.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use std::path::Path;

fn refused(dir: &Path, args: &[&str], want: &str) {
    let target = dir.join("t.dat");
    let out = bin().arg("run").args(args).arg(&target).arg("--quiet").output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 2, "{args:?}: exit {code}, stderr {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: not one line: {stderr}");
    assert!(stderr.starts_with(&format!("error: {want}")), "{args:?}: {stderr}");
    assert!(stdout.is_empty());
    assert!(entries(dir).is_empty(), "{args:?} left {:?}", entries(dir));
}

#[test]
fn bad_values_exit_2_with_one_line_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    refused(d, &["--bs", "3x"], "--bs: '3x' is not a size");
    refused(d, &["--qd", "0"], "--qd: 0 is out of range; use 1-4096");
    refused(d, &["--qd", "many"], "--qd: 'many' is not a number");
    refused(d, &["--read-pct", "120"], "--read-pct: 120 is out of range; use 0-100");
    refused(d, &["--rw", "randomread"], "--rw: 'randomread' is not a pattern; use read, write, randread");
    refused(d, &["--threads", "0"], "--threads: 0 is out of range");
    refused(d, &["--bssplit", "4k/60:8k/60"], "--bssplit: shares add up to 120%");
    refused(d, &["--random-dist", "zipf:x"], "--random-dist: 'zipf:x' is not a distribution");
    refused(d, &["--data", "compress:200"], "--data: '200' is not a percentage");
    refused(d, &["--engine", "libaio"], "--engine: 'libaio' is not an engine");
    refused(d, &["--duration", "0"], "--duration: must be more than 0");
    refused(d, &["--bs", "1000"], "--bs: 1000 bytes is not a multiple of the 512-byte sector, which O_DIRECT needs");
    refused(d, &["--size", "900T"], "--size: 900TiB of test files does not fit in");
    refused(d, &["--offset", "2G"], "--offset: offset 2147483648");
    refused(d, &["--format", "xml"], "--format: 'xml' is not a format");
    refused(d, &["--out", "/nonexistent-dir/r.json"], "--out: directory /nonexistent-dir does not exist");
    refused(d, &["--rate-iops", "-5"], "--rate-iops: -5 is not allowed");
    refused(d, &["--bs", "64M", "--qd", "4096"], "--qd: 4096 outstanding I/Os of 64M need 256.0 GiB of buffers");
    refused(d, &["--duration", "100d"], "--duration: '100d' is not a time");
    refused(d, &["--offset", "512", "--range", "18446744073709551615"], "--range: offset 512 + range");
    refused(
        d,
        &["--continue-on-error", "some"],
        "--continue-on-error: 'some' is not none, read, write, io, verify or all",
    );
    refused(
        d,
        &["--thinktime", "10ms", "--thinktime-spin", "20ms"],
        "--thinktime-spin: 20000 µs is longer than the thinktime",
    );
    refused(d, &["--thinktime", "fast"], "--thinktime: 'fast' is not a time");
    refused(d, &["--start-delay", "3-1"], "--start-delay: '3-1': the range must go from low to high");
    refused(
        d,
        &["--rate-process", "poisson"],
        "--rate-process: poisson spaces paced I/Os: give --rate-iops or --rate-mbps too",
    );
    refused(d, &["--number-ios", "0"], "--number-ios: must be at least 1");
    refused(
        d,
        &["--size", "4M", "--threads", "4", "--offset-increment", "2M"],
        "--offset-increment: the last thread's region",
    );
    if cfg!(feature = "mpi") {
        refused(
            d,
            &["--mpi", "--stonewall", "last"],
            "--stonewall: 'last' is not allowed; use none, first-done or wear-out",
        );
    } else {
        refused(
            d,
            &["--mpi"],
            "--mpi: this build of iolens lacks MPI; build it with `cargo build --release --features mpi`",
        );
    }
    let target = d.join("t.dat");
    refused(d, &["--out", target.to_str().unwrap()], "--out: ");
    refused(d, &["--trace", target.to_str().unwrap()], "--trace: ");
    // A missing parent directory names the target.
    let out = bin().args(["run", "--quiet"]).arg(d.join("no/such/dir/t.dat")).output().unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 2);
    assert!(stderr.contains("parent directory") && stderr.contains("does not exist"), "{stderr}");
    assert!(entries(d).is_empty());
}

#[test]
fn foreign_file_is_read_only_without_allow_write() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("mine.dat");
    let content: Vec<u8> = (0..(4u32 << 20)).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&f, &content).unwrap();
    let out = bin().args(["run", "--quiet", "--rw", "randwrite"]).arg(&f).output().unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 2);
    assert!(stderr.contains("iolens did not create it; writing to it needs --allow-write"), "{stderr}");
    // Reading it is fine, and leaves it (and its name) alone.
    let (code, v, err) = run_json(&["-d", "0.5", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(test0(&v)["spec"]["size"], 1u64 << 30, "spec size stays the default");
    assert_eq!(v["host"]["targets"][0]["size_bytes"], 4u64 << 20);
    assert_eq!(v["host"]["targets"][0]["created"], false);
    assert_eq!(std::fs::read(&f).unwrap(), content);
    // With --allow-write it is written, and still not removed.
    let (code, v, err) = run_json(&["-d", "0.3", "--rw", "randwrite", "--allow-write", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(u(&test0(&v)["write"]["ios"]) > 0);
    assert!(f.exists());
    assert_ne!(std::fs::read(&f).unwrap(), content);
}

#[test]
fn kept_test_file_can_be_written_again() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("kept.dat");
    let (code, _, err) = run_json(&["--size", "8M", "-d", "0.2", "--keep", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::metadata(&f).unwrap().len(), 8 << 20);
    // Prefilled with incompressible data, not a sparse file of zeros.
    let data = std::fs::read(&f).unwrap();
    assert!(data.iter().filter(|&&b| b == 0).count() < data.len() / 100);
    let (code, v, err) = run_json(&["-d", "0.2", "--rw", "randwrite", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(u(&test0(&v)["write"]["ios"]) > 0);
}

#[test]
fn ctrl_c_keeps_what_was_measured_and_cleans_up() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.dat");
    let out_file = dir.path().join("r.json");
    let child = bin()
        .args(["run", "--size", "16M", "-d", "30", "--qd", "4", "--format", "json", "--quiet", "--out"])
        .arg(&out_file)
        .arg(&f)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the file exists and measuring has run a while.
    let t0 = std::time::Instant::now();
    while !f.exists() && t0.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(2500));
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 130, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON after Ctrl-C");
    assert_eq!(v["interrupted"], true);
    let t = test0(&v);
    assert_eq!(t["interrupted"], true);
    let secs = t["duration_s"].as_f64().unwrap();
    assert!(secs > 0.5 && secs < 10.0, "measured {secs} s");
    assert!(u(&t["total"]["ios"]) > 0);
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(saved, v, "--out holds the same report");
    assert!(!f.exists(), "test file left after Ctrl-C");
}

#[test]
fn psync_reports_its_depth_and_null_engine_runs() {
    let dir = tempfile::tempdir().unwrap();
    let (code, v, err) =
        run_json(&["--size", "8M", "-d", "0.3", "--engine", "psync", "--qd", "8", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let t = test0(&v);
    assert_eq!(t["engine"], "psync");
    assert!(t["notices"][0].as_str().unwrap().contains("--qd 8 acts as 1"));
    assert!(f(&t["mean_qd"]) <= 1.01);
    assert_eq!(t["depth"], 1);
    let (code, v, _) = run_json(&["--size", "8M", "-d", "0.2", "--engine", "null", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(f(&test0(&v)["total"]["iops"]) > 100_000.0, "null engine should be far faster than any disk");
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn text_report_has_diskspd_tables() {
    let dir = tempfile::tempdir().unwrap();
    let out =
        bin().args(["run", "--size", "8M", "-d", "0.5", "--rw", "randrw", "--quiet"]).arg(dir.path()).output().unwrap();
    let (code, text, err) = parts(&out);
    assert_eq!(code, 0, "{err}");
    for needle in [
        "Total IO",
        "Read IO",
        "Write IO",
        "thread |       bytes |     I/Os |    MiB/s |  I/O per s |  AvgLat | IopsStdDev | LatStdDev | file",
        "%-ile |        Read |       Write |       Total",
        "99.9999999th",
        "CPU   |  Usage |   User | Kernel |   Idle",
        "µs CPU per I/O",
        "Per second",
    ] {
        assert!(text.contains(needle), "missing '{needle}' in:\n{text}");
    }
}

#[test]
fn zero_data_stays_zero_in_a_mix() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("z.dat");
    let tr = dir.path().join("trace.csv");
    let (code, v, err) = run_json(&[
        "--size",
        "4M",
        "-d",
        "0.5",
        "--rw",
        "randrw",
        "--data",
        "zero",
        "--qd",
        "4",
        "--keep",
        "--trace",
        tr.to_str().unwrap(),
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(u(&test0(&v)["read"]["ios"]) > 0 && u(&test0(&v)["write"]["ios"]) > 0);
    let data = std::fs::read(&f).unwrap();
    let mut written = 0;
    for line in std::fs::read_to_string(&tr).unwrap().lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        if c[2] == "write" {
            let off: usize = c[3].parse().unwrap();
            assert!(data[off..off + 4096].iter().all(|&b| b == 0), "block at {off} is not zeros");
            written += 1;
        }
    }
    assert!(written > 10);
}

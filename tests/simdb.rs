//! `iolens simdb`: its summary against the system calls strace counts on each file, the
//! throttle on a cgroup-throttled loop device, SIGKILL then `--verify-only` (clean, then with a
//! data file cut short and a log record damaged behind its back), and bad input.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::throttled::Throttled;
use common::*;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const SMALL: [&str; 6] = ["--data-size", "4m", "--log-size", "1m", "--users", "2"];

fn simdb(dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = bin().arg("simdb").arg(dir).args(args).args(["--format", "json", "--quiet"]).output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    let v = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\n{stderr}"));
    (code, v, stderr)
}

fn findings(v: &Value) -> Vec<&Value> {
    v["tests"].as_array().unwrap().iter().flat_map(|t| t["verify"]["findings"].as_array().unwrap().iter()).collect()
}

fn tmpdir() -> tempfile::TempDir {
    // On disk, not tmpfs: O_DIRECT needs a file system that takes it.
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap()
}

#[test]
fn bad_input_is_one_line_exit_2_and_creates_nothing() {
    let dir = tmpdir();
    let cases: [(&[&str], &str); 5] = [
        (&["--page", "1000"], "--page: '1000' is not a multiple of the sector"),
        (&["--data-size", "4k"], "--data-size: '4k' is below 16 pages of 8KiB"),
        (&["--data-size", "64k", "--page", "8k"], "--data-size: '64k' is below 16 pages"),
        (&["--data-size", "900t"], "free; the data files, log and journal need"),
        (&["--users", "0"], "--users: '0' is not allowed; use 1 to 256"),
    ];
    for (args, want) in cases {
        let out = bin().arg("simdb").arg(dir.path()).args(args).arg("--no-store").output().unwrap();
        let (code, stdout, stderr) = parts(&out);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        assert!(entries(dir.path()).is_empty(), "{args:?} left {:?}", entries(dir.path()));
    }
    let out = bin().args(["simdb", "/nonexistent/dir", "--no-store"]).output().unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(
        (code, stderr.trim()),
        (2, "error: /nonexistent/dir: is not a directory; simdb needs a directory for its files")
    );
    // Nothing to check.
    let (code, _, stderr) = parts(&bin().arg("simdb").arg(dir.path()).arg("--verify-only").output().unwrap());
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--verify-only: no journal at"), "{stderr}");
}

/// Per file and system call, what strace saw (`-y` names each descriptor's file).
fn strace_counts(trace: &Path) -> HashMap<(String, String), u64> {
    let mut c = HashMap::new();
    for line in std::fs::read_to_string(trace).unwrap().lines() {
        // "PID pread64(5</dir/iolens-simdb-data1.mdf>, …" (also when "<unfinished …>").
        let Some(rest) = line.split_once(' ').map(|(_, r)| r.trim_start()) else { continue };
        let Some((call, args)) = rest.split_once('(') else { continue };
        let Some(path) = args.split_once('<').and_then(|(_, p)| p.split_once('>')).map(|(p, _)| p) else { continue };
        // Descriptors that are no file of iolens's ("/", sockets, pipes) have no name to count.
        let Some(name) = Path::new(path).file_name().map(|n| n.to_string_lossy().into_owned()) else { continue };
        *c.entry((name, call.to_string())).or_insert(0) += 1;
    }
    c
}

#[test]
fn summary_counts_equal_the_system_calls_strace_counts() {
    let p = Privileged::new();
    let Some(()) = p.need("strace (the independent count)", program("strace")) else { return };
    let dir = tmpdir();
    let trace = dir.path().join("calls.trace");
    let json = dir.path().join("r.json");
    let data = tempfile::tempdir_in(dir.path()).unwrap();
    let out = Command::new("strace")
        .args(["-f", "-qq", "-y", "-e", "trace=pread64,pwrite64,preadv,pwritev,preadv2,pwritev2,fsync,fdatasync", "-o"])
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_iolens"))
        .arg("simdb")
        .arg(data.path())
        .args(SMALL)
        .args(["--duration", "2", "--quiet", "--no-store", "--format", "json", "--out"])
        .arg(&json)
        .output()
        .unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let seen = strace_counts(&trace);
    let files = v["simdb"]["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    let mut total = 0;
    for f in files {
        let name = Path::new(f["path"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned();
        let n = |call: &str| seen.get(&(name.clone(), call.to_string())).copied().unwrap_or(0);
        let summary =
            [u(&f["reads"]), u(&f["scatter_reads"]), u(&f["writes"]), u(&f["gather_writes"]), u(&f["flushes"])];
        let counted = [
            n("pread64"),
            n("preadv") + n("preadv2"),
            n("pwrite64"),
            n("pwritev") + n("pwritev2"),
            n("fdatasync") + n("fsync"),
        ];
        eprintln!("{name}: summary {summary:?}, strace {counted:?} (reads, scatter, writes, gather, flushes)");
        assert_eq!(summary, counted, "{name}");
        total += summary.iter().sum::<u64>();
        if f["kind"] == "data" {
            assert!(summary.iter().all(|&x| x > 0), "{name}: every kind of I/O ran: {summary:?}");
        } else {
            assert!(summary[0] > 0 && summary[2] > 0, "the log was written and read back: {summary:?}");
        }
    }
    assert!(total > 1000, "{total} I/Os in 2 s");
    // The same I/Os, by user kind: every test's reads and writes add up to the files'.
    let tests_ios: u64 = v["tests"].as_array().unwrap().iter().map(|t| u(&t["total"]["ios"])).sum();
    let file_ios: u64 =
        files.iter().map(|f| u(&f["reads"]) + u(&f["scatter_reads"]) + u(&f["writes"]) + u(&f["gather_writes"])).sum();
    let init_writes = 2 * 4; // each 4 MiB data file stamped in 1 MiB writes
    assert_eq!(tests_ios + init_writes, file_ios);
    assert!(findings(&v).is_empty(), "{:?}", findings(&v));
    assert!(entries(data.path()).is_empty(), "left {:?}", entries(data.path()));
}

/// Whether a program is on the PATH (mkfs.ext4 has no --version to ask).
fn on_path(name: &str) -> Result<(), String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = std::env::split_paths(&path).chain(["/sbin".into(), "/usr/sbin".into()]);
    dirs.any(|d| d.join(name).is_file()).then_some(()).ok_or_else(|| format!("{name} is not on the PATH"))
}

/// Mounts a fresh ext4 on the throttled loop device for the test's lifetime.
struct Mounted(tempfile::TempDir);

impl Mounted {
    fn new(t: &Throttled) -> Option<Mounted> {
        t.need("mkfs.ext4 (a file system on the loop device)", on_path("mkfs.ext4"))?;
        let st = Command::new("mkfs.ext4").args(["-q", "-F", &t.dev]).stdout(Stdio::null()).status().unwrap();
        assert!(st.success(), "mkfs.ext4 {}", t.dev);
        let dir = tmpdir();
        let st = Command::new("mount").arg(&t.dev).arg(dir.path()).status().unwrap();
        assert!(st.success(), "mount {} {}", t.dev, dir.path().display());
        Some(Mounted(dir))
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0.path()).status();
    }
}

fn simdb_in(t: &Throttled, dir: &Path, args: &str) -> Value {
    let out = t.run(&format!(
        "{} simdb {} --data-size 8m --log-size 1m --users 4 --duration 4 --format json --quiet {args}",
        env!("CARGO_BIN_EXE_iolens"),
        dir.display()
    ));
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn a_throttled_device_passes_the_target_and_is_throttled_an_unthrottled_one_is_not() {
    let Some(t) = Throttled::new("simdb") else { return };
    let Some(m) = Mounted::new(&t) else { return };
    let v = simdb_in(&t, m.0.path(), "");
    for f in v["simdb"]["files"].as_array().unwrap() {
        eprintln!("unthrottled {}: max running average {} ms", f["path"], f["max_running_avg_io_ms"]);
        assert_eq!(u(&f["throttled"]), 0, "{f}");
    }
    t.set("read_iops_device", 100);
    t.set("write_iops_device", 100);
    let v = simdb_in(&t, m.0.path(), "--target-io-ms 20");
    let data: Vec<&Value> = v["simdb"]["files"].as_array().unwrap().iter().filter(|f| f["kind"] == "data").collect();
    for f in &data {
        eprintln!(
            "at 100 IOPS: {}: max running average {} ms, throttled {}",
            f["path"], f["max_running_avg_io_ms"], f["throttled"]
        );
        assert!(self::f(&f["max_running_avg_io_ms"]) > 20.0, "{f}");
        assert!(u(&f["throttled"]) > 0, "{f}");
    }
    assert!(findings(&v).is_empty(), "{:?}", findings(&v));
}

/// Starts a run, kills it with SIGKILL mid-run; the files stay.
fn killed_run(dir: &Path, args: &[&str]) {
    let mut child = bin()
        .arg("simdb")
        .arg(dir)
        .args(args)
        .args(["--duration", "60", "--quiet", "--no-store"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    assert!(child.try_wait().unwrap().is_none(), "the run ended by itself");
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(entries(dir).iter().any(|e| e == "iolens-simdb.journal"), "{:?}", entries(dir));
}

#[test]
fn after_sigkill_nothing_flushed_is_lost_until_a_file_is_cut_short() {
    let dir = tmpdir();
    killed_run(dir.path(), &["--data-size", "8m", "--log-size", "256m", "--users", "4"]);
    let (code, v, stderr) = simdb(dir.path(), &["--verify-only", "--no-store"]);
    assert_eq!(code, 0, "{stderr}: {:?}", findings(&v));
    let s = &v["simdb"];
    assert_eq!(s["verify_only"], true);
    let sizes: Vec<u64> =
        s["files"].as_array().unwrap().iter().filter(|f| f["kind"] == "data").map(|f| u(&f["size"])).collect();
    let checked = u(&v["tests"][0]["verify"]["pages_checked"]);
    assert_eq!(checked, sizes.iter().sum::<u64>() / 8192, "every live page checked");
    assert!(u(&s["log_records_checked"]) > 0 && u(&s["log_records_checked"]) >= u(&s["log_records"]), "{s}");

    // A data file cut to 2 MiB behind iolens's back: every page past that is a lost write.
    let data1 = dir.path().join("iolens-simdb-data1.mdf");
    std::fs::OpenOptions::new().write(true).open(&data1).unwrap().set_len(2 << 20).unwrap();
    let (code, v, _) = simdb(dir.path(), &["--verify-only", "--no-store"]);
    assert_eq!(code, 3);
    let found = findings(&v);
    let lost = (sizes[0] - (2 << 20)) / 8192;
    assert_eq!(found.len() as u64, lost, "{:?}", &found[..3.min(found.len())]);
    for f in &found {
        assert_eq!(f["class"], "stale");
        assert!(f["file"].as_str().unwrap().ends_with("iolens-simdb-data1.mdf"));
        assert!(u(&f["offset"]) >= 2 << 20);
    }

    // The page charts the files and names what was found.
    let out =
        bin().arg("simdb").arg(dir.path()).args(["--verify-only", "--no-store", "--format", "html"]).output().unwrap();
    let html = String::from_utf8_lossy(&out.stdout);
    assert!(html.contains("Per file (SQLIOSim&#39;s summary)") || html.contains("Per file (SQLIOSim's summary)"));
    assert!(html.contains(&format!("<b>Findings:</b> {lost} stale")), "{html}");
    assert!(html.matches("<figure class=\"chart\">").count() >= 3);

    // The first log record damaged: the chain breaks at offset 0.
    let log = dir.path().join("iolens-simdb-log.ldf");
    let mut bytes = std::fs::read(&log).unwrap();
    bytes[100] ^= 0x40;
    std::fs::write(&log, &bytes).unwrap();
    let (code, v, _) = simdb(dir.path(), &["--verify-only", "--no-store"]);
    assert_eq!(code, 3);
    let bad: Vec<_> = findings(&v).into_iter().filter(|f| f["class"] == "log").collect();
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert_eq!((u(&bad[0]["offset"]), u(&bad[0]["expected_gen"])), (0, 1));
    assert!(bad[0]["diff"].as_str().unwrap().contains("bad checksum"), "{}", bad[0]["diff"]);
    // Page 0 of data2 copied over page 1 (misdirected), a bit flipped in page 2 (corrupt).
    let data2 = dir.path().join("iolens-simdb-data2.mdf");
    let mut d2 = std::fs::read(&data2).unwrap();
    let page0 = d2[..8192].to_vec();
    d2[8192..16384].copy_from_slice(&page0);
    d2[2 * 8192 + 3000] ^= 1;
    std::fs::write(&data2, &d2).unwrap();
    let (code, v, _) = simdb(dir.path(), &["--verify-only", "--no-store"]);
    assert_eq!(code, 3);
    let in2: Vec<_> = findings(&v).into_iter().filter(|f| f["file"].as_str().unwrap().ends_with("data2.mdf")).collect();
    assert_eq!(in2.len(), 2, "{in2:?}");
    assert_eq!((&in2[0]["class"], u(&in2[0]["offset"]), u(&in2[0]["found_offset"])), (&"misdirected".into(), 8192, 0));
    // The diff starts in the damaged unit (at the flipped byte, or before it at the generation
    // when the page holds a write newer than the journal's).
    assert_eq!(
        (&in2[1]["class"], u(&in2[1]["offset"]), u(&in2[1]["diff_at"]) / 512),
        (&"corrupt".into(), 16384, 3000 / 512)
    );
    // A new run refuses the directory until the evidence is removed.
    let (code, _, stderr) = parts(&bin().arg("simdb").arg(dir.path()).arg("--no-store").output().unwrap());
    assert_eq!(code, 2);
    assert!(stderr.contains("holds the files of an earlier simdb run"), "{stderr}");
}

#[test]
fn with_write_through_the_journal_follows_acknowledgements() {
    let dir = tmpdir();
    killed_run(dir.path(), &["--data-size", "8m", "--log-size", "256m", "--users", "4", "--write-through"]);
    let (code, v, stderr) = simdb(dir.path(), &["--verify-only", "--no-store"]);
    assert_eq!(code, 0, "{stderr}: {:?}", findings(&v));
    assert_eq!(v["simdb"]["write_through"], true);
    // Pages written since the last checkpoint's flush are journaled too: cutting the file
    // shows as many lost pages, and their journaled generations are past the initial one.
    let data2 = dir.path().join("iolens-simdb-data2.mdf");
    std::fs::OpenOptions::new().write(true).open(&data2).unwrap().set_len(1 << 20).unwrap();
    let (code, v, _) = simdb(dir.path(), &["--verify-only", "--no-store"]);
    assert_eq!(code, 3);
    let found = findings(&v);
    assert!(found.iter().all(|f| f["class"] == "stale"));
    assert!(found.iter().any(|f| u(&f["expected_gen"]) > 0), "some lost page had been rewritten");
}

#[test]
fn every_second_with_io_has_its_p50_and_p99_in_order() {
    let dir = tmpdir();
    let (code, v, stderr) =
        simdb(dir.path(), &["--data-size", "4m", "--log-size", "1m", "--users", "2", "-d", "3", "--no-store"]);
    assert_eq!(code, 0, "{stderr}");
    let mut with_io = 0;
    for t in v["tests"].as_array().unwrap() {
        let max = f(&t["response"]["total"]["max"]);
        let seconds = t["seconds"].as_array().unwrap();
        assert!(seconds.len() >= 3, "{}: {} seconds", t["name"], seconds.len());
        for s in seconds {
            if f(&s["iops"]) == 0.0 {
                assert!(s["p50_us"].is_null() && s["p99_us"].is_null(), "{}: {s}", t["name"]);
                continue;
            }
            with_io += 1;
            let (p50, p99) = (f(&s["p50_us"]), f(&s["p99_us"]));
            assert!(0.0 < p50 && p50 <= p99 && p99 <= max, "{}: second {s}, max {max} µs", t["name"]);
        }
        // A user that ran all the time has figures in every full second.
        if t["name"] == "simdb random access" {
            assert!(seconds.iter().take(3).all(|s| !s["p50_us"].is_null()), "{seconds:?}");
        }
    }
    assert!(with_io >= 3 * 5, "{with_io} seconds with I/O across the user kinds");
}

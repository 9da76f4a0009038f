//! `iolens capture` on a loop device while fio runs a known job, the capture replayed on the
//! same device, and a replay's lag on that device unthrottled and throttled by cgroup v1 blkio.
//! Needs root, losetup, cgroup v1 blkio, tracefs and fio: skipped with the reason elsewhere,
//! failed under IOLENS_REQUIRE_PRIVILEGED=1.
#![cfg(target_os = "linux")]

mod common;
use common::throttled::Throttled;
use common::*;
use serde_json::Value;
use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;

/// The capture and the lag tests one at a time: the capture test's setup (a 64 MiB file written)
/// and fio would show in the other's lag.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Ok when the kernel offers tracefs (mounted or not).
fn tracefs() -> Result<(), String> {
    let fs = std::fs::read_to_string("/proc/filesystems").map_err(|e| format!("reading /proc/filesystems: {e}"))?;
    if fs.lines().any(|l| l.split_whitespace().last() == Some("tracefs")) {
        Ok(())
    } else {
        Err("the kernel has no tracefs".into())
    }
}

/// (op, offset, length) of each I/O of an iolens trace CSV.
fn csv_ios(csv: &str) -> Vec<String> {
    csv.lines().skip(1).map(|l| l.split(',').skip(2).take(3).collect::<Vec<_>>().join(",")).collect()
}

/// Length → count over a trace's I/Os.
fn sizes(ios: &[String]) -> std::collections::BTreeMap<String, usize> {
    let mut m = std::collections::BTreeMap::new();
    for io in ios {
        *m.entry(io.rsplit(',').next().unwrap().to_string()).or_default() += 1;
    }
    m
}

#[test]
fn a_capture_of_fio_on_a_loop_device_is_replayed_request_for_request() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(t) = Throttled::new("capture") else { return };
    if t.need("fio", program("fio")).is_none() || t.need("tracefs", tracefs()).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A capture ended by a second Ctrl-C leaves its instance; the next one removes it.
    let stale = Path::new("/sys/kernel/tracing/instances/iolens-capture-4194305");
    if Path::new("/sys/kernel/tracing/instances").is_dir() {
        std::fs::create_dir(stale).unwrap();
    }
    let mut cap = bin()
        .current_dir(d)
        .args(["capture", &t.dev, "--duration", "120", "--out", "cap.csv"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The capture says so once its tracepoints are on.
    let mut started = String::new();
    std::io::BufReader::new(cap.stderr.take().unwrap()).read_line(&mut started).unwrap();
    assert!(started.starts_with(&format!("capturing {}'s requests for 120 s", t.dev)), "{started}");
    let instance = format!("/sys/kernel/tracing/instances/iolens-capture-{}", cap.id());
    assert!(Path::new(&instance).is_dir(), "no {instance}");
    assert!(!stale.exists(), "{} left behind", stale.display());
    let fio = Command::new("fio")
        .current_dir(d)
        .args(["--name=cap", "--filename", &t.dev, "--direct=1", "--ioengine=psync", "--rw=randread", "--bs=4k"])
        .args(["--number_ios=500", "--randrepeat=1", "--size=64M", "--write_iolog=fio.log", "--output=/dev/null"])
        .output()
        .unwrap();
    assert!(fio.status.success(), "fio: {}", String::from_utf8_lossy(&fio.stderr));
    // Ctrl-C ends the capture early and keeps what it holds.
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(Command::new("kill").args(["-INT", &cap.id().to_string()]).status().unwrap().success());
    let out = cap.wait_with_output().unwrap();
    let (code, stdout, _) = parts(&out);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.starts_with(&format!("captured 500 requests on {} in ", t.dev))
            && stdout.contains(": 500 reads, 0 writes, 0 trims, 0 flushes (500 with their latency) to cap.csv"),
        "{stdout}"
    );
    assert!(!Path::new(&instance).exists(), "{instance} left behind");

    // The tracepoints saw what fio issued, in its order.
    let fio_log = std::fs::read_to_string(d.join("fio.log")).unwrap();
    let want: Vec<String> = fio_log
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f.len() == 5 && f[2] == "read")
        .map(|f| format!("read,{},{}", f[3], f[4]))
        .collect();
    assert_eq!(want.len(), 500);
    let captured = csv_ios(&std::fs::read_to_string(d.join("cap.csv")).unwrap());
    assert_eq!(captured, want);

    let out = bin()
        .current_dir(d)
        .args(["replay", "cap.csv", &t.dev, "--trace", "re.csv", "--format", "json", "--quiet"])
        .output()
        .unwrap();
    let (code, stdout, err) = parts(&out);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let r = test0(&v);
    assert_eq!([u(&r["read"]["ios"]), u(&r["write"]["ios"])], [500, 0]);
    assert_eq!(u(&r["read"]["bytes"]), 500 * 4096);
    let replayed = csv_ios(&std::fs::read_to_string(d.join("re.csv")).unwrap());
    assert_eq!(sizes(&replayed), sizes(&captured));
    assert_eq!(replayed, captured);
    // The capture's own latencies travel with it: one per request.
    let c = &r["replay"]["capture_us"];
    assert!(f(&c["min"]) > 0.0 && f(&c["max"]) >= f(&c["percentiles"]["99"]), "{c}");
}

/// An iolens timed trace of `n` 4 KiB reads, `gap_us` apart, over a 64 MiB device.
fn paced_trace(path: &Path, n: u64, gap_us: u64) {
    let mut csv = String::from("worker,file,op,offset,length,time_ns,latency_ns\n");
    for i in 0..n {
        csv += &format!("0,0,read,{},4096,{},\n", (i * 2_654_435_761 % 16384) * 4096, i * gap_us * 1000);
    }
    std::fs::write(path, csv).unwrap();
}

/// The text report's lag line: (p50, p99) in ms.
fn lag_ms(text: &str) -> (f64, f64) {
    let line =
        text.lines().find(|l| l.contains("lag behind its clock")).unwrap_or_else(|| panic!("no lag line: {text}"));
    let after = |key: &str| -> f64 {
        let rest = &line[line.find(key).unwrap_or_else(|| panic!("{key} in {line}")) + key.len()..];
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    (after("p50 "), after("p99 "))
}

#[test]
fn a_target_that_keeps_up_lags_little_and_a_throttled_one_is_reported_behind() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(t) = Throttled::new("replay-lag") else { return };
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("paced.csv");
    // 400 reads a second for 2 s.
    paced_trace(&trace, 800, 2500);
    let cmd = format!("{} replay {} {} --no-store", env!("CARGO_BIN_EXE_iolens"), trace.display(), t.dev);
    let out = t.run(&cmd);
    let (code, text, err) = parts(&out);
    assert_eq!(code, 0, "{err}");
    // On a 2-core host shared with builds, a few reads wait some ms for a CPU; the median does not.
    let (p50, p99) = lag_ms(&text);
    assert!(p50 < 1.0 && p99 < 50.0, "unthrottled lag p50 {p50} ms, p99 {p99} ms: {text}");
    assert!(!text.contains("fell behind"), "{text}");
    assert!(text.contains("800 of 800 I/Os over 1997.5 ms"), "{text}");

    // 100 reads a second: the trace's 2 s take 8, and the lag grows to seconds.
    t.set("read_iops_device", 100);
    let out = t.run(&cmd);
    let (code, text, err) = parts(&out);
    assert_eq!(code, 0, "{err}");
    let (p50, p99) = lag_ms(&text);
    assert!(p99 > 1000.0 && p50 > 500.0, "throttled lag p50 {p50} ms, p99 {p99} ms: {text}");
    assert!(text.contains("the replay fell behind the trace's clock"), "{text}");
}

#[test]
fn capture_refuses_bad_input_and_a_missing_capability_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("plain"), b"x").unwrap();
    let run = |args: &[&str]| {
        let out = bin().current_dir(d).arg("capture").args(args).output().unwrap();
        let (code, _, err) = parts(&out);
        (code, err)
    };
    let (code, err) = run(&["plain", "--duration", "1", "--out", "c.csv"]);
    assert_eq!(
        (code, err.as_str()),
        (2, "error: plain: is not a block device; capture records a block device's requests\n")
    );
    let (code, err) = run(&["/dev/null", "--duration", "0", "--out", "c.csv"]);
    assert_eq!((code, err.as_str()), (2, "error: --duration: '0' is no time to record; give more than 0\n"));
    let (code, err) = run(&["/dev/null", "--out", "no/such/dir/c.csv"]);
    assert_eq!((code, err.as_str()), (2, "error: --out: no/such/dir/c.csv: not a file in an existing directory\n"));
    let mut names = entries(d);
    names.sort();
    assert_eq!(names, ["plain"]);

    // Without root: one line saying what is missing, and no trace written.
    let privileged = Privileged::new();
    if privileged.need("root (to drop it)", root()).is_none()
        || privileged.need("setpriv (util-linux)", program("setpriv")).is_none()
    {
        return;
    }
    // Any block device of the machine: the refusal comes before anything is traced.
    let dev = std::fs::read_dir("/sys/block")
        .unwrap()
        .map(|e| format!("/dev/{}", e.unwrap().file_name().to_string_lossy()))
        .find(|p| Path::new(p).exists())
        .expect("a block device in /sys/block with its /dev node");
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", env!("CARGO_BIN_EXE_iolens")])
        .args(["capture", &dev, "--duration", "1", "--out", "/tmp/iolens-capture-nobody.csv"])
        .output()
        .unwrap();
    let (code, _, err) = parts(&out);
    assert_eq!(
        (code, err.as_str()),
        (2, "error: capture: reading the kernel's block tracepoints needs root (running as uid 65534)\n")
    );
    assert!(!Path::new("/tmp/iolens-capture-nobody.csv").exists());
}

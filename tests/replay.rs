//! `iolens replay`: fio's iologs and iolens's own traces issued again, I/O for I/O, in order,
//! with the trace's timing kept, scaled or dropped, and the lag behind its clock reported.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

/// `iolens replay ARGS --format json --quiet` in `dir`: (exit code, JSON, stderr).
fn replay(dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = bin().current_dir(dir).arg("replay").args(args).args(["--format", "json", "--quiet"]).output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    let v = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (code, v, stderr)
}

/// (op, offset, length) of each I/O of a fio iolog v3, or of an iolens trace CSV.
fn fio_ios(log: &str) -> Vec<String> {
    log.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f.len() == 5 && matches!(f[2], "read" | "write"))
        .map(|f| format!("{},{},{}", f[2], f[3], f[4]))
        .collect()
}

fn csv_ios(csv: &str) -> Vec<String> {
    csv.lines().skip(1).map(|l| l.splitn(3, ',').nth(2).unwrap().to_string()).collect()
}

/// (read I/Os, read bytes, write I/Os, write bytes) of a result.
fn counts(t: &Value) -> [u64; 4] {
    [u(&t["read"]["ios"]), u(&t["read"]["bytes"]), u(&t["write"]["ios"]), u(&t["write"]["bytes"])]
}

#[test]
fn a_fio_iolog_is_replayed_io_for_io_and_fio_counts_the_same() {
    let privileged = Privileged::new();
    if privileged.need("fio", program("fio")).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fio = |args: &[&str]| {
        let out = std::process::Command::new("fio").current_dir(d).args(args).output().unwrap();
        assert!(out.status.success(), "fio {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    fio(&[
        "--name=cap",
        "--filename=data",
        "--size=16M",
        "--io_size=1G",
        "--rw=randrw",
        "--bssplit=4k/60:16k/30:64k/10",
        "--number_ios=2000",
        "--ioengine=psync",
        "--write_iolog=cap.log",
        "--output=/dev/null",
    ]);
    let log = std::fs::read_to_string(d.join("cap.log")).unwrap();
    let want = fio_ios(&log);
    assert_eq!(want.len(), 2000);

    // The log's file exists and iolens did not make it: writing to it takes --allow-write.
    let (code, _, err) = replay(d, &["cap.log", "--no-stall"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--allow-write"), "{err}");

    let (code, v, err) = replay(d, &["cap.log", "--no-stall", "--allow-write", "--iodepth", "4", "--trace", "out.csv"]);
    assert_eq!(code, 0, "{err}");
    let got = csv_ios(&std::fs::read_to_string(d.join("out.csv")).unwrap());
    assert_eq!(got, want, "the replay issued other I/Os, or in another order");
    let t = test0(&v);
    assert_eq!(u(&t["replay"]["issued"]), 2000);
    assert_eq!(t["replay"]["format"], "fio iolog v3");

    // fio's own replay of the log, and iolens's of its own trace, count the same.
    let fj: Value = serde_json::from_str(&fio(&[
        "--name=re",
        "--read_iolog=cap.log",
        "--replay_no_stall=1",
        "--ioengine=psync",
        "--output-format=json",
    ]))
    .unwrap();
    let j = &fj["jobs"][0];
    let fio_counts =
        [&j["read"]["total_ios"], &j["read"]["io_bytes"], &j["write"]["total_ios"], &j["write"]["io_bytes"]].map(u);
    assert_eq!(counts(t), fio_counts);
    let (code, v2, err) = replay(d, &["out.csv", "data", "--no-stall", "--allow-write", "--trace", "again.csv"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(counts(test0(&v2)), fio_counts);
    assert_eq!(v2["tests"][0]["replay"]["format"], "iolens trace");
    assert_eq!(csv_ios(&std::fs::read_to_string(d.join("again.csv")).unwrap()), want);

    // A fio job file naming the log does the same through `iolens fio`.
    std::fs::write(d.join("re.fio"), "[re]\nread_iolog=cap.log\nreplay_no_stall=1\n").unwrap();
    let out = bin().current_dir(d).args(["fio", "re.fio", "--output-format=json", "--allow-write"]).output().unwrap();
    let (code, stdout, err) = parts(&out);
    assert_eq!(code, 0, "{err}");
    let ij: Value = serde_json::from_str(&stdout).unwrap();
    let j = &ij["jobs"][0];
    assert_eq!(
        [&j["read"]["total_ios"], &j["read"]["io_bytes"], &j["write"]["total_ios"], &j["write"]["io_bytes"]].map(u),
        fio_counts
    );
}

/// A version 3 log of `n` 4 KiB reads 1 ms apart on `file`.
/// `n` reads 10 ms apart: gaps long enough that a busy host's scheduling delays (a few ms
/// when a build shares its CPUs) are a small part of each, so the pacing shows through them.
fn paced_log(dir: &Path, file: &str, n: u64) -> String {
    let mut log = format!("fio version 3 iolog\n0 {file} add\n");
    for i in 0..n {
        log += &format!("{} {file} read {} 4096\n", i * 10_000, (i * 7 % 256) * 4096);
    }
    std::fs::write(dir.join("paced.log"), log).unwrap();
    std::fs::write(dir.join(file), vec![1u8; 1 << 20]).unwrap();
    "paced.log".into()
}

#[test]
fn the_traces_timing_is_kept_scaled_or_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let log = paced_log(d, "t.dat", 200);
    let span = 1.99;
    let run = |extra: &[&str]| {
        let (code, v, err) = replay(d, &[&[log.as_str(), "--buffered"][..], extra].concat());
        assert_eq!(code, 0, "{err}");
        let t = test0(&v).clone();
        assert_eq!(u(&t["read"]["ios"]), 200);
        t
    };
    let timed = run(&[]);
    let secs = f(&timed["duration_s"]);
    assert!(secs >= span, "timed replay took {secs} s, less than the trace's {span} s");
    assert!(secs < span * 1.5, "timed replay took {secs} s for a {span} s trace");
    assert_eq!(f(&timed["replay"]["span_ms"]), 1990.0);
    // The lag: present, as percentiles, and on a page-cache file under the 10 ms past which
    // iolens itself says a replay fell behind (a busy host delays a wake-up by a few ms).
    let lag = &timed["replay"]["lag_us"];
    let p50 = f(&lag["percentiles"]["50"]);
    assert!(p50 < 10_000.0, "median lag {p50} µs: {lag}");
    assert!(f(&lag["percentiles"]["99"]) >= p50);
    assert_eq!(u(&timed["replay"]["lag"]["count"]), 200);

    // Twice the trace's rate: half its time.
    let fast = run(&["--time-scale", "200"]);
    let half = f(&fast["duration_s"]);
    assert!((span / 2.0..span * 0.75).contains(&half), "--time-scale 200 took {half} s, timed {secs} s");
    assert_eq!(f(&fast["replay"]["span_ms"]), 995.0);
    // As fast as the file allows.
    let free = run(&["--no-stall"]);
    let quick = f(&free["duration_s"]);
    assert!(quick < span / 4.0, "--no-stall took {quick} s");
}

#[test]
fn a_bad_trace_line_is_one_line_naming_file_line_and_expectation() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("t.dat"), vec![0u8; 65536]).unwrap();
    std::fs::write(d.join("bad.log"), "fio version 2 iolog\nt.dat add\nt.dat read 0 4096\nt.dat write 4096\n").unwrap();
    let before = std::fs::read(d.join("t.dat")).unwrap();
    let (code, _, err) = replay(d, &["bad.log", "--allow-write"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: bad.log: line 4: expected 'FILE add|open|close' or 'FILE read|write|trim|sync|datasync|wait OFFSET LENGTH'\n"
    );
    assert_eq!(std::fs::read(d.join("t.dat")).unwrap(), before);
    let mut names = entries(d);
    names.sort();
    assert_eq!(names, ["bad.log", "t.dat"]);
    // Options are checked before the trace is run.
    let (code, _, err) = replay(d, &["bad.log", "--time-scale", "0"]);
    assert_eq!((code, err.as_str()), (2, "error: --time-scale: '0' is not a percentage; use 1-100000\n"));
    let (code, _, err) = replay(d, &["bad.log", "--align", "3000"]);
    assert_eq!((code, err.as_str()), (2, "error: --align: 3000 is not a power of two\n"));
}

#[test]
fn files_map_to_targets_in_order_and_redirect_puts_them_on_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let log = "fio version 2 iolog\n/x/a add\n/x/b add\n/x/b read 8192 4096\n/x/a read 0 4096\n/x/b read 0 4096\n";
    std::fs::write(d.join("two.log"), log).unwrap();
    for f in ["one", "two"] {
        std::fs::write(d.join(f), vec![0u8; 65536]).unwrap();
    }
    let (code, _, err) = replay(d, &["two.log", "one"]);
    assert_eq!(code, 2);
    assert_eq!(err, "error: TARGET: the trace has 2 files (/x/a, /x/b); give as many targets, or --redirect TARGET\n");
    let (code, _, err) = replay(d, &["two.log", "one", "two", "--buffered", "--trace", "m.csv"]);
    assert_eq!(code, 0, "{err}");
    // Files are numbered as the log adds them: /x/a is the first target.
    let csv = std::fs::read_to_string(d.join("m.csv")).unwrap();
    assert_eq!(
        csv.lines().skip(1).map(|l| l.split_once(',').unwrap().1).collect::<Vec<_>>(),
        ["1,read,8192,4096", "0,read,0,4096", "1,read,0,4096"]
    );
    let (code, _, err) = replay(d, &["two.log", "--redirect", "one", "--scale", "2", "--buffered", "--trace", "r.csv"]);
    assert_eq!(code, 0, "{err}");
    let csv = std::fs::read_to_string(d.join("r.csv")).unwrap();
    assert_eq!(
        csv.lines().skip(1).map(|l| l.split_once(',').unwrap().1).collect::<Vec<_>>(),
        ["0,read,4096,4096", "0,read,0,4096", "0,read,0,4096"]
    );
}

/// One `struct blk_io_trace` record (blktrace_api.h) and its payload, in either byte order, on
/// device 7,0.
fn blk_record(big: bool, time: u64, sector: u64, bytes: u32, action: u32, cpu: u32, pdu: &[u8]) -> Vec<u8> {
    blk_record_on(7 << 20, big, time, sector, bytes, action, cpu, pdu)
}

/// The same on device `dev` (the kernel's dev_t: MAJOR << 20 | MINOR).
#[allow(clippy::too_many_arguments)]
fn blk_record_on(
    dev: u32,
    big: bool,
    time: u64,
    sector: u64,
    bytes: u32,
    action: u32,
    cpu: u32,
    pdu: &[u8],
) -> Vec<u8> {
    let mut r = Vec::new();
    // A field's big-endian bytes are its little-endian ones reversed.
    let mut put = |le: &[u8]| {
        if big {
            r.extend(le.iter().rev())
        } else {
            r.extend(le)
        }
    };
    put(&0x6561_7407u32.to_le_bytes());
    put(&0u32.to_le_bytes()); // sequence
    put(&time.to_le_bytes());
    put(&sector.to_le_bytes());
    put(&bytes.to_le_bytes());
    put(&action.to_le_bytes());
    put(&4242u32.to_le_bytes()); // pid
    put(&dev.to_le_bytes());
    put(&cpu.to_le_bytes());
    put(&0u16.to_le_bytes()); // error
    put(&(pdu.len() as u16).to_le_bytes());
    r.extend(pdu);
    r
}

// Actions: the category bits (<< 16) with the action number, as the kernel writes them.
const TC_READ: u32 = 1 << 16;
const TC_WRITE: u32 = 2 << 16;
const QUEUE: u32 = (1 << 4 << 16) | 1;
const ISSUE: u32 = (1 << 6 << 16) | 7;
const COMPLETE: u32 = (1 << 7 << 16) | 8;
const NOTIFY_PROCESS: u32 = 1 << 10 << 16;

/// A request's queue, issue and complete records: queued at `t`, issued 500 ns later,
/// completed `lat_ns` after its issue.
fn blk_request(big: bool, cpu: u32, t: u64, sector: u64, bytes: u32, rw: u32, lat_ns: u64) -> Vec<u8> {
    blk_request_on(7 << 20, big, cpu, t, sector, bytes, rw, lat_ns)
}

#[allow(clippy::too_many_arguments)]
fn blk_request_on(dev: u32, big: bool, cpu: u32, t: u64, sector: u64, bytes: u32, rw: u32, lat_ns: u64) -> Vec<u8> {
    [
        blk_record_on(dev, big, t, sector, bytes, QUEUE | rw, cpu, &[]),
        blk_record_on(dev, big, t + 500, sector, bytes, ISSUE | rw, cpu, &[]),
        blk_record_on(dev, big, t + 500 + lat_ns, sector, bytes, COMPLETE | rw, cpu, &[]),
    ]
    .concat()
}

#[test]
fn blktrace_per_cpu_files_in_both_byte_orders_are_replayed_with_the_captures_latency() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("disk.img"), vec![0u8; 1 << 20]).unwrap();
    // CPU 0 captured little-endian, CPU 1 big-endian; their requests interleave in time, and a
    // process notify with its 16-byte name is passed over.
    let cpu0 = [
        blk_record(false, 10, 0, 0, NOTIFY_PROCESS, 0, b"fio\0\0\0\0\0\0\0\0\0\0\0\0\0"),
        blk_request(false, 0, 1_000, 8, 4096, TC_READ, 102_400),
        blk_request(false, 0, 3_000_000, 16, 4096, TC_READ, 204_800),
    ]
    .concat();
    let cpu1 = [
        blk_request(true, 1, 2_000_000, 64, 8192, TC_WRITE, 307_200),
        blk_request(true, 1, 4_000_000, 128, 4096, TC_WRITE, 409_600),
    ]
    .concat();
    std::fs::write(d.join("loop0.blktrace.0"), &cpu0).unwrap();
    std::fs::write(d.join("loop0.blktrace.1"), &cpu1).unwrap();
    let want = ["read,4096,4096", "write,32768,8192", "read,8192,4096", "write,65536,4096"];
    // The common prefix, the list fio's read_iolog takes, and blkparse's device name read the same.
    for trace in ["loop0.blktrace", "loop0.blktrace.0:loop0.blktrace.1", "loop0"] {
        let (code, v, err) = replay(d, &[trace, "disk.img", "--buffered", "--allow-write", "--trace", "out.csv"]);
        assert_eq!(code, 0, "{trace}: {err}");
        assert_eq!(csv_ios(&std::fs::read_to_string(d.join("out.csv")).unwrap()), want, "{trace}");
        let r = &test0(&v)["replay"];
        assert_eq!(r["format"], "blktrace");
        assert_eq!(u(&r["issued"]), 4);
        // The queue times: 1 µs, 2 ms, 3 ms, 4 ms → 3.999 ms after the first.
        assert_eq!(f(&r["span_ms"]), 3.999);
        // Issue → complete: 102.4, 204.8, 307.2 and 409.6 µs; the histogram keeps 3 digits.
        let c = &r["capture_us"];
        assert_eq!(f(&c["min"]), 102.4);
        assert_eq!(f(&c["max"]), 409.6);
        assert_eq!(f(&c["mean"]), 256.0);
        let p50 = f(&c["percentiles"]["50"]);
        assert!((204.8..=205.0).contains(&p50), "capture p50 {p50} µs");
        assert_eq!(f(&c["percentiles"]["99"]), 409.6);
    }
    // One per-CPU file alone is its own capture.
    let (code, v, err) =
        replay(d, &["loop0.blktrace.1", "disk.img", "--buffered", "--allow-write", "--trace", "one.csv"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(csv_ios(&std::fs::read_to_string(d.join("one.csv")).unwrap()), ["write,32768,8192", "write,65536,4096"]);
    assert_eq!(f(&test0(&v)["replay"]["capture_us"]["max"]), 409.6);
    // The text report sets the capture's latency beside the replay's.
    let out =
        bin().current_dir(d).args(["replay", "loop0", "disk.img", "--buffered", "--allow-write"]).output().unwrap();
    let (code, text, err) = parts(&out);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("latency: capture p50 205 µs, p99 410 µs; replay p50 "), "{text}");
    assert!(!text.contains("fell behind"), "{text}");
}

#[test]
fn a_bad_blktrace_record_is_one_line_naming_file_and_byte() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("disk.img"), vec![0u8; 65536]).unwrap();
    let good = blk_request(false, 0, 1_000, 8, 4096, TC_READ, 1000);
    let check = |name: &str, data: Vec<u8>, want: &str| {
        std::fs::write(d.join(name), data).unwrap();
        let (code, _, err) = replay(d, &[name, "disk.img", "--allow-write", "--trace", "t.csv"]);
        assert_eq!((code, err.as_str()), (2, want), "{name}");
        assert!(!d.join("t.csv").exists());
    };
    check(
        "short.0",
        [&good[..], &[0u8; 20]].concat(),
        "error: short.0: byte 144: expected a 48-byte record; the file ends 20 bytes on\n",
    );
    let mut pdu = blk_record(true, 5, 0, 0, NOTIFY_PROCESS, 0, &[0; 8]);
    pdu.truncate(52);
    check(
        "pdu.0",
        pdu,
        "error: pdu.0: byte 0: expected a payload of at most 4 bytes (what the file holds), found pdu_len 8\n",
    );
    let mut magic = good.clone();
    magic[96] = 0x06;
    check("version.0", magic, "error: version.0: byte 96: expected blk_io_trace version 7, found 6\n");
    let mut other = good.clone();
    other[48..52].copy_from_slice(b"fio ");
    check("magic.0", other, "error: magic.0: byte 48: expected a record's magic 0x65617400, found 0x206f6966\n");
    assert_eq!(std::fs::read(d.join("disk.img")).unwrap(), vec![0u8; 65536]);
}

/// A capture of three requests on device `dev` (two 4 KiB reads, one 8 KiB write between them),
/// written as DIR/NAME.blktrace.0.
fn three_requests(dir: &Path, name: &str, dev: u32) {
    let cpu0 = [
        blk_request_on(dev, false, 0, 1_000, 8, 4096, TC_READ, 100_000),
        blk_request_on(dev, false, 0, 2_000_000, 64, 8192, TC_WRITE, 200_000),
        blk_request_on(dev, false, 0, 3_000_000, 16, 4096, TC_READ, 300_000),
    ]
    .concat();
    std::fs::write(dir.join(format!("{name}.blktrace.0")), cpu0).unwrap();
}

#[test]
fn a_blktrace_capture_with_no_target_replays_on_its_own_device_as_fio_does() {
    let privileged = Privileged::new();
    if privileged.need("root (loop devices)", root()).is_none()
        || privileged.need("losetup (util-linux)", program("losetup")).is_none()
    {
        return;
    }
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let d = dir.path();
    let img = d.join("disk.img");
    std::fs::write(&img, vec![0u8; 1 << 20]).unwrap();
    let out = std::process::Command::new("losetup").args(["-f", "--show"]).arg(&img).output().unwrap();
    assert!(out.status.success(), "losetup: {}", String::from_utf8_lossy(&out.stderr));
    let dev = String::from_utf8_lossy(&out.stdout).trim().to_string();
    struct Detach(String);
    impl Drop for Detach {
        fn drop(&mut self) {
            let _ = std::process::Command::new("losetup").args(["-d", &self.0]).status();
        }
    }
    let _detach = Detach(dev.clone());
    let sys = format!("/sys/block/{}/dev", dev.trim_start_matches("/dev/"));
    let majmin = std::fs::read_to_string(&sys).unwrap();
    let (major, minor) = majmin.trim().split_once(':').unwrap();
    let number: u32 = major.parse::<u32>().unwrap() << 20 | minor.parse::<u32>().unwrap();
    three_requests(d, "cap", number);

    // The capture's device is a block device: writing to it takes --force-device, as any device.
    let (code, _, err) = replay(d, &["cap.blktrace", "--no-stall", "--trace", "out.csv"]);
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            format!("error: {dev}: is a block device; writing to it destroys its data and needs --force-device\n")
                .as_str()
        )
    );
    assert!(!d.join("out.csv").exists());
    assert_eq!(std::fs::read(&img).unwrap(), vec![0u8; 1 << 20]);

    let (code, v, err) = replay(d, &["cap.blktrace", "--no-stall", "--force-device", "--trace", "out.csv"]);
    assert_eq!(code, 0, "{err}");
    let csv = std::fs::read_to_string(d.join("out.csv")).unwrap();
    assert_eq!(
        csv.lines().skip(1).map(|l| l.split_once(',').unwrap().1).collect::<Vec<_>>(),
        ["0,read,4096,4096", "0,write,32768,8192", "0,read,8192,4096"]
    );
    let t = test0(&v);
    assert_eq!(counts(t), [2, 8192, 1, 8192]);
    // The spec keeps the capture's name for the device; the target is its node.
    assert_eq!(t["spec"]["targets"][0], format!("dev {major},{minor}"));
    assert_eq!(v["host"]["targets"][0]["path"], dev.as_str(), "{}", v["host"]);
    assert_eq!(v["host"]["targets"][0]["kind"], "block_device");
    // The write went through the device to the file under it, and nowhere else.
    let data = std::fs::read(&img).unwrap();
    assert!(data[32768..40960].iter().any(|b| *b != 0), "the replayed write is not on {dev}");
    assert!(data[..32768].iter().chain(&data[40960..]).all(|b| *b == 0));

    // fio's read_iolog of the capture does the same.
    std::fs::write(d.join("re.fio"), "[re]\nread_iolog=cap.blktrace\nreplay_no_stall=1\n").unwrap();
    let out = bin().current_dir(d).args(["fio", "re.fio", "--output-format=json", "--force-device"]).output().unwrap();
    let (code, stdout, err) = parts(&out);
    assert_eq!(code, 0, "{err}");
    let j = &serde_json::from_str::<Value>(&stdout).unwrap()["jobs"][0];
    assert_eq!(
        [&j["read"]["total_ios"], &j["read"]["io_bytes"], &j["write"]["total_ios"], &j["write"]["io_bytes"]].map(u),
        [2, 8192, 1, 8192]
    );
}

#[test]
fn a_blktrace_device_with_no_node_under_dev_is_one_line_naming_its_number() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Major 4095, minor 2^20 - 1: the largest numbers a capture can hold, which no driver takes.
    three_requests(d, "ghost", 4095 << 20 | 0xf_ffff);
    let (code, _, err) = replay(d, &["ghost.blktrace", "--buffered", "--trace", "out.csv"]);
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "error: ghost.blktrace: no block device under /dev is the capture's device 4095,1048575; give a TARGET or --redirect\n"
        )
    );
    std::fs::write(d.join("re.fio"), "[re]\nread_iolog=ghost.blktrace\n").unwrap();
    let out = bin().current_dir(d).args(["fio", "re.fio"]).output().unwrap();
    let (code, _, err) = parts(&out);
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "error: ghost.blktrace: no block device under /dev is the capture's device 4095,1048575; set replay_redirect\n"
        )
    );
    let mut names = entries(d);
    names.sort();
    assert_eq!(names, ["ghost.blktrace.0", "re.fio"]);
}

//! fio's rw=trim and randtrim through job files: each trim frees its range (a hole punched in
//! the file), counted as a trim in iolens' result and in fio's JSON layout, and guarded like a
//! write.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// Runs `iolens fio` on `job` in `dir`: (exit code, stdout, stderr).
fn fio(dir: &Path, job: &str, extra: &[&str]) -> (i32, String, String) {
    std::fs::write(dir.join("job.fio"), job).unwrap();
    let out =
        bin().current_dir(dir).args(["fio", "--quiet", "--no-store"]).args(extra).arg("job.fio").output().unwrap();
    parts(&out)
}

/// The holes of `path` as [start, end) byte ranges, from the file system's own map
/// (SEEK_HOLE / SEEK_DATA); the file's blocks count can include extent-tree blocks instead.
fn holes(path: &Path) -> Vec<(u64, u64)> {
    use std::os::fd::AsRawFd;
    let f = std::fs::File::open(path).unwrap();
    let len = f.metadata().unwrap().len() as i64;
    let (mut out, mut at) = (Vec::new(), 0i64);
    while at < len {
        let hole = unsafe { libc::lseek(f.as_raw_fd(), at, libc::SEEK_HOLE) };
        if hole < 0 || hole >= len {
            break;
        }
        let data = unsafe { libc::lseek(f.as_raw_fd(), hole, libc::SEEK_DATA) };
        let end = if data < 0 { len } else { data };
        out.push((hole as u64, end as u64));
        at = end;
    }
    out
}

/// Adjacent [start, end) ranges of `offsets` × `len`, joined.
fn ranges(offsets: &BTreeSet<u64>, len: u64) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for &o in offsets {
        match out.last_mut() {
            Some(last) if last.1 == o => last.1 = o + len,
            _ => out.push((o, o + len)),
        }
    }
    out
}

/// A test directory on a disk file system (tmpfs may keep a punched page).
fn dir() -> tempfile::TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap()
}

#[test]
fn sequential_trims_free_exactly_the_trimmed_range_on_both_engines() {
    for engine in ["io_uring", "psync"] {
        let d = dir();
        let job =
            format!("[t]\nfilename=tfile\nsize=16m\nrw=trim\nbs=64k\nnumber_ios=64\nioengine={engine}\ndirect=1\n");
        let (code, out, err) = fio(d.path(), &job, &["--keep", "--format", "json"]);
        assert_eq!(code, 0, "{engine}: {err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let t = test0(&v);
        assert_eq!((u(&t["trim"]["ios"]), u(&t["trim"]["bytes"])), (64, 4 << 20), "{engine}: {t}");
        assert_eq!((u(&t["write"]["ios"]), u(&t["read"]["ios"]), u(&t["total"]["ios"])), (0, 0, 64));
        assert_eq!((&t["spec"]["trim"], &t["spec"]["pattern"]), (&Value::Bool(true), &Value::from("sequential")));
        // The file was laid out whole (16 MiB), and the first 4 MiB are its one hole now.
        let file = d.path().join("tfile");
        assert_eq!(holes(&file), [(0, 4 << 20)], "{engine}");
        std::fs::remove_file(&file).unwrap();
        // fio's own layout carries them in its trim block.
        let (code, out, err) = fio(d.path(), &job, &["--output-format=json"]);
        assert_eq!(code, 0, "{engine}: {err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let trim = &v["jobs"][0]["trim"];
        assert_eq!((u(&trim["total_ios"]), u(&trim["io_bytes"])), (64, 4 << 20), "{trim}");
        assert!(f(&trim["clat_ns"]["mean"]) > 0.0, "{trim}");
        assert_eq!(u(&v["jobs"][0]["write"]["total_ios"]), 0);
    }
}

#[test]
fn random_trims_punch_a_hole_at_every_traced_offset_and_nowhere_else() {
    let d = dir();
    let job =
        "[r]\nfilename=rfile\nsize=8m\nrw=randtrim\nbs=32k\nnumber_ios=100\nioengine=libaio\niodepth=4\ndirect=1\n";
    let (code, out, err) = fio(d.path(), job, &["--keep", "--format", "json", "--trace", "trace.csv"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(u(&test0(&v)["trim"]["ios"]), 100);
    let trace = std::fs::read_to_string(d.path().join("trace.csv")).unwrap();
    let rows: Vec<Vec<&str>> = trace.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 100);
    assert!(rows.iter().all(|r| r[2] == "trim" && r[4] == "32768"), "{trace}");
    let offsets: BTreeSet<u64> = rows.iter().map(|r| r[3].parse().unwrap()).collect();
    assert!(offsets.iter().all(|o| o % 32768 == 0 && *o < 8 << 20));
    // The file's holes are exactly the trimmed blocks, repeated offsets freeing nothing more.
    assert!(offsets.len() > 50, "{offsets:?}");
    assert_eq!(holes(&d.path().join("rfile")), ranges(&offsets, 32768));
}

/// rw=trimwrite on a file: each block is punched, then written back, so the file ends with
/// no hole, and the result counts the trims as trims and the writes as writes.
#[test]
fn trimwrite_punches_then_writes_each_block_back_on_both_engines() {
    for engine in ["io_uring", "psync"] {
        let d = dir();
        let job = format!("[t]\nfilename=twfile\nsize=1m\nrw=trimwrite\nbs=64k\nioengine={engine}\niodepth=4\n");
        let (code, out, err) = fio(d.path(), &job, &["--keep", "--format", "json", "--trace", "trace.csv"]);
        assert_eq!(code, 0, "{engine}: {err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let t = test0(&v);
        assert_eq!((u(&t["trim"]["ios"]), u(&t["trim"]["bytes"])), (16, 1 << 20), "{engine}: {t}");
        assert_eq!((u(&t["write"]["ios"]), u(&t["write"]["bytes"])), (16, 1 << 20), "{engine}: {t}");
        assert!(holes(&d.path().join("twfile")).is_empty(), "{engine}: every trimmed block written back");
        let trace = std::fs::read_to_string(d.path().join("trace.csv")).unwrap();
        let rows: Vec<Vec<&str>> = trace.lines().skip(1).map(|l| l.split(',').collect()).collect();
        let want: Vec<(&str, u64)> = (0..16u64).flat_map(|k| [("trim", k * 65536), ("write", k * 65536)]).collect();
        let got: Vec<(&str, u64)> = rows.iter().map(|r| (r[2], r[3].parse().unwrap())).collect();
        assert_eq!(got, want, "{engine}: {trace}");
    }
}

#[test]
fn trims_are_guarded_like_writes_and_what_iolens_cannot_do_is_named() {
    let d = dir();
    let file = d.path().join("theirs");
    std::fs::write(&file, vec![7u8; 1 << 20]).unwrap();
    let job = |rw: &str| format!("[g]\nfilename=theirs\nsize=1m\nrw={rw}\nbs=4k\nnumber_ios=10\n");
    let (code, _, err) = fio(d.path(), &job("randtrim"), &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("writing to it needs --allow-write"), "{err}");
    assert!(holes(&file).is_empty(), "nothing freed");
    let (code, _, err) = fio(d.path(), &job("trimwrite"), &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("writing to it needs --allow-write"), "{err}");
    assert!(holes(&file).is_empty(), "nothing freed");
    let (code, _, err) = fio(d.path(), &format!("{}verify=crc32c\n", job("trim")), &["--allow-write"]);
    assert_eq!(code, 2);
    assert!(err.contains("trims leave no data to check"), "{err}");
    assert!(holes(&file).is_empty(), "nothing freed");
    // With --allow-write the file's first 40 KiB are freed, and the file itself is kept.
    let (code, _, err) = fio(d.path(), &job("trim"), &["--allow-write"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(holes(&file), [(0, 40 * 1024)]);
}

/// On a block device (a loop device, `--force-device`) a trim unmaps the range: the loop
/// device's backing file gets the hole.
#[test]
fn trims_on_a_loop_device_punch_its_backing_file() {
    let privileged = Privileged::new();
    if privileged.need("root (loop devices)", root()).is_none()
        || privileged.need("losetup (util-linux)", program("losetup")).is_none()
    {
        return;
    }
    let d = dir();
    let img = d.path().join("disk.img");
    let mut data = vec![0u8; 16 << 20];
    for (i, b) in data.iter_mut().enumerate() {
        *b = (i % 251) as u8 + 1;
    }
    std::fs::write(&img, &data).unwrap();
    let out = std::process::Command::new("losetup").args(["-f", "--show"]).arg(&img).output().unwrap();
    assert!(out.status.success(), "losetup: {}", String::from_utf8_lossy(&out.stderr));
    let dev = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let job =
        format!("[d]\nfilename={dev}\nsize=8m\noffset=2m\nrw=trim\nbs=1m\nnumber_ios=3\nioengine=io_uring\ndirect=1\n");
    let (code, out, err) = fio(d.path(), &job, &["--format", "json"]);
    let (code2, _, err2) = fio(d.path(), &job, &["--force-device", "--format", "json"]);
    let _ = std::process::Command::new("losetup").args(["-d", &dev]).status();
    assert_eq!(code, 2, "a device needs --force-device: {out}");
    assert!(err.contains("--force-device"), "{err}");
    assert_eq!(code2, 0, "{err2}");
    assert_eq!(holes(&img), [(2 << 20, 5 << 20)]);
}

/// A replayed log's trims are trims: fio's JSON carries them in its trim block and iolens'
/// result in its trim figures, apart from the log's writes; each freed its range.
#[test]
fn a_replayed_logs_trims_are_counted_as_trims_not_writes() {
    let d = dir();
    let file = d.path().join("r.dat");
    std::fs::write(&file, vec![7u8; 1 << 20]).unwrap();
    let log = "fio version 2 iolog\nr.dat add\nr.dat open\nr.dat trim 0 65536\nr.dat write 131072 4096\n\
               r.dat trim 65536 65536\nr.dat close\n";
    std::fs::write(d.path().join("t.log"), log).unwrap();
    let job = "[t]\nread_iolog=t.log\n";
    let (code, out, err) = fio(d.path(), job, &["--allow-write", "--output-format=json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let j = &v["jobs"][0];
    let count = |dir: &str| (u(&j[dir]["total_ios"]), u(&j[dir]["io_bytes"]));
    assert_eq!([count("read"), count("write"), count("trim")], [(0, 0), (1, 4096), (2, 128 << 10)], "{j}");
    assert_eq!(holes(&file), [(0, 128 << 10)]);
    let (code, out, err) = fio(d.path(), job, &["--allow-write", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let t = test0(&v);
    let count = |dir: &str| (u(&t[dir]["ios"]), u(&t[dir]["bytes"]));
    assert_eq!([count("write"), count("trim"), (u(&t["total"]["ios"]), 0)], [(1, 4096), (2, 128 << 10), (3, 0)], "{t}");
}

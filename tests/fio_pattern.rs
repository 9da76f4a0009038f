//! fio's verify=pattern: blocks hold verify_pattern and nothing else, so a pattern one job (or
//! fio itself) wrote is checked byte for byte by another, and the first byte off the pattern is
//! reported in fio's words (fio's t0027: a buffer_pattern from a file, read back with
//! verify=pattern).
#![cfg(unix)]

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

/// `TOOL ARGS --output-format=json` in `dir`: (exit code, the jobs, stderr).
fn run(tool: &[&str], dir: &Path, args: &[&str]) -> (i32, Vec<Value>, String) {
    let out = std::process::Command::new(tool[0])
        .args(&tool[1..])
        .args(args)
        .arg("--output-format=json")
        .current_dir(dir)
        .output()
        .unwrap();
    let (code, stdout, stderr) = parts(&out);
    let json = &stdout[stdout.find('{').unwrap_or(0)..];
    let v: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{tool:?}: not JSON ({e}): {stdout} {stderr}"));
    (code, v["jobs"].as_array().unwrap().clone(), stderr)
}

const IOLENS: [&str; 3] = [env!("CARGO_BIN_EXE_iolens"), "fio", "--no-store"];

#[test]
fn a_pattern_file_written_by_one_job_is_checked_by_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 16 KiB of varied bytes: longer than fio 3.33's 512-byte patterns, as later fios allow.
    let pattern: Vec<u8> = (0..16384u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    std::fs::write(d.join("t0027.pattern"), &pattern).unwrap();
    let job = "[global]\nfilename=t0027file\nsize=16k\nbs=16k\n\n[write_job]\nreadwrite=write\n\
               buffer_pattern='t0027.pattern'\n\n[read_job]\nstonewall=1\nreadwrite=read\nverify=pattern\n\
               verify_pattern='t0027.pattern'\n";
    std::fs::write(d.join("t0027.fio"), job).unwrap();
    let (code, jobs, err) = run(&IOLENS, d, &["t0027.fio"]);
    assert_eq!(code, 0, "{err}");
    let got: Vec<_> =
        jobs.iter().map(|j| (u(&j["error"]), u(&j["read"]["io_bytes"]), u(&j["write"]["io_bytes"]))).collect();
    assert_eq!(got, [(0, 0, 16384), (0, 16384, 0)]);
    assert_eq!(std::fs::read(d.join("t0027file")).unwrap(), pattern, "the file is the pattern");
    // One byte off: fio's three lines name it, the job's error is EILSEQ and the exit 1.
    let mut bad = pattern.clone();
    bad[100] ^= 0x0f;
    std::fs::write(d.join("t0027file"), &bad).unwrap();
    let read = ["--name=r", "--filename=t0027file", "--size=16k", "--bs=16k", "--rw=read", "--verify=pattern"];
    let (code, jobs, err) = run(&IOLENS, d, &[&read[..], &["--verify_pattern='t0027.pattern'"]].concat());
    assert_eq!((code, u(&jobs[0]["error"])), (1, 84), "{err}");
    let lines: Vec<&str> = err.lines().take(3).collect();
    assert_eq!(
        lines,
        [
            format!("fio: got pattern '{:02x}', wanted '{:02x}'. Bad bits 4", bad[100], pattern[100]).as_str(),
            "fio: bad pattern block offset 100",
            "pattern: verify failed at file t0027file offset 0, length 16384 (requested block: offset=0, length=16384, flags=0)",
        ]
    );
    assert_eq!(std::fs::read(d.join("t0027file")).unwrap(), bad, "a checking job wrote");
    let no_pattern = ["fio", "--no-store", "--name=r", "--filename=t0027file", "--size=16k", "--verify=pattern"];
    let (code, _, err) = parts(&bin().current_dir(d).args(no_pattern).output().unwrap());
    assert_eq!(
        (code, err.trim()),
        (2, "error: [r]: verify=pattern: needs verify_pattern (the bytes to write and check)")
    );
}

/// A pattern with the block's offset in it (%o), written by one tool and checked by the other.
#[test]
fn fio_and_iolens_read_each_others_patterns() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let common = ["--filename=pf", "--size=64k", "--bs=4k", "--verify=pattern", "--verify_pattern=0xdead%o\"x\""];
    let write = [&common[..], &["--name=w", "--rw=randwrite", "--do_verify=1"]].concat();
    let read = [&common[..], &["--name=r", "--rw=read"]].concat();
    let (code, jobs, err) = run(&IOLENS, d, &write);
    assert_eq!((code, u(&jobs[0]["error"]), u(&jobs[0]["write"]["io_bytes"])), (0, 0, 65536), "{err}");
    let data = std::fs::read(d.join("pf")).unwrap();
    // Block 3 at 12288: 0xdead, then 12288 as 8 little-endian bytes, then "x", again and again.
    assert_eq!(&data[12288..12299], &[0xde, 0xad, 0x00, 0x30, 0, 0, 0, 0, 0, 0, b'x']);
    assert_eq!(&data[12299..12301], &[0xde, 0xad]);
    let p = Privileged::new();
    if p.need("fio (the side-by-side check)", program("fio")).is_none() {
        return;
    }
    let (code, jobs, err) = run(&["fio"], d, &read);
    assert_eq!((code, u(&jobs[0]["error"]), u(&jobs[0]["read"]["io_bytes"])), (0, 0, 65536), "fio: {err}");
    std::fs::remove_file(d.join("pf")).unwrap();
    let (code, _, err) = run(&["fio"], d, &write);
    assert_eq!(code, 0, "fio: {err}");
    let (code, jobs, err) = run(&IOLENS, d, &read);
    assert_eq!((code, u(&jobs[0]["error"]), u(&jobs[0]["read"]["io_bytes"])), (0, 0, 65536), "{err}");
}

//! fio's verification as fio's own tests expect it: a verify_only run reads back what a
//! verifying write job left and writes nothing; a damaged block makes the job's error fio's
//! EILSEQ (84), with fio's `verify:` lines on stderr and its dumps on request; the state a
//! write job saves bounds a later verify_only run; the backlog is read back in batches.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

/// `iolens fio ARGS --output-format=json` in `dir`: (exit code, first job, stderr).
fn fio(dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = bin().current_dir(dir).arg("fio").args(args).arg("--output-format=json").output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout} {stderr}"));
    (code, v["jobs"][0].clone(), stderr)
}

/// A 64 KiB file `f` of 16 4 KiB blocks, written by a verifying random-write job.
const JOB: [&str; 6] = ["--name=w", "--filename=f", "--size=64k", "--bs=4k", "--rw=randwrite", "--verify=crc32c"];

fn written(dir: &Path) -> Vec<u8> {
    let (code, j, err) = fio(dir, &JOB);
    assert_eq!((code, u(&j["error"])), (0, 0), "{err}");
    assert_eq!(u(&j["write"]["io_bytes"]), 65536);
    std::fs::read(dir.join("f")).unwrap()
}

fn only(dir: &Path, more: &[&str]) -> (i32, Value, String) {
    fio(dir, &[&JOB[..], &["--verify_only=1"], more].concat())
}

#[test]
fn verify_only_and_a_read_job_check_what_the_writes_left_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let before = written(dir.path());
    let (code, j, err) = only(dir.path(), &[]);
    assert_eq!((code, u(&j["error"])), (0, 0), "{err}");
    assert_eq!(u(&j["read"]["io_bytes"]), 65536, "every block read back");
    // fio walks the writes without issuing them, and counts them in no time.
    assert_eq!((u(&j["write"]["total_ios"]), u(&j["write"]["runtime"]), u(&j["write"]["bw"])), (16, 0, 0));
    let read = ["--name=r", "--filename=f", "--size=64k", "--bs=4k", "--rw=randread", "--verify=md5"];
    let (code, j, err) = fio(dir.path(), &read);
    assert_eq!(
        (code, u(&j["error"]), u(&j["read"]["io_bytes"]), u(&j["write"]["io_bytes"])),
        (0, 0, 65536, 0),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.path().join("f")).unwrap(), before, "a checking job wrote");
}

#[test]
fn a_damaged_block_is_fios_eilseq_with_fios_words() {
    let dir = tempfile::tempdir().unwrap();
    let mut data = written(dir.path());
    // Four bytes inside the block at 12 KiB (a checksum error), the block at 40 KiB wholly
    // overwritten (no stamp at all).
    data[12288 + 1000..12288 + 1004].copy_from_slice(&[1, 2, 3, 4]);
    data[40960..45056].fill(0xd2);
    std::fs::write(dir.path().join("f"), &data).unwrap();
    // continue_on_error=verify: past the first bad block to the end, both reported.
    let (code, j, err) = only(dir.path(), &["--continue_on_error=verify"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(u(&j["error"]), 84, "{err}");
    assert_eq!(u(&j["read"]["io_bytes"]), 65536, "verify reads count as reads");
    assert!(
        err.contains(
            "crc32c: verify failed at file f offset 12288, length 4096 (requested block: offset=12288, length=4096"
        ),
        "{err}"
    );
    assert!(err.contains("bad checksum"), "{err}");
    assert!(
        err.contains("verify: bad magic header d2d2d2d2, wanted 564c4f49 at file f offset 40960, length 4096"),
        "{err}"
    );
    let read = ["--name=r", "--filename=f", "--size=64k", "--bs=4k", "--rw=read", "--verify=md5"];
    let (code, j, err) = fio(dir.path(), &read);
    assert_eq!((code, u(&j["error"]), u(&j["read"]["io_bytes"])), (1, 84, 16384), "{err}");
    assert_eq!(std::fs::read(dir.path().join("f")).unwrap(), data, "nothing repaired or rewritten");
}

#[test]
fn verify_dump_writes_the_bad_block_as_received_and_as_expected() {
    let dir = tempfile::tempdir().unwrap();
    let mut data = written(dir.path());
    data[8192 + 600] ^= 0xff;
    std::fs::write(dir.path().join("f"), &data).unwrap();
    std::fs::create_dir(dir.path().join("aux")).unwrap();
    let (code, _, err) = only(dir.path(), &["--verify_dump=1", "--aux-path=aux"]);
    assert_ne!(code, 0, "{err}");
    // fio's verify interval is the block: its one header covers all 4 KiB, dumped whole.
    let got = std::fs::read(dir.path().join("aux/f.8192.received")).unwrap();
    let want = std::fs::read(dir.path().join("aux/f.8192.expected")).unwrap();
    assert_eq!(got, data[8192..12288], "received: the block as read");
    let differ: Vec<usize> = (0..4096).filter(|&i| got[i] != want[i]).collect();
    assert_eq!(differ, [600], "expected: the same block as written, the flipped byte aside");
    assert!(err.contains("received data dumped as aux/f.8192.received"), "{err}");
}

/// fio's t/numberio_overlap.py: a write job's io_size twice its size writes each block twice;
/// verify_only checks each block once, its latest write, where a mixed job checks every write.
#[test]
fn verify_only_checks_each_block_once_when_the_writes_wrapped() {
    let dir = tempfile::tempdir().unwrap();
    for rw in ["write", "randwrite"] {
        let job = ["--name=o", "--filename=f", "--bs=4k", "--size=64k", "--io_size=128k", "--verify=crc32c"];
        let (code, j, err) = fio(dir.path(), &[&job[..], &[&format!("--rw={rw}"), "--do_verify=0"]].concat());
        assert_eq!((code, u(&j["write"]["io_bytes"])), (0, 131072), "{rw}: {err}");
        let (code, j, err) = fio(dir.path(), &[&job[..], &[&format!("--rw={rw}"), "--verify_only=1"]].concat());
        assert_eq!((code, u(&j["error"]), u(&j["read"]["io_bytes"])), (0, 0, 65536), "{rw}: {err}");
        // A smaller io_size still ends the check first.
        let half = ["--name=o", "--filename=f", "--bs=4k", "--size=64k", "--io_size=16k", "--verify=crc32c"];
        let (code, j, err) = fio(dir.path(), &[&half[..], &[&format!("--rw={rw}"), "--verify_only=1"]].concat());
        assert_eq!((code, u(&j["read"]["io_bytes"])), (0, 16384), "{rw}: {err}");
    }
}

#[test]
fn the_saved_state_bounds_a_later_verify_only_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (code, _, err) =
        fio(d, &["--name=w", "--filename=f", "--size=64k", "--rw=write", "--verify=md5", "--number_ios=5"]);
    assert_eq!(code, 0, "{err}");
    let state = std::fs::read(d.join("local-w-0-verify.state")).expect("fio's state file");
    assert_eq!(u64::from_le_bytes(state[..8].try_into().unwrap()), 3, "fio 3.33's state version");
    assert_eq!(u64::from_le_bytes(state[40..48].try_into().unwrap()), 5, "writes done");
    let vo = ["--name=w", "--filename=f", "--size=64k", "--rw=write", "--verify=md5", "--verify_only=1"];
    let (code, j, err) = fio(d, &[&vo[..], &["--verify_state_load=1"]].concat());
    assert_eq!((code, u(&j["error"]), u(&j["read"]["total_ios"])), (0, 0, 5), "{err}");
    // Without the state the whole file is checked (iolens stamped it all before the writes).
    let (code, j, _) = fio(d, &vo);
    assert_eq!((code, u(&j["error"]), u(&j["read"]["total_ios"])), (0, 0, 16));
    std::fs::remove_file(d.join("local-w-0-verify.state")).unwrap();
    let args = [&vo[..], &["--verify_state_load=1"]].concat();
    let (code, _, err) = parts(&bin().current_dir(d).arg("fio").args(&args).output().unwrap());
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    assert!(err.contains("verify_state_load") && err.contains("local-w-0-verify.state"), "{err}");
}

#[test]
fn the_backlog_is_read_back_in_batches() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--name=w", "--filename=f", "--size=64k", "--rw=write", "--verify=md5", "--verify_backlog=8"];
    let (code, j, err) = fio(dir.path(), &[&args[..], &["--verify_backlog_batch=2", "--trace=t.csv"]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!((u(&j["write"]["total_ios"]), u(&j["read"]["total_ios"])), (16, 16));
    let trace = std::fs::read_to_string(dir.path().join("t.csv")).unwrap();
    let ops: String = trace.lines().skip(1).map(|l| if l.contains(",write,") { 'W' } else { 'R' }).collect();
    assert_eq!(ops, "WWWWWWWWRRWWRRWWRRWWRRWWRRRRRRRR");
}

#[test]
fn verify_options_iolens_cannot_take_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (&["--name=x", "--filename=f", "--size=64k", "--verify_only=1"][..], "verify_only: needs verify="),
        (
            &["--name=x", "--filename=f", "--size=64k", "--verify=md5", "--verify_backlog_batch=few"],
            "verify_backlog_batch",
        ),
        (&["--name=x", "--filename=f", "--size=64k", "--verify=crc99"], "'crc99' is not a verify method"),
    ] {
        let (code, out, err) = parts(&bin().current_dir(dir.path()).arg("fio").args(args).output().unwrap());
        assert_eq!((code, err.lines().count(), out.as_str()), (2, 1, ""), "{err}");
        assert!(err.contains(says), "{err}");
    }
    assert!(entries(dir.path()).is_empty(), "a refused job touched a file");
}

/// A verify_only run's exit code, job error, bytes read and verify failures on stderr.
type Outcome = (i32, u64, u64, usize);

/// Writes 1 MiB of verified 4 KiB blocks with `tool` (`fio`, or iolens through its fio
/// front end), damages the blocks at 8 KiB, 64 KiB and 196 KiB, and verifies them with
/// verify_only and `more`: (exit code, job error, bytes read, verify failures on stderr).
fn damaged_run(tool: &[&str], dir: &Path, more: &[&str]) -> Outcome {
    let base = ["--name=w", "--filename=vf", "--size=1m", "--bs=4k", "--rw=write", "--verify=crc32c"];
    let base = [&base[..], &["--verify_state_save=0", "--output-format=json"]].concat();
    let cmd = |args: &[&str]| {
        let out = std::process::Command::new(tool[0]).args(&tool[1..]).args(args).current_dir(dir).output().unwrap();
        parts(&out)
    };
    let _ = std::fs::remove_file(dir.join("vf"));
    let (code, _, err) = cmd(&[&base[..], &["--do_verify=0"]].concat());
    assert_eq!(code, 0, "{tool:?}: {err}");
    let mut data = std::fs::read(dir.join("vf")).unwrap();
    for off in [8192, 65536, 200704] {
        data[off + 100..off + 104].copy_from_slice(b"XXXX");
    }
    std::fs::write(dir.join("vf"), &data).unwrap();
    let (code, out, err) = cmd(&[&base[..], &["--verify_only=1"], more].concat());
    // fio prints the job's error line ("fio: pid=…, err=84/…") on stdout, ahead of the JSON.
    let json = &out[out.find('{').unwrap_or(0)..];
    let v: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{tool:?}: not JSON ({e}): {out} {err}"));
    let j = &v["jobs"][0];
    (code, u(&j["error"]), u(&j["read"]["io_bytes"]), err.matches("crc32c: verify failed").count())
}

#[test]
fn a_bad_block_ends_the_job_with_exit_1_unless_continue_on_error_covers_verify() {
    let dir = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_iolens");
    let iolens = [exe, "fio", "--no-store"];
    let cases: [(&[&str], Outcome); 3] = [
        // The first bad block (the third read) is the job's error: it ends there, as fio's
        // verify_fatal would, and fio exits 1.
        (&[], (1, 84, 12288, 1)),
        (&["--verify_fatal=1"], (1, 84, 12288, 1)),
        // Going on past bad blocks: all three found, the error still the job's, exit 0.
        (&["--continue_on_error=verify"], (0, 84, 1 << 20, 3)),
    ];
    for (more, want) in cases {
        assert_eq!(damaged_run(&iolens, dir.path(), more), want, "iolens {more:?}");
    }
    let p = Privileged::new();
    if p.need("fio (the side-by-side check)", program("fio")).is_none() {
        return;
    }
    for (more, want) in cases {
        assert_eq!(damaged_run(&["fio"], dir.path(), more), want, "fio {more:?}");
    }
}

/// fio's t0003: each header states the length it covers (the verify interval, the block), so
/// blocks read at another length than they were written are bad headers; fio's t0002: with
/// sizes that vary, the interval is their common divisor and any mix of them reads back clean.
#[test]
fn a_read_of_another_block_length_is_a_bad_header_length_and_mixed_sizes_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let job = ["--name=w", "--filename=f", "--size=64k", "--rw=write", "--verify=md5", "--do_verify=0"];
    let (code, _, err) = fio(dir.path(), &[&job[..], &["--bs=512"]].concat());
    assert_eq!(code, 0, "{err}");
    let read = ["--name=r", "--filename=f", "--size=64k", "--rw=read", "--verify=md5"];
    let (code, j, err) = fio(dir.path(), &[&read[..], &["--bs=4k"]].concat());
    assert_eq!((code, u(&j["error"])), (1, 84), "{err}");
    assert!(err.contains("verify: bad header length 512, wanted 4096 at file f offset 0, length 4096"), "{err}");
    let (code, _, err) = fio(dir.path(), &[&job[..], &["--bssplit=512/50:64k/50"]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, j, err) = fio(dir.path(), &[&read[..], &["--bsrange=512-64k"]].concat());
    assert_eq!((code, u(&j["error"]), u(&j["read"]["io_bytes"])), (0, 0, 65536), "{err}");
}

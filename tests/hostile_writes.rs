//! Writes that fail (a full disk, /dev/full, a store that cannot take the result): the run
//! goes on to its end, keeps what it measured wherever that can still go, and then fails with
//! one `error:` line and exit 4; nothing claims to have been saved, and a device named as an
//! output stays a device.
#![cfg(target_os = "linux")]

mod common;
use common::*;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

const FULL: &str = "No space left on device (os error 28)";

/// `iolens ARGS` in `dir` with the store `store`: (exit code, stderr).
fn iolens(dir: &Path, store: &Path, args: &[&str]) -> (i32, String) {
    let out = bin().current_dir(dir).env("IOLENS_STORE", store).args(args).output().unwrap();
    let (code, _, err) = parts(&out);
    (code, err)
}

fn dev_full_is_a_device() {
    let kind = std::fs::metadata("/dev/full").unwrap().file_type();
    assert!(kind.is_char_device(), "/dev/full was replaced");
}

/// Exit 4, and the last line of stderr is the one error, naming `what`.
fn failed_write(code: i32, err: &str, what: &str) {
    assert_eq!(code, 4, "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert_eq!(err.lines().filter(|l| l.starts_with("error:")).count(), 1, "{err}");
    assert!(last.starts_with("error: ") && last.contains(what), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

const RUN: [&str; 7] = ["run", "--engine", "null", "-d", "0.1", "--size", "1m"];

#[test]
fn a_trace_that_cannot_be_written_fails_the_run_and_the_result_is_still_saved() {
    let dir = tempfile::tempdir().unwrap();
    let (d, store) = (dir.path(), dir.path().join("s.db"));
    let (code, err) = iolens(d, &store, &[&RUN[..], &["--trace", "/dev/full", "x.dat"]].concat());
    failed_write(code, &err, &format!("--trace /dev/full: not fully written: {FULL}"));
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.starts_with(&format!("saved as result 1 in {}", store.display())), "{err}");
    let out = bin().env("IOLENS_STORE", &store).args(["show", "1", "--format", "json"]).output().unwrap();
    let (code, json, err) = parts(&out);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(test0(&v)["total"]["ios"].as_u64().unwrap() > 0, "the measurement was kept: {json}");
    dev_full_is_a_device();
}

#[test]
fn a_report_that_cannot_be_written_fails_in_every_format_and_leaves_the_device_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (d, store) = (dir.path(), dir.path().join("s.db"));
    for f in ["json", "csv", "markdown", "html", "text"] {
        let (code, err) =
            iolens(d, &store, &[&RUN[..], &["--no-store", "--out", "/dev/full", "--format", f, "x.dat"]].concat());
        failed_write(code, &err, &format!("error: writing /dev/full: {FULL}"));
        assert_eq!(err.lines().count(), 1, "{f}: {err}");
        dev_full_is_a_device();
    }
    // A symbolic link to a file keeps pointing at it.
    std::fs::write(d.join("real.json"), "old").unwrap();
    std::os::unix::fs::symlink("real.json", d.join("link.json")).unwrap();
    let (code, err) = iolens(d, &store, &[&RUN[..], &["--no-store", "--out", "link.json", "x.dat"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(d.join("link.json")).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(d.join("real.json")).unwrap().contains("\"schema_version\""));
    assert_eq!(entries(d), ["link.json", "real.json"], "no temporary file is left");
}

#[test]
fn fio_outputs_and_logs_that_cannot_be_written_fail_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let (d, store) = (dir.path(), dir.path().join("s.db"));
    let job = ["fio", "--name=j", "--ioengine=null", "--size=1m"];
    let (code, err) = iolens(d, &store, &[&job[..], &["--output=/dev/full"]].concat());
    failed_write(code, &err, &format!("error: writing /dev/full: {FULL}"));
    let (code, err) = iolens(d, &store, &[&job[..], &["--write_iolog=/dev/full"]].concat());
    failed_write(code, &err, &format!("error: write_iolog /dev/full: not fully written: {FULL}"));
    std::os::unix::fs::symlink("/dev/full", d.join("j_bw.log")).unwrap();
    let (code, err) = iolens(d, &store, &[&job[..], &["--write_bw_log=j", "--per_job_logs=0"]].concat());
    failed_write(code, &err, &format!("error: write_*_log j_bw.log: not fully written: {FULL}"));
    std::fs::remove_file(d.join("j_bw.log")).unwrap();
    std::os::unix::fs::symlink("/dev/full", d.join("agg-read_bw.log")).unwrap();
    let agg = ["--time_based", "--runtime=2.2", "--bandwidth-log", "--eta=always"];
    let (code, err) = iolens(d, &store, &[&job[..], &agg[..]].concat());
    failed_write(code, &err, &format!("error: --bandwidth-log agg-read_bw.log: not fully written: {FULL}"));
    dev_full_is_a_device();
}

#[test]
fn every_log_that_cannot_be_written_is_named_in_the_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let (d, store) = (dir.path(), dir.path().join("s.db"));
    for name in ["j_bw.log", "j_clat.log", "agg-read_bw.log", "io.log"] {
        std::os::unix::fs::symlink("/dev/full", d.join(name)).unwrap();
    }
    let job = ["fio", "--name=j", "--ioengine=null", "--size=1m", "--per_job_logs=0", "--time_based", "--runtime=2.2"];
    let logs = ["--write_bw_log=j", "--write_lat_log=j", "--write_iops_log=j", "--bandwidth-log", "--eta=always"];
    let (code, err) = iolens(d, &store, &[&job[..], &logs, &["--write_iolog=io.log"]].concat());
    let named =
        ["write_iolog io.log", "write_*_log j_clat.log", "write_*_log j_bw.log", "--bandwidth-log agg-read_bw.log"];
    let line = named.map(|n| format!("{n}: not fully written: {FULL}")).join("; ");
    failed_write(code, &err, &format!("error: {line}"));
    assert!(err.ends_with(&format!("error: {line}\n")), "{err}");
    // The logs that could be written were.
    for name in ["j_lat.log", "j_slat.log", "j_iops.log"] {
        assert!(std::fs::read_to_string(d.join(name)).unwrap().lines().count() > 0, "{name}");
    }
    dev_full_is_a_device();
}

#[test]
fn a_store_that_cannot_save_fails_the_run_after_the_report_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A store of a newer iolens opens, and refuses to take the result.
    let store = d.join("new.db");
    newer_store(&store);
    let (code, err) = iolens(d, &store, &[&RUN[..], &["--out", "r.json", "x.dat"]].concat());
    failed_write(code, &err, "error: the result was not saved in ");
    assert!(err.contains("is from a newer iolens (schema 999)"), "{err}");
    assert!(!err.contains("saved as result"), "{err}");
    assert!(std::fs::read_to_string(d.join("r.json")).unwrap().contains("\"schema_version\""));
    // A device is refused before anything runs.
    let (code, err) = iolens(d, Path::new("/dev/full"), &[&RUN[..], &["x.dat"]].concat());
    assert_eq!(
        (code, err.as_str()),
        (2, "error: --store: /dev/full: is not a regular file; name a store file, or a new one\n")
    );
    assert!(!Path::new("/dev/full-journal").exists());
    dev_full_is_a_device();
}

/// A store whose user_version says a later schema (the big-endian u32 at byte 60 of an
/// SQLite file's header).
fn newer_store(p: &Path) {
    let out = bin().env("IOLENS_STORE", p).args(RUN).arg(p.with_file_name("x.dat")).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let mut b = std::fs::read(p).unwrap();
    b[60..64].copy_from_slice(&999u32.to_be_bytes());
    std::fs::write(p, b).unwrap();
}

#[test]
fn a_full_file_system_fails_the_run_with_one_line_and_leaves_no_partial_report() {
    let p = Privileged::new();
    if p.need("root", root()).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mnt = dir.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let ok = std::process::Command::new("mount").args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"]).arg(&mnt).status();
    assert!(ok.unwrap().success(), "mounting a tmpfs");
    let _umount = Umount(mnt.clone());
    // Fill it: the first write that fails is the one that found it full.
    let fill = std::fs::write(mnt.join("fill"), vec![7u8; 1 << 20]);
    assert!(fill.is_err(), "a 256 KiB tmpfs took 1 MiB");
    let store = mnt.join("s.db");
    let (code, err) =
        iolens(dir.path(), &store, &[&RUN[..], &["--out", mnt.join("r.json").to_str().unwrap(), "x.dat"]].concat());
    failed_write(code, &err, &format!("writing {}: {FULL}", mnt.join("r.json").display()));
    assert!(err.contains(&format!("the result was not saved in {}", store.display())), "{err}");
    assert!(!err.contains("saved as result"), "{err}");
    let mut left = entries(&mnt);
    left.retain(|n| n != "fill" && !n.starts_with("s.db"));
    assert_eq!(left, Vec::<String>::new(), "no report, whole or partial");
}

struct Umount(std::path::PathBuf);

impl Drop for Umount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_stdout_that_cannot_be_written_is_one_line_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let (d, store) = (dir.path(), dir.path().join("s.db"));
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let run = |args: &[&str]| {
        let out = bin().current_dir(d).env("IOLENS_STORE", &store).args(args).stdout(full()).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, err) = run(&[&RUN[..], &["x.dat"]].concat());
    let line = format!("error: writing to stdout: {FULL}\n");
    assert_eq!(code, Some(4), "{err}");
    assert!(err.ends_with(&line) && err.starts_with("saved as result 1 in "), "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
    assert_eq!(iolens(d, &store, &[&RUN[..], &["x.dat"]].concat()).0, 0);
    for args in [&["show", "1"][..], &["export", "1", "--format", "html"], &["compare", "1", "2"]] {
        assert_eq!(run(args), (Some(4), line.clone()), "{args:?}");
    }
    // fio's --inflate-log streams its text: a stdout that fails is the same one line.
    let made = bin()
        .current_dir(d)
        .args(["fio", "--no-store", "--name=j", "--ioengine=null", "--size=1m", "--write_bw_log=j"])
        .args(["--log_store_compressed=1", "--per_job_logs=0", "--output=/dev/null"])
        .status()
        .unwrap();
    assert!(made.success() && d.join("j_bw.log.fz").is_file());
    assert_eq!(run(&["fio", "--inflate-log=j_bw.log.fz"]), (Some(4), line));
    dev_full_is_a_device();
}

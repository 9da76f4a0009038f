//! fio's own example job files, run end to end with their sizes and runtimes cut down: each
//! must run and do I/O in every direction it asks for. Needs Debian's fio-examples (or
//! $FIO_EXAMPLES); skipped with the reason elsewhere. Also fio's rate_min and
//! allow_file_create, which decide the exit code. flow.fio and enospc-pressure.fio (trims
//! racing direct writes) run among them.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn examples() -> Option<PathBuf> {
    let dir =
        std::env::var_os("FIO_EXAMPLES").map_or_else(|| "/usr/share/doc/fio/examples".into(), std::path::PathBuf::from);
    if dir.join("fio-rand-RW.fio").exists() {
        Some(dir)
    } else {
        skip(&format!("no fio examples at {} (install fio-examples or set FIO_EXAMPLES)", dir.display()));
        None
    }
}

/// The example with 16 MiB files in `dir`, a 1 s runtime and its absolute paths (devices too)
/// made into file names there.
fn shrunk(example: &Path, dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(example).unwrap();
    let mut out = String::from("[global]\nruntime=1\nsize=16m\n");
    for line in text.lines() {
        let key = line.split('=').next().unwrap_or("").trim();
        match key {
            "size" | "filesize" => out.push_str("size=16m\n"),
            "runtime" | "timeout" => out.push_str("runtime=1\n"),
            "directory" => {}
            "filename" => out.push_str(&format!("filename={}\n", line.rsplit('/').next().unwrap().trim())),
            _ => out.push_str(&format!("{line}\n")),
        }
    }
    let path = dir.join(example.file_name().unwrap());
    std::fs::write(&path, out).unwrap();
    path
}

fn fio_json(dir: &Path, args: &[&str]) -> (i32, serde_json::Value, String) {
    let out = bin().current_dir(dir).arg("fio").args(args).args(["--output-format=json", "--quiet"]).output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    (code, serde_json::from_str(&stdout).unwrap_or(serde_json::Value::Null), stderr)
}

#[test]
fn local_examples_run_cut_down() {
    let Some(ex) = examples() else { return };
    // (example, job count, directions every job must have done: r, w or rw; t: some job trimmed)
    let cases = [
        // numjobs=4 without group_reporting: an entry per clone, as fio writes it (tiobench: 4 × 4).
        ("fio-rand-RW.fio", 4, "rw"),
        ("iometer-file-access-server.fio", 1, "rw"),
        ("rand-zones.fio", 1, "r"),
        ("backwards-read.fio", 1, "r"),
        ("butterfly.fio", 2, "r"),
        ("cmdprio-bssplit.fio", 3, "rw"),
        ("tiobench-example.fio", 16, ""),
        // group_reporting: slow1, fast1 (new_group) and slow2's group (fast2 and runsnever with it).
        ("exitwhat.fio", 3, ""),
        ("waitfor.fio", 4, ""),
        ("flow.fio", 2, ""),
        ("enospc-pressure.fio", 3, "t"),
    ];
    for (name, jobs, dirs) in cases {
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let file = shrunk(&ex.join(name), dir.path());
        let (code, v, stderr) = fio_json(dir.path(), &[file.to_str().unwrap()]);
        assert_eq!(code, 0, "{name}: {stderr}");
        let list = v["jobs"].as_array().unwrap_or_else(|| panic!("{name}: no jobs; {stderr}"));
        assert_eq!(list.len(), jobs, "{name}");
        for j in list {
            let did = |d: &str| f(&j[d]["iops"]) > 0.0;
            assert!(did("read") || did("write") || did("trim"), "{name}: {} did no I/O", j["jobname"]);
            assert!(!dirs.contains('r') || did("read"), "{name}: {} did not read", j["jobname"]);
            assert!(!dirs.contains('w') || did("write"), "{name}: {} did not write", j["jobname"]);
        }
        let trimmed = list.iter().any(|j| f(&j["trim"]["iops"]) > 0.0);
        assert_eq!(trimmed, dirs.contains('t'), "{name}: trims");
        eprintln!("{name}: {} jobs ran; notes: {}", list.len(), stderr.lines().filter(|l| l.contains("note")).count());
    }
}

#[test]
fn rate_min_fails_a_job_size_pct_and_allow_file_create() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let job = dir.path().join("slow.fio");
    std::fs::write(&job, "[slow]\nfilename=data\nsize=4m\nrw=randread\nruntime=1\nrate_iops=50\nrate_iops_min=100\n")
        .unwrap();
    let (code, v, stderr) = fio_json(dir.path(), &[job.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("error: [slow]: worker 0: read rate_iops_min=100 not met, only"), "{stderr}");
    let iops = f(&v["jobs"][0]["read"]["iops"]);
    assert!(iops > 40.0 && iops < 60.0, "paced at 50 IOPS, measured {iops}");
    // Met: the same job at 200 IOPS passes.
    std::fs::write(&job, "[ok]\nfilename=data\nsize=4m\nrw=randread\nruntime=1\nrate_iops=200\nrate_iops_min=100\n")
        .unwrap();
    let (code, _, stderr) = fio_json(dir.path(), &[job.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    // size=50% of an existing 4 MiB file.
    std::fs::write(dir.path().join("whole"), vec![7u8; 4 << 20]).unwrap();
    std::fs::write(&job, "[half]\nfilename=whole\nsize=50%\nrw=randread\nruntime=1\n").unwrap();
    let out = bin().current_dir(dir.path()).args(["fio", "--format", "json", "--quiet"]).arg(&job).output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(u(&test0(&v)["spec"]["size"]), 2 << 20);
    std::fs::write(&job, "[nocreate]\nfilename=missing\nsize=4m\nallow_file_create=0\n").unwrap();
    let (code, _, stderr) = fio_json(dir.path(), &[job.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("allow_file_create=0: missing does not exist and this job may not create it"), "{stderr}");
    assert!(!dir.path().join("missing").exists());
}

#[test]
fn notes_stay_in_the_result_and_stderr_stays_quiet_as_fios() {
    let dir = tempfile::tempdir().unwrap();
    let job = dir.path().join("j.fio");
    std::fs::write(
        &job,
        "[global]\nrw=randread\nbs=4k\nsize=8m\nruntime=1\ntime_based\ncpus_allowed=1\n[a]\n[b]\ndisable_lat=1\n",
    )
    .unwrap();
    let out = bin().current_dir(dir.path()).args(["fio", "--format", "json", job.to_str().unwrap()]).output().unwrap();
    let (code, stdout, err) = parts(&out);
    assert_eq!(code, 0, "{err}");
    // A run that succeeded says nothing on stderr that is no terminal, as fio: not its notes,
    // not the store's receipt.
    assert_eq!(err, "", "stderr");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let notices = |t: usize| -> Vec<String> {
        v["tests"][t]["notices"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect()
    };
    let (a, b) = (notices(0), notices(1));
    assert!(a.contains(&"cpus_allowed=1: workers are not pinned to CPUs".to_string()), "{a:?}");
    assert!(b.contains(&"cpus_allowed=1: workers are not pinned to CPUs".to_string()), "{b:?}");
    assert!(b.contains(&"disable_lat=1: iolens still times every I/O".to_string()), "{b:?}");
    assert!(!a.iter().any(|n| n.starts_with("disable_lat")), "{a:?}");
}

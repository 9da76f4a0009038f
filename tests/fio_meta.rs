//! fio's file and directory engines through the binary, as fio's t0035 runs them: each job's
//! one operation done on its name, timed, and logged in its latency logs.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;

/// fio's t/jobs/t0035.fio.
const T0035: &str = "[global]\nsize=4k\nwrite_lat_log=log\n\n\
    [job1]\nioengine=filecreate\nfilename=t0035file1\n\n[job2]\nioengine=filestat\nfilename=t0035file2\n\n\
    [job3]\nioengine=filedelete\nfilename=t0035file3\n\n[job4]\nioengine=dircreate\nfilename=t0035dir1\n\n\
    [job5]\nioengine=dirstat\nfilename=t0035dir2\n\n[job6]\nioengine=dirdelete\nfilename=t0035dir3\n";

#[test]
fn each_engine_does_its_one_operation_and_logs_its_latency() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("t0035.fio"), T0035).unwrap();
    let out = bin().current_dir(d).args(["fio", "--no-store", "t0035.fio", "--output-format=json"]).output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!((code, stderr.as_str()), (0, ""), "fio's suite wants exit 0 and nothing on stderr");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let jobs = v["jobs"].as_array().unwrap();
    let seen: Vec<(&str, u64, u64)> = jobs
        .iter()
        .map(|j| (j["job options"]["ioengine"].as_str().unwrap(), u(&j["read"]["total_ios"]), u(&j["error"])))
        .collect();
    let engines = ["filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete"];
    assert_eq!(seen, engines.map(|e| (e, 1, 0)));
    assert!(jobs.iter().all(|j| u(&j["read"]["clat_ns"]["N"]) == 1 && u(&j["read"]["clat_ns"]["max"]) > 0));
    assert!(jobs.iter().all(|j| j.get("iolens_notices").is_none()), "nothing run differently: {jobs:?}");
    // What each left: a created empty file, the stat's file laid out, the deleted one gone
    // (laid out first), a created directory, the stat's directory made, the deleted one gone.
    assert_eq!(std::fs::metadata(d.join("t0035file1")).unwrap().len(), 0);
    assert_eq!(std::fs::metadata(d.join("t0035file2")).unwrap().len(), 4096);
    assert!(!d.join("t0035file3").exists());
    assert!(d.join("t0035dir1").is_dir() && d.join("t0035dir2").is_dir() && !d.join("t0035dir3").exists());
    // One clat log line per job: its one operation.
    for k in 1..=6 {
        let log = std::fs::read_to_string(d.join(format!("log_clat.{k}.log"))).unwrap();
        assert_eq!(log.lines().count(), 1, "job {k}: {log}");
        let lat: u64 = log.split(',').nth(1).unwrap().trim().parse().unwrap();
        assert!(lat > 0, "job {k}: {log}");
    }
}

#[test]
fn a_second_delete_finds_nothing_and_is_the_jobs_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // dirdelete twice over the same directory: the second pass finds nothing to remove.
    let job = "[j]\nioengine=dirdelete\nfilename=gone\nsize=4k\nloops=2\n";
    std::fs::write(d.join("j.fio"), job).unwrap();
    let out = bin().current_dir(d).args(["fio", "--no-store", "j.fio", "--output-format=json"]).output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_ne!(code, 0, "{stdout} {stderr}");
    assert!(stderr.contains("No such file or directory"), "{stderr}");
}

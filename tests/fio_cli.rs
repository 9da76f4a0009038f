//! fio's command line and job bounds as fio's own test suite uses them: flags that never take
//! the next option, fio's program options, jobs that end when their size is done, and a quiet
//! stderr. Each case here was a wrong answer before.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

/// `iolens fio ARGS` in `dir`: (exit code, stdout, stderr).
fn fio(dir: &Path, args: &[&str]) -> (i32, String, String) {
    parts(&bin().current_dir(dir).arg("fio").args(args).output().unwrap())
}

/// The first job of fio's JSON layout.
fn job(stdout: &str) -> Value {
    let v: Value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"));
    v["jobs"][0].clone()
}

#[test]
fn a_flag_never_takes_the_next_option() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = fio(dir.path(), &["--name=x", "--verify=md5", "--rw=write", "--size=1M", "--filename=f"]);
    assert_eq!(code, 0, "{err}");
    let args = ["--name=x", "--verify=md5", "--verify_only", "--rw=write", "--size=1M", "--filename=f"];
    let (code, out, err) = fio(dir.path(), &[&args[..], &["--output-format=json"]].concat());
    assert_eq!(code, 0, "{err}");
    let j = job(&out);
    let opts = j["job options"].clone();
    assert_eq!(opts["rw"].as_str(), Some("write"), "{opts}");
    assert!(j["write"]["io_bytes"].as_u64().unwrap() >= 1 << 20, "{}", j["write"]);
    // An option iolens does not know is refused by name, whatever follows it.
    for args in [&["--name=x", "--frobnicate", "--rw=read"][..], &["--name=x", "--frobnicate", "7"]] {
        let (code, _, err) = fio(dir.path(), args);
        assert_eq!((code, err.lines().count()), (2, 1), "{err}");
        assert!(err.contains("frobnicate"), "{err}");
    }
}

#[test]
fn a_job_without_runtime_ends_when_its_size_is_done() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = |args: &[&str], dir: &str| -> u64 {
        let (code, out, err) = fio(Path::new(dir), &[args, &["--output-format=json"]].concat());
        assert_eq!(code, 0, "{args:?}: {err}");
        let j = job(&out);
        j["read"]["io_bytes"].as_u64().unwrap() + j["write"]["io_bytes"].as_u64().unwrap()
    };
    let d = dir.path().to_str().unwrap();
    let base = ["--name=x", "--size=1M", "--filename=a"];
    assert_eq!(bytes(&[&base[..], &["--rw=read"]].concat(), d), 1 << 20);
    assert_eq!(bytes(&[&base[..], &["--rw=randread", "--loops=3"]].concat(), d), 3 << 20);
    // io_size is the job's, over its files; number_ios too.
    let two = ["--name=x", "--rw=write", "--size=4M", "--io_size=2M", "--filename=c:d"];
    assert_eq!(bytes(&two, d), 2 << 20);
    let (code, out, err) =
        fio(dir.path(), &[&base[..], &["--rw=read", "--number_ios=10", "--output-format=json"]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(job(&out)["read"]["total_ios"].as_u64(), Some(10));
}

#[test]
fn fios_program_options() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let read = ["--name=x", "--rw=read", "--size=1M", "--filename=f"];
    // --parse-only: nothing runs, nothing is made.
    let (code, out, err) = fio(d, &[&read[..], &["--parse-only"]].concat());
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert!(!d.join("f").exists());
    // --readonly refuses a job that writes, before anything is made.
    let (code, _, err) = fio(d, &["--readonly", "--name=w", "--rw=randwrite", "--size=1M", "--filename=f"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim(), "error: --readonly: job [w] writes, and --readonly allows reads only");
    assert!(!d.join("f").exists());
    // --max-jobs counts every thread of every job.
    let (code, _, err) = fio(d, &[&read[..], &["--numjobs=3", "--max-jobs=2"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--max-jobs: the jobs start 3 threads, more than 2"), "{err}");
    // --output: the report goes to the file only; a run that succeeded says nothing on stderr.
    let (code, out, err) = fio(d, &[&read[..], &["--output=r.json", "--output-format=json"]].concat());
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(job(&std::fs::read_to_string(d.join("r.json")).unwrap())["read"]["io_bytes"].as_u64(), Some(1 << 20));
    // --showcmd: the job as a command line; --version answers.
    let (code, out, _) = fio(d, &[&read[..], &["--bs=8k", "--showcmd"]].concat());
    assert_eq!((code, out.trim()), (0, "fio --name=x --rw=read --size=1M --filename=f --bs=8k"));
    let (code, out, _) = fio(d, &["--version"]);
    assert!(code == 0 && out.contains("iolens"), "{out}");
    // fio's client/server mode points at --mpi.
    let (code, _, err) = fio(d, &["--server"]);
    assert_eq!(code, 2);
    assert!(err.contains("--mpi"), "{err}");
}

/// The terse lines (fio's version 3: `3;`) in `out`, and whether the normal report (fio's, or
/// iolens' text report standing in for it) and the JSON document are there.
fn formats(out: &str) -> (Vec<Vec<String>>, bool, bool) {
    let terse: Vec<Vec<String>> =
        out.lines().filter(|l| l.starts_with("3;")).map(|l| l.split(';').map(String::from).collect()).collect();
    let normal = out.contains("x: (groupid=0") || out.contains("== x ==");
    (terse, normal, out.contains("\"jobs\""))
}

#[test]
fn append_terse_adds_fios_terse_lines_to_the_formats_chosen_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let read = ["--name=x", "--rw=read", "--size=1M", "--filename=f"];
    // (extra options, terse lines, normal report, JSON): an --output-format after
    // --append-terse chooses afresh, as in fio.
    let cases: [(&[&str], usize, bool, bool); 3] = [
        (&["--append-terse"], 1, true, false),
        (&["--output-format=json", "--append-terse"], 1, false, true),
        (&["--append-terse", "--output-format=json"], 0, false, true),
    ];
    let exe = env!("CARGO_BIN_EXE_iolens");
    let p = Privileged::new();
    let with_fio = p.need("fio (the side-by-side check)", program("fio")).is_some();
    for (more, lines, normal, json) in cases {
        let mut tools: Vec<Vec<&str>> = vec![vec![exe, "fio", "--no-store"]];
        if with_fio {
            tools.push(vec!["fio"]);
        }
        for tool in tools {
            let mut cmd = std::process::Command::new(tool[0]);
            let (code, out, err) = parts(&cmd.args(&tool[1..]).args(read).args(more).current_dir(d).output().unwrap());
            assert_eq!(code, 0, "{tool:?} {more:?}: {err}");
            let (terse, has_normal, has_json) = formats(&out);
            assert_eq!((terse.len(), has_normal, has_json), (lines, normal, json), "{tool:?} {more:?}: {out}");
            for f in terse {
                // Job name and the KiB read, fields 3 and 6 of fio's terse version 3.
                assert_eq!((f[2].as_str(), f[5].as_str()), ("x", "1024"), "{tool:?} {more:?}");
            }
        }
    }
}

#[test]
fn the_null_engine_touches_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--name=n", "--ioengine=null", "--size=100g", "--rw=randwrite", "--filename=big", "--runtime=500ms"];
    let (code, out, err) = fio(dir.path(), &[&args[..], &["--time_based", "--output-format=json"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(job(&out)["write"]["total_ios"].as_u64().unwrap() > 1000);
    assert_eq!(entries(dir.path()), Vec::<String>::new(), "no file made, none filled");
}

#[test]
fn a_read_job_with_verify_checks_the_medium_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let job = |rw: &str| ["--name=v", rw, "--verify=md5", "--size=1M", "--bs=4k", "--filename=v.dat"].map(String::from);
    let (code, _, err) = fio(d, &job("--rw=write").iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    // fio's files stay (unlink=0): a later job reads them back.
    let written = std::fs::read(d.join("v.dat")).unwrap();
    let read: Vec<String> = [&job("--rw=read")[..], &["--format".into(), "json".into()]].concat();
    let read: Vec<&str> = read.iter().map(String::as_str).collect();
    let (code, out, err) = fio(d, &read);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["tests"][0]["verify"]["pages_checked"].as_u64(), Some(256), "{}", v["tests"][0]["verify"]);
    assert_eq!(std::fs::read(d.join("v.dat")).unwrap(), written, "the read job wrote nothing");
    // Its first 64 KiB zeroed behind iolens' back: found, and still not rewritten.
    let mut zeroed = written.clone();
    zeroed[..64 << 10].fill(0);
    std::fs::write(d.join("v.dat"), &zeroed).unwrap();
    let (code, out, err) = fio(d, &[&read[..], &["--verify_fatal=1"]].concat());
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["tests"][0]["verify"]["findings"][0]["class"], "corrupt");
    assert_eq!(std::fs::read(d.join("v.dat")).unwrap(), zeroed, "the data to check is still there");
}

#[test]
fn verify_read_backs_come_on_top_of_the_job_size() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--name=v", "--rw=write", "--verify=md5", "--verify_backlog=1", "--size=1M", "--bs=4k"];
    let (code, out, err) = fio(dir.path(), &[&args[..], &["--filename=v.dat", "--output-format=json"]].concat());
    assert_eq!(code, 0, "{err}");
    let j = job(&out);
    // All of the job's 1 MiB is written, and each page read back once besides, the last ones
    // after the workload too (fio's t0005).
    assert_eq!(j["write"]["io_bytes"].as_u64(), Some(1 << 20), "{}", j["write"]);
    assert_eq!(j["read"]["io_bytes"].as_u64(), Some(1 << 20), "{}", j["read"]);
}

#[test]
fn do_verify_reads_count_as_the_jobs_reads() {
    // fio's t0025: a 128 KiB write job with do_verify reads 128 KiB back, counted as reads;
    // experimental_verify changes nothing for iolens' stamps.
    let dir = tempfile::tempdir().unwrap();
    let args = ["--name=j", "--filename=f", "--size=128k", "--readwrite=write", "--do_verify=1", "--verify=md5"];
    let (code, out, err) = fio(dir.path(), &[&args[..], &["--experimental_verify=1", "--output-format=json"]].concat());
    assert_eq!((code, err.as_str()), (0, ""));
    let j = job(&out);
    assert_eq!((j["read"]["io_kbytes"].as_u64(), j["write"]["io_kbytes"].as_u64()), (Some(128), Some(128)));
}

#[test]
fn each_job_of_a_group_keeps_its_own_runtime() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--ioengine=null",
        "--size=1g",
        "--time_based",
        "--runtime=2",
        "--name=long",
        "--name=short",
        "--runtime=500ms",
        "--output-format=json",
    ];
    let (code, out, err) = fio(dir.path(), &args);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let runtime = |k: usize| v["jobs"][k]["read"]["runtime"].as_u64().unwrap();
    assert!((1900..=2100).contains(&runtime(0)), "long ran {} ms", runtime(0));
    assert!((450..=600).contains(&runtime(1)), "short ran {} ms", runtime(1));
}

#[test]
fn steady_state_ends_a_job_once_its_window_settles() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--name=ss",
        "--ioengine=null",
        "--size=1g",
        "--rw=randread",
        "--time_based",
        "--runtime=30",
        "--ss_dur=2",
        "--ss=iops:50%",
        "--ss_ramp=1",
        "--output-format=json",
    ];
    let (code, out, err) = fio(dir.path(), &args);
    assert_eq!(code, 0, "{err}");
    let j = job(&out);
    let ss = &j["steadystate"];
    assert_eq!((ss["ss"].as_str(), ss["attained"].as_u64()), (Some("iops:50.000000%"), Some(1)), "{ss}");
    let runtime = j["read"]["runtime"].as_u64().unwrap();
    assert!((3000..29000).contains(&runtime), "ended after {runtime} ms");
    // The criterion is the window's largest deviation from its mean, in % of the mean.
    let iops: Vec<f64> = ss["data"]["iops"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert_eq!(iops.len(), 2);
    let mean = iops.iter().sum::<f64>() / 2.0;
    let dev = iops.iter().map(|x| (x - mean).abs()).fold(0.0, f64::max) * 100.0 / mean;
    let said: f64 = ss["criterion"].as_str().unwrap().trim_end_matches('%').parse().unwrap();
    assert!((said - dev).abs() < 1e-3 && said < 50.0, "criterion {said}, data say {dev}");
    // fio's parse check: the limit as read, and no job needed.
    let (code, out, _) = fio(dir.path(), &["--parse-only", "--debug=parse", "--ss_dur=10s", "--ss=bw:12"]);
    assert_eq!(code, 0);
    assert!(out.contains("set steady state BW threshold to 12"), "{out}");
}

#[test]
fn write_bw_log_with_log_offset_logs_every_io_in_fios_format() {
    let dir = tempfile::tempdir().unwrap();
    let args =
        ["--ioengine=null", "--filesize=64k", "--name=j", "--write_bw_log=t", "--log_offset=1", "--per_job_logs=0"];
    let (code, _, err) = fio(dir.path(), &args);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.path().join("t_bw.log")).unwrap();
    let rows: Vec<Vec<u64>> =
        text.lines().map(|l| l.split(", ").map(|c| c.parse().unwrap_or_else(|_| panic!("{l}"))).collect()).collect();
    // time, KiB/s, read, 4k, offset, priority: the 16 blocks of the file in order.
    assert_eq!(rows.len(), 16, "{text}");
    for (i, r) in rows.iter().enumerate() {
        assert_eq!((r.len(), r[2], r[3], r[4], r[5]), (6, 0, 4096, i as u64 * 4096, 0), "{text}");
    }
    // per_job_logs=0 appends, as fio does; per-job logs are named by fio's thread number.
    let (code, _, err) = fio(dir.path(), &[&args[..], &["--name=k", "--write_iops_log"]].concat());
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.path().join("t_bw.log")).unwrap();
    assert_eq!(text.lines().count(), 32, "{text}");
    let iops = std::fs::read_to_string(dir.path().join("k_iops.2.log")).unwrap();
    assert!(iops.lines().count() == 16 && iops.lines().all(|l| l.split(", ").nth(1) == Some("1")), "{iops}");
    let (code, _, err) = fio(dir.path(), &[&args[..], &["--log_avg_msec=-1"]].concat());
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    assert!(err.contains("log_avg_msec"), "{err}");
}

/// fio's t0023/t0024: every trim is followed by a write of the same range, issued only once
/// the trim completed (so at any depth the log alternates), and the file is covered once.
#[test]
fn trimwrite_writes_each_trimmed_range_after_its_trim() {
    for rw in ["randtrimwrite", "trimwrite"] {
        let dir = tempfile::tempdir().unwrap();
        let rw_arg = format!("--rw={rw}");
        let args = [
            "--ioengine=null",
            "--filesize=64k",
            "--name=j",
            &rw_arg,
            "--bsrange=512-4k",
            "--iodepth=4",
            "--write_bw_log=t",
            "--log_offset=1",
            "--per_job_logs=0",
            "--output-format=json",
        ];
        let (code, out, err) = fio(dir.path(), &args);
        assert_eq!(code, 0, "{err}");
        let j = job(&out);
        for (ddir, what) in [("trim", "trimmed"), ("write", "written")] {
            assert_eq!(j[ddir]["io_bytes"], 65536, "{rw}: every byte {what} once: {}", j[ddir]);
        }
        assert_eq!(j["trim"]["total_ios"], j["write"]["total_ios"], "{rw}");
        let text = std::fs::read_to_string(dir.path().join("t_bw.log")).unwrap();
        let rows: Vec<Vec<u64>> = text.lines().map(|l| l.split(", ").map(|c| c.parse().unwrap()).collect()).collect();
        let mut sectors = vec![0u32; 128];
        for pair in rows.chunks(2) {
            let [trim, write] = pair else { panic!("{rw}: a trim without its write: {text}") };
            assert_eq!((trim[2], write[2]), (2, 1), "{rw}: trim then write: {text}");
            assert_eq!((trim[3], trim[4]), (write[3], write[4]), "{rw}: same length and offset: {text}");
            for s in trim[4] / 512..(trim[4] + trim[3]) / 512 {
                sectors[s as usize] += 1;
            }
        }
        assert!(sectors.iter().all(|&n| n == 1), "{rw}: each sector trimmed once: {sectors:?}");
        let sizes: std::collections::BTreeSet<u64> = rows.iter().map(|r| r[3]).collect();
        assert!(sizes.len() > 3, "{rw}: lengths drawn from the range: {sizes:?}");
    }
}

#[test]
fn a_skipping_read_ends_at_the_files_end_and_write_iolog_lists_each_io() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--name=j", "--rw=read:512k", "--bs=1m", "--size=8m", "--filename=f", "--write_iolog=log"];
    let (code, out, err) = fio(dir.path(), &[&args[..], &["--output-format=json"]].concat());
    assert_eq!(code, 0, "{err}");
    // A 1 MiB read every 1.5 MiB: the sixth would cross the end at 9 MiB, so fio stops at five.
    assert_eq!(job(&out)["read"]["io_kbytes"], 5 * 1024);
    let log = std::fs::read_to_string(dir.path().join("log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[0], "fio version 3 iolog");
    let fields = |l: &str| l.split(' ').skip(1).map(str::to_string).collect::<Vec<_>>().join(" ");
    let rest: Vec<String> = lines[1..].iter().map(|l| fields(l)).collect();
    let reads: Vec<String> = (0..5).map(|i| format!("f read {} 1048576", i * 1536 * 1024)).collect();
    let want: Vec<String> =
        ["f add".into(), "f open".into()].into_iter().chain(reads).chain(["f close".into()]).collect();
    assert_eq!(rest, want, "{log}");
}

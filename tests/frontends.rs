//! Front ends that speak the users' language: each produces specs for the same runner and the
//! same JSON result, with one test per row as its users name it.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;

#[test]
fn cdm_runs_its_tests_and_keeps_the_best_pass() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["cdm", "--tests", "SEQ1M Q8T1,RND4K Q1T1", "--mix", "--passes", "2", "--time", "0.5"])
        .args(["--interval", "0", "--no-prepare", "--size", "64M", "--format", "json", "--quiet"])
        .arg(dir.path())
        .output()
        .unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["command"], "cdm");
    let names: Vec<&str> = v["tests"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "SEQ1M Q8T1 Read",
            "SEQ1M Q8T1 Write",
            "SEQ1M Q8T1 Mix",
            "RND4K Q1T1 Read",
            "RND4K Q1T1 Write",
            "RND4K Q1T1 Mix"
        ]
    );
    let t = &v["tests"][0];
    assert_eq!(t["spec"]["pattern"], "sequential");
    assert_eq!(t["spec"]["blocks"][0]["size"], 1 << 20);
    assert_eq!((t["spec"]["qd"].as_u64(), t["spec"]["threads"].as_u64()), (Some(8), Some(1)));
    assert_eq!(v["tests"][5]["spec"]["read_pct"], 70);
    assert_eq!(v["tests"][3]["spec"]["pattern"], "random");
    for t in v["tests"].as_array().unwrap() {
        // Two passes, and the kept one is the one with the most MB/s.
        let passes: Vec<f64> = t["notices"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|n| n.as_str()?.strip_prefix("pass ")?.split_once(": ")?.1.split(' ').next()?.parse().ok())
            .collect();
        assert_eq!(passes.len(), 2, "{}", t["notices"]);
        let best = passes.iter().cloned().fold(f64::MIN, f64::max);
        assert!(
            (f(&t["total"]["mbps"]) - best).abs() < 0.01,
            "{} kept {} of {passes:?}",
            t["name"],
            t["total"]["mbps"]
        );
    }
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn cdm_text_is_crystaldiskmarks_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["cdm", "--profile", "demo", "--passes", "1", "--time", "0.3", "--interval", "0", "--no-prepare"])
        .args(["--size", "32M", "--quiet"])
        .arg(dir.path())
        .output()
        .unwrap();
    let (code, text, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    for needle in ["MB/s               |       Read |      Write", "IOPS", "latency (mean µs)", "SEQ1M Q8T1         | "]
    {
        assert!(text.contains(needle), "missing '{needle}':\n{text}");
    }
}

#[test]
fn cdm_quick_is_one_short_pass_a_test_and_given_options_win() {
    let dir = tempfile::tempdir().unwrap();
    let json = |extra: &[&str]| {
        let out = bin()
            .args(["cdm", "--quick", "--tests", "RND4K Q1T1", "--no-prepare", "--format", "json", "--quiet"])
            .args(extra)
            .arg(dir.path())
            .output()
            .unwrap();
        let (code, stdout, stderr) = parts(&out);
        assert_eq!(code, 0, "{stderr}");
        serde_json::from_str::<serde_json::Value>(&stdout).unwrap()
    };
    let v = json(&[]);
    let t = &v["tests"][0];
    assert_eq!((t["spec"]["duration"].as_f64(), t["spec"]["size"].as_u64()), (Some(1.0), Some(256 << 20)));
    // One pass: no "pass N of M" notice, as with --passes 1.
    assert!(!t["notices"].to_string().contains("pass "), "{}", t["notices"]);
    let v = json(&["--time", "0.5", "--size", "32M"]);
    let t = &v["tests"][0];
    assert_eq!((t["spec"]["duration"].as_f64(), t["spec"]["size"].as_u64()), (Some(0.5), Some(32 << 20)));
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn cdm_bad_input_names_the_option() {
    for (args, want) in [
        (vec!["--profile", "fast"], "error: --profile: 'fast' is not a profile"),
        (vec!["--tests", "SEQ1M Q0T1"], "error: --tests: 'SEQ1M Q0T1' is not a CrystalDiskMark test"),
        (vec!["--passes", "0"], "error: --passes: '0' is not a test count; use 1-100 passes"),
        (vec!["--time", "soon"], "error: --time: 'soon' is not a time"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = bin().arg("cdm").args(&args).arg(dir.path()).output().unwrap();
        let (code, _, stderr) = parts(&out);
        assert_eq!(code, 2, "{args:?}");
        assert!(stderr.starts_with(want), "{args:?}: {stderr}");
        assert!(entries(dir.path()).is_empty());
    }
}

#[test]
fn sweep_runs_every_combination() {
    let dir = tempfile::tempdir().unwrap();
    let (code, v, err) = {
        let out = bin()
            .args([
                "sweep", "--bs", "4k,8k", "--qd", "1,4", "-d", "0.3", "--size", "16M", "--format", "json", "--quiet",
            ])
            .arg(dir.path())
            .output()
            .unwrap();
        let (code, stdout, stderr) = parts(&out);
        (code, serde_json::from_str::<serde_json::Value>(&stdout).unwrap_or_default(), stderr)
    };
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["command"], "sweep");
    let tests = v["tests"].as_array().unwrap();
    let names: Vec<&str> = tests.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["bs=4k qd=1", "bs=4k qd=4", "bs=8k qd=1", "bs=8k qd=4"]);
    for (t, (bs, qd)) in tests.iter().zip([(4096u64, 1u64), (4096, 4), (8192, 1), (8192, 4)]) {
        assert_eq!(u(&t["spec"]["blocks"][0]["size"]), bs);
        assert_eq!(u(&t["spec"]["qd"]), qd);
        assert_eq!(u(&t["total"]["bytes"]), u(&t["total"]["ios"]) * bs);
        assert!(f(&t["mean_qd"]) <= qd as f64 + 0.01);
    }
    assert!(entries(dir.path()).is_empty());
    let out = bin().args(["sweep", "--qd", "4"]).arg(dir.path()).output().unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 2);
    assert!(stderr.contains("nothing to sweep"), "{stderr}");
}

#[test]
fn sqlio_matrix_names_cells_as_dbas_do() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args([
            "sqlio",
            "--bs",
            "8k,64k",
            "--threads",
            "1,2",
            "-d",
            "0.2",
            "--size",
            "32M",
            "--format",
            "json",
            "--quiet",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let names: Vec<&str> = v["tests"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 2 * 2 * 2 * 2);
    assert_eq!(
        &names[..4],
        ["8K T1 sequential read", "8K T1 sequential write", "8K T1 random read", "8K T1 random write"]
    );
    assert_eq!(names[15], "64K T2 random write");
    let t = &v["tests"][15];
    assert_eq!((u(&t["spec"]["threads"]), u(&t["spec"]["blocks"][0]["size"])), (2, 65536));
    assert_eq!((t["spec"]["pattern"].as_str(), u(&t["spec"]["read_pct"])), (Some("random"), 0));
    assert!(u(&t["write"]["ios"]) > 0 && u(&t["read"]["ios"]) == 0);
    // The text form carries SQLIO's 1 ms histogram on request.
    let out = bin()
        .args(["sqlio", "--bs", "8k", "--threads", "1", "-d", "0.2", "--size", "16M", "--histogram", "--quiet"])
        .arg(dir.path())
        .output()
        .unwrap();
    let (code, text, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    assert!(text.contains("threads | block | pattern    | op    |        IOPS |     MB/s | min ms | avg ms | max ms"));
    assert!(text.contains(" 23 24+"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("8K T1 random read")), "{text}");
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn diskspd_runs_a_field_line_in_diskspds_layout() {
    let dir = tempfile::tempdir().unwrap();
    // The seed's line, shortened to one second on a 64 MiB file.
    let out = bin()
        .current_dir(dir.path())
        .args([
            "diskspd",
            "-t2",
            "-o32",
            "-b4k",
            "-r4k",
            "-w25",
            "-d1",
            "-W0",
            "-Sh",
            "-D",
            "-L",
            "-c64M",
            r"F:\IO.dat",
        ])
        .output()
        .unwrap();
    let (code, text, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr.lines().filter(|l| l.contains(r"F:\IO.dat is a Windows path")).count(), 1, "{stderr}");
    for needle in [
        r"Command Line: diskspd -t2 -o32 -b4k -r4k -w25 -d1 -W0 -Sh -D -L -c64M F:\IO.dat",
        "performing mix test (read/write ratio: 75/25)",
        "using random I/O (alignment: 4KiB)",
        "number of outstanding I/O operations per thread: 32",
        "hardware write cache disabled, writethrough on",
        "Total IO",
        "Read IO",
        "Write IO",
        "IO.dat (64MiB)",
        "  %-ile |  Read (ms) | Write (ms) | Total (ms)",
        "3-nines",
        "9-nines",
    ] {
        assert!(text.contains(needle), "missing '{needle}':\n{text}");
    }
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
    // The same line with --format json gives the common result.
    let out = bin()
        .current_dir(dir.path())
        .args([
            "diskspd", "--format", "json", "-t2", "-o32", "-b4k", "-r4k", "-w25", "-d1", "-W0", "-Sh", "-L", "-c64M",
        ])
        .arg(r"F:\IO.dat")
        .output()
        .unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let t = test0(&v);
    assert_eq!(v["command"], "diskspd");
    assert_eq!((u(&t["spec"]["threads"]), u(&t["spec"]["qd"]), u(&t["spec"]["read_pct"])), (2, 32, 75));
    assert_eq!((t["spec"]["direct"].as_bool(), t["spec"]["write_through"].as_bool()), (Some(true), Some(true)));
    let share = f(&t["read"]["ios"]) / f(&t["total"]["ios"]);
    assert!((share - 0.75).abs() < 0.03, "read share {share}");
    // An option iolens does not implement is named on one line.
    let out = bin().args(["diskspd", "-x", "-c1M", "f.dat"]).current_dir(dir.path()).output().unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // In DiskSpd's form ("ERROR: …"), naming the option as typed.
    assert!(stderr.starts_with("ERROR: ") && stderr.contains("'-x'"), "{stderr}");
    // A line DiskSpd itself refuses is refused in DiskSpd's words, before any file is made.
    let out = bin().args(["diskspd", "-w200", "-c1M", "g.dat"]).current_dir(dir.path()).output().unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 2);
    let want =
        "ERROR: write ratio passed to -w must be between 0 and 100 (percent); incorrectly provided option: '-w200'";
    assert_eq!(stderr.trim_end(), want);
    assert!(!dir.path().join("g.dat").exists());
}

#[test]
fn pattern_runs_with_its_description() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["pattern", "log", "--db", "sqlserver", "-d", "0.5", "--size", "32M", "--format", "json", "--quiet"])
        .arg(dir.path())
        .output()
        .unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let t = test0(&v);
    assert_eq!((v["command"].as_str(), t["name"].as_str()), (Some("pattern"), Some("log")));
    assert!(t["notices"][0].as_str().unwrap().starts_with("log (SQL Server): transaction log"), "{}", t["notices"]);
    assert_eq!((t["spec"]["write_through"].as_bool(), u(&t["spec"]["qd"])), (Some(true), 1));
    // Every write is one of the log's sizes: 512 B to 60 KiB.
    let ios = u(&t["write"]["ios"]);
    let mean = u(&t["write"]["bytes"]) as f64 / ios as f64;
    assert!(ios > 50 && mean > 512.0 && mean < 61440.0, "{ios} writes of mean {mean} B");
    assert!(entries(dir.path()).is_empty());
    let out = bin().args(["pattern", "nosql"]).arg(dir.path()).output().unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: PATTERN: 'nosql' is not a pattern; use oltp, log"), "{stderr}");
}

#[test]
fn fio_job_file_runs_its_groups() {
    let dir = tempfile::tempdir().unwrap();
    let job = dir.path().join("t.fio");
    std::fs::write(
        &job,
        "[global]\nioengine=io_uring\ndirect=1\nsize=16m\nruntime=500ms\ntime_based\nfilename=${IOLENS_T_FILE}\n\n\
         [seq-read]\nrw=read\nbs=64k\niodepth=4\n\n[rand-read]\nstonewall\nrw=randread\nbs=4k\niodepth=8\n\n\
         [rand-write]\nrw=randwrite\nbs=4k\niodepth=2\n",
    )
    .unwrap();
    let data = dir.path().join("data.bin");
    let out =
        bin().env("IOLENS_T_FILE", &data).args(["fio", "--format", "json", "--quiet"]).arg(&job).output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["command"], "fio");
    let tests = v["tests"].as_array().unwrap();
    let got: Vec<(&str, u64)> = tests.iter().map(|t| (t["name"].as_str().unwrap(), u(&t["group"]))).collect();
    assert_eq!(got, [("seq-read", 0), ("rand-read", 1), ("rand-write", 1)]);
    assert_eq!((u(&tests[0]["spec"]["blocks"][0]["size"]), u(&tests[0]["spec"]["qd"])), (65536, 4));
    assert_eq!(tests[0]["spec"]["pattern"], "sequential");
    assert_eq!(u(&tests[2]["spec"]["read_pct"]), 0);
    // The jobs of a group ran at the same time, each measured on its own.
    assert!(u(&tests[1]["read"]["ios"]) > 0 && u(&tests[2]["write"]["ios"]) > 0 && u(&tests[2]["read"]["ios"]) == 0);
    assert!(tests[2]["options"].as_array().unwrap().iter().any(|o| o[0] == "rw" && o[1] == "randwrite"));
    assert!(data.exists(), "as fio, the data file stays (unlink=0)");
}

#[test]
fn fio_command_line_and_fio_json() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("d.bin");
    let out = bin()
        .args(["fio", "--output-format=json", "--name=j", "--rw=randrw", "--rwmixread=70", "--bs=4k", "--iodepth=4"])
        .args(["--size=16m", "--runtime=1", "--time_based", "--direct=1", "--ioengine=io_uring"])
        .arg(format!("--filename={}", data.display()))
        .output()
        .unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let j = &v["jobs"][0];
    assert_eq!(j["jobname"], "j");
    for d in ["read", "write"] {
        assert!(f(&j[d]["iops"]) > 0.0, "{d}");
        assert!(j[d]["clat_ns"]["percentile"]["50.000000"].as_u64().unwrap() > 0);
        assert!(f(&j[d]["lat_ns"]["mean"]) > 0.0);
        assert!(u(&j[d]["io_bytes"]) == u(&j[d]["total_ios"]) * 4096);
    }
    let share = f(&j["read"]["iops"]) / (f(&j["read"]["iops"]) + f(&j["write"]["iops"]));
    assert!((share - 0.7).abs() < 0.03, "read share {share}");
    // An engine iolens does not have is named on one line.
    let out = bin()
        .args(["fio", "--name=j", "--size=1m", "--ioengine=rbd", "--clientname=admin"])
        .arg(format!("--filename={}", data.display()))
        .output()
        .unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("ioengine=rbd: iolens has no rbd engine"), "{stderr}");
    // The first job's file stays, as fio's do (unlink=0).
    assert_eq!(entries(dir.path()), ["d.bin"]);
}

//! Hostile input to the release binary: each case panicked, hung or ran out of memory before.
//! Now each ends within seconds with one line on stderr and exit 2 (or succeeds where the input
//! is fine after all), and leaves no file behind.
#![cfg(unix)]

mod common;
use common::*;
use std::path::Path;
use std::time::{Duration, Instant};

/// `iolens ARGS` in `dir`, killed if it takes more than 20 s: (exit code, stderr).
fn iolens(dir: &Path, args: &[&std::ffi::OsStr]) -> (i32, String) {
    let mut child = bin()
        .current_dir(dir)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("{args:?} still ran after 20 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn os(args: &[&str]) -> Vec<std::ffi::OsString> {
    args.iter().map(|a| a.into()).collect()
}

fn refused(dir: &Path, args: &[&str], names: &str) {
    let a = os(args);
    let (code, err) = iolens(dir, &a.iter().map(|s| s.as_os_str()).collect::<Vec<_>>());
    assert_eq!((code, err.lines().count()), (2, 1), "{args:?}: {err}");
    assert!(err.contains(names), "{args:?}: {err}");
}

/// What `dir` holds besides the files the test itself put there.
fn left(dir: &Path, own: &[&str]) -> Vec<String> {
    let names = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
    names.filter(|n| !own.contains(&n.as_str())).collect()
}

#[test]
fn times_beyond_any_run_are_refused_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    refused(d, &["explain", "--budget", "1e300", "."], "--budget: '1e300' is more than 30 days");
    refused(d, &["cdm", "--interval", "1e300", "."], "--interval");
    refused(d, &["simdb", "-d", "1e20", "."], "--duration");
    refused(d, &["run", "--engine", "null", "-d", "1e10", "x.dat"], "--duration");
    assert_eq!(left(d, &[]), Vec::<String>::new());
}

#[test]
fn special_files_are_refused_by_name_and_never_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = d.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    std::fs::write(d.join("inc.fio"), "[x]\ninclude /dev/zero\n").unwrap();
    refused(d, &["import", "/dev/zero"], "import: /dev/zero: is a character device, not a regular file");
    refused(d, &["import", "fifo"], "is a FIFO");
    refused(d, &["catalog", "--catalog", "/dev/zero"], "--catalog");
    refused(d, &["diskspd", "-X/dev/zero"], "-X");
    refused(d, &["fio", "inc.fio"], "include: /dev/zero");
    refused(d, &["import", "."], "is a directory");
    assert_eq!(left(d, &["fifo", "inc.fio"]), Vec::<String>::new());
}

#[test]
fn includes_are_bounded_in_number_however_they_nest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Ten levels of ten includes each would read 10^10 files.
    for lvl in 0..10 {
        let body = if lvl == 9 { "bs=4k\n".to_string() } else { format!("include l{}.inc\n", lvl + 1).repeat(10) };
        std::fs::write(d.join(format!("l{lvl}.inc")), body).unwrap();
    }
    std::fs::write(d.join("bomb.fio"), "[x]\nioengine=null\nsize=1m\ninclude l0.inc\n").unwrap();
    refused(d, &["fio", "--parse-only", "bomb.fio"], "more than 1000 includes");
}

#[test]
fn includes_are_bounded_in_bytes_together() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 100 includes of 64 KB each: few enough files, but 6.4 MB of option lines together, which
    // took 150 MB to hold (1,000 of them: 1.4 GB). The 66th include would pass 4 MiB.
    std::fs::write(d.join("c.inc"), "size=1m\n".repeat(8000)).unwrap();
    std::fs::write(d.join("a.fio"), format!("[j]\nioengine=null\n{}", "include c.inc\n".repeat(100))).unwrap();
    refused(
        d,
        &["fio", "--parse-only", "a.fio"],
        "a.fio:68: include: c.inc: the job file and its includes hold more than 4194304 bytes together",
    );
    // Within the bound, the same files are read.
    std::fs::write(d.join("b.fio"), format!("[j]\nioengine=null\n{}", "include c.inc\n".repeat(60))).unwrap();
    let (code, err) = iolens(d, &[std::ffi::OsStr::new("fio"), "--parse-only".as_ref(), "b.fio".as_ref()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(left(d, &["a.fio", "b.fio", "c.inc"]), Vec::<String>::new());
}

#[test]
fn a_job_named_global_in_fio_json_imports_as_a_default_test_with_a_notice() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("g.json"), r#"{"fio version":"x","jobs":[{"jobname":"global"}]}"#).unwrap();
    let store = d.join("s.db");
    let run = |args: &[&str]| parts(&bin().current_dir(d).env("IOLENS_STORE", &store).args(args).output().unwrap());
    let (code, _, err) = run(&["import", "g.json"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&["show", "1", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("names fio's section of shared options, not a job"), "{out}");
}

/// fio JSON of `n` entries of a json+ read job with one latency bin each, named `name(i)`.
fn fio_json_entries(n: usize, name: impl Fn(usize) -> String) -> String {
    let entry = |i| {
        format!(
            r#"{{"jobname":"{}","groupid":0,"error":0,"job options":{{"rw":"read"}},"read":{{"io_bytes":4096,"bw_bytes":4096,"iops":1.0,"runtime":1000,"total_ios":1,"clat_ns":{{"N":1,"min":1000,"max":1000,"mean":1000.0,"stddev":0.0,"bins":{{"1000":1}}}}}},"write":{{"io_bytes":0,"bw_bytes":0,"iops":0.0,"runtime":0,"total_ios":0}}}}"#,
            name(i)
        )
    };
    let jobs: Vec<String> = (0..n).map(entry).collect();
    format!(r#"{{"fio version":"fio-3.33","timestamp":1700000000,"jobs":[{}]}}"#, jobs.join(","))
}

#[test]
fn a_fio_json_of_more_jobs_than_fio_runs_is_refused_and_4096_merge_without_a_histogram_each() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let store = d.join("s.db");
    let run = |args: &[&str]| parts(&bin().current_dir(d).env("IOLENS_STORE", &store).args(args).output().unwrap());
    // Before: entries were grouped in quadratic time, and each held 270 KiB histograms; 200,000
    // of them ran for minutes and out of memory.
    std::fs::write(d.join("many.json"), fio_json_entries(4097, |i| format!("j{i}"))).unwrap();
    let (code, _, err) = run(&["import", "many.json"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err.trim(),
        r#"error: many.json: is not fio's JSON output: its "jobs" list holds 4097 entries; fio runs at most 4096 jobs"#
    );
    assert!(!store.exists());
    // fio's most, as clones of one job: one test, its latency the merge of every entry's bins.
    std::fs::write(d.join("clones.json"), fio_json_entries(4096, |_| "j".into())).unwrap();
    let (code, _, err) = run(&["import", "clones.json"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&["show", "1", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let t = &v["tests"][0];
    assert_eq!((t["read"]["ios"].as_u64(), t["threads"].as_array().map(Vec::len)), (Some(4096), Some(4096)));
    assert_eq!(t["read"]["lat_us"]["percentiles"]["50"].as_f64(), Some(1.0));
}

#[test]
fn a_path_that_is_not_utf8_keeps_the_run() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bad = std::ffi::OsStr::from_bytes(b"\xff.json");
    let args = ["run", "--engine", "null", "-d", "0.1", "--size", "1m", "--no-store", "--out"];
    let mut a: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    a.extend([bad, std::ffi::OsStr::new("x.dat")]);
    let (code, err) = iolens(d, &a);
    assert_eq!(code, 0, "{err}");
    let saved = std::fs::read_to_string(d.join(bad)).unwrap();
    assert!(saved.contains("\"schema_version\""), "the report went to the file named");
}

#[test]
fn errors_stay_on_one_line_with_the_users_text_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // clap's message whole: it names what is missing.
    refused(d, &["compare"], "the following required arguments were not provided: <RESULT> <RESULT>");
    // A newline in a value is shown escaped, not as a second line.
    refused(d, &["run", "--engine", "null", "--bs", "4k\nx", "x.dat"], "--bs: '4k\\nx' is not a size");
    refused(d, &["run", "--bs", "4k\u{1b}[31m", "x.dat"], "'4k\\u{1b}[31m'");
}

#[test]
fn fio_json_figures_no_run_can_report_are_refused_at_import() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let job = r#"{"jobname":"a","read":{"iops":1,"io_bytes":4096}}"#;
    std::fs::write(
        d.join("t.json"),
        format!(r#"{{"fio version":"x","timestamp":18446744073709551615,"jobs":[{job}]}}"#),
    )
    .unwrap();
    std::fs::write(d.join("i.json"), r#"{"fio version":"x","jobs":[{"jobname":"a","read":{"iops":1e308}}]}"#).unwrap();
    std::fs::write(d.join("n.json"), r#"{"fio version":"x","jobs":[{"jobname":"a","read":{"bw_mean":-2.5}}]}"#)
        .unwrap();
    refused(
        d,
        &["import", "t.json"],
        "t.json: is not fio's JSON output: \"timestamp\" 18446744073709551615 is past the year 9999",
    );
    refused(d, &["import", "i.json"], r#"."jobs"[0]."read"."iops" is 1e+308, beyond any figure fio reports"#);
    refused(d, &["import", "n.json"], "below zero");
    // A latency below zero, even a whole number: the store could not take it back.
    let pct = r#"{"fio version":"x","jobs":[{"jobname":"a","read":{"iops":1,"clat_ns":{"percentile":{"1.000000":-9223372036854775808}}}}]}"#;
    std::fs::write(d.join("p.json"), pct).unwrap();
    refused(
        d,
        &["import", "p.json"],
        r#"."jobs"[0]."read"."clat_ns"."percentile"."1.000000" is -9223372036854775808, below zero"#,
    );
    // fio's -1 passes as a count, but a result holding it could not be stored: refused whole.
    std::fs::write(
        d.join("s.json"),
        r#"{"fio version":"x","jobs":[{"jobname":"a","write":{"iops":1,"iops_stddev":-1}}]}"#,
    )
    .unwrap();
    refused(d, &["import", "s.json"], "write IOPS stddev is -1, not a figure a run measures");
    // numjobs × files is checked before a name is made.
    std::fs::write(d.join("n.fio"), "[x]\nioengine=null\nsize=1m\nnumjobs=1G\nfilename_format=f.$jobnum\n").unwrap();
    refused(d, &["fio", "--parse-only", "n.fio"], "numjobs: 1073741824 clones × 1 files");
}

#[test]
fn an_empty_target_is_refused_by_every_command_that_takes_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let empty = "TARGET: '' is empty; name a file, a directory or a device ('.' for this directory)";
    for cmd in
        [&["run", "--engine", "null", "-d", "0.1", "--size", "1m"][..], &["cdm"], &["check"], &["explain"], &["sqlio"]]
    {
        refused(d, &[cmd, &[""]].concat(), empty);
    }
    refused(d, &["sweep", "--qd", "1,2", ""], empty);
    refused(d, &["pattern", "oltp", ""], empty);
    refused(d, &["simdb", ""], "a value is required for '[DIR]' but none was supplied");
    refused(d, &["diskspd", "-d1", ""], "ERROR: an empty argument is not a target: ''");
    assert_eq!(left(d, &[]), Vec::<String>::new());
}

#[test]
fn diskspd_without_c_refuses_a_missing_target_as_diskspd_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let says = "ERROR: target 'IO.dat' does not exist; -c<size> creates it (-c1G)";
    refused(d, &["diskspd", "-d1", "-b4k", "IO.dat"], says);
    assert_eq!(left(d, &[]), Vec::<String>::new());
}

#[test]
fn cdm_refuses_in_its_own_terms() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    refused(
        d,
        &["cdm", "--tests", "RND4K Q5000T1", "x.dat"],
        "--tests: 'RND4K Q5000T1': Q5000 is more queues than 4096",
    );
    refused(
        d,
        &["cdm", "--tests", "SEQ1M Q1T5000", "x.dat"],
        "--tests: 'SEQ1M Q1T5000': T5000 is more threads than 4096",
    );
    refused(d, &["cdm", "--time", "0", "x.dat"], "--time: must be more than 0 seconds");
    refused(d, &["cdm", "--passes", "0", "x.dat"], "--passes: '0' is not a test count; use 1-100 passes");
    // clap's tip stays, after its message.
    refused(d, &["cdm", "--interval", "-1", "x.dat"], "unexpected argument '-1' found; tip: to pass '-1' as a value");
    assert_eq!(left(d, &[]), Vec::<String>::new());
}

#[test]
fn a_sweep_is_counted_before_its_points_are_made() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 500^4 points: made one by one before they were counted, they did not fit in memory.
    let list = (1..=500).map(|n| n.to_string()).collect::<Vec<_>>().join(",");
    let pcts = (0..500).map(|n| (n % 101).to_string()).collect::<Vec<_>>().join(",");
    let args =
        ["sweep", "--qd", &list, "--threads", &list, "--bs", &vec!["4k"; 500].join(","), "--read-pct", &pcts, "x"];
    refused(d, &args, "62500000000 points is too many for one sweep (at most 1000)");
}

/// The most virtual memory `simdb -d SECS` had after 3 s, in kB.
fn simdb_peak(dir: &Path, secs: &str) -> u64 {
    let mut child = bin()
        .current_dir(dir)
        .args(["simdb", "-d", secs, "--users", "1", "--data-size", "1m", "--log-size", "1m", "--no-store", "."])
        // One malloc arena: each thread's own 64 MiB reservation would otherwise come and go
        // with how far the threads got, which a loaded machine changes from run to run.
        .env("MALLOC_ARENA_MAX", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(3));
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let peak = status.lines().find_map(|l| l.strip_prefix("VmPeak:")).unwrap();
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    assert_eq!(child.wait().unwrap().code(), Some(130));
    peak.trim().trim_end_matches(" kB").parse().unwrap()
}

#[test]
#[cfg(target_os = "linux")]
fn simdb_memory_follows_the_time_run_not_the_time_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let short = simdb_peak(d, "10");
    // 30 days: per-second counts sized up front took 100 MB per user.
    let long = simdb_peak(d, "2592000");
    assert!(long < short + 32 * 1024, "{long} kB asked for 30 days, {short} kB for 10 s");
    assert_eq!(left(d, &[]), Vec::<String>::new());
}

#[test]
fn a_journal_claiming_huge_files_is_checked_in_bounded_time_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = bin()
        .args(["simdb", "-d", "1", "--users", "1", "--data-size", "1m", "--log-size", "1m", "--keep", "--quiet"])
        .args(["--no-store", "."])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    // The header says each data file is 1 PiB: 2^37 pages of 8 KiB, sized up front before.
    let j = d.join("iolens-simdb.journal");
    let mut b = std::fs::read(&j).unwrap();
    b[24..32].copy_from_slice(&(1u64 << 50).to_le_bytes());
    let n = 8 + 8 + 4 + 4 + 8 + 4 + 8 + 1;
    let crc = crc32c::crc32c(&b[..n]).to_le_bytes();
    b[n..n + 4].copy_from_slice(&crc);
    std::fs::write(&j, &b).unwrap();
    let start = Instant::now();
    let out = bin()
        .args(["simdb", ".", "--verify-only", "--no-store", "--format", "json"])
        .env("MALLOC_ARENA_MAX", "1")
        .current_dir(d)
        .output()
        .unwrap();
    assert!(start.elapsed() < Duration::from_secs(20), "{:?}", start.elapsed());
    // The pages no file holds are lost: kept up to the cap, counted past it, never walked.
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ver = &v["tests"][0]["verify"];
    let (kept, dropped) = (ver["findings"].as_array().unwrap().len(), ver["findings_dropped"].as_u64().unwrap());
    // A file without a record of its size is as long as the header says: 2^37 pages.
    assert_eq!(kept, 10_000);
    assert!(dropped + 10_000 >= (1 << 37) - 128, "{dropped} dropped");
}

#[test]
fn a_result_named_twice_counts_once_in_compare_and_explain() {
    let dir = tempfile::tempdir().unwrap();
    let (d, store) = (dir.path(), dir.path().join("s.db"));
    let cmd = |args: &[&str]| parts(&bin().current_dir(d).env("IOLENS_STORE", &store).args(args).output().unwrap());
    for label in ["one", "two"] {
        let run = ["run", "--engine", "null", "-d", "0.1", "--size", "1m", "--label", label, "x.dat"];
        assert_eq!(cmd(&run).0, 0);
    }
    let refusal = "error: RESULT: 1 is named more than once; compare needs two different results\n";
    // By id, or by its label: the same result either way, and nothing to compare it with.
    for args in [&["compare", "1", "1"][..], &["compare", "1", "one"], &["compare", "one", "1", "--baseline", "1"]] {
        let (code, out, err) = cmd(args);
        assert_eq!((code, out.as_str(), err.as_str()), (2, "", refusal), "{args:?}");
    }
    let note = "note: result 1 is named more than once; it counts once\n";
    let (code, out, err) = cmd(&["compare", "1", "2", "one", "1", "--format", "json"]);
    assert_eq!((code, err.as_str()), (0, note));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = v["results"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["#1 one", "#2 two"], "{out}");
    let (code, out, err) = cmd(&["explain", "2", "2", "2", "--format", "json"]);
    assert_eq!((code, err.as_str()), (0, note.replace('1', "2").as_str()));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["results"], serde_json::json!([2]), "{out}");
}

//! `--mpi` across hosts that are separate network stacks: each rank in a network namespace of
//! its own with its own hostname, OpenMPI over TCP on a bridge between them
//! (tests/common/netns.rs). The ranks must be told apart, their traffic must cross the
//! namespaces, and the combined result must be the ranks' sum. Needs root (namespaces, veth,
//! bridge) and OpenMPI's mpirun: skipped with the reason without them, failed under
//! IOLENS_REQUIRE_PRIVILEGED=1.
#![cfg(feature = "mpi")]

mod common;
use common::mpi::*;
use common::netns::Hosts;
use common::*;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

/// Three hosts, or None (skipped) when this machine cannot make them.
fn hosts(p: &Privileged) -> Option<Hosts> {
    mpirun(p)?;
    p.need("root", root())?;
    p.need("network namespaces, veth pairs and a bridge (ip, CAP_NET_ADMIN)", Hosts::new(3))
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}")).trim().to_string()
}

#[test]
fn ranks_in_separate_network_namespaces() {
    let p = Privileged::new();
    let Some(hosts) = hosts(&p) else { return };
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let target = dir.path().join("file.{rank}").display().to_string();
    let before: Vec<u64> = (0..3).map(|k| hosts.traffic(k)).collect();
    let args = ["run", "--mpi", "--duration", "2", "--size", "8M", "--qd", "2", "--format", "json", "--no-store"];
    let out = hosts.mpirun(dir.path(), &[&args[..], &[&target]].concat()).output().expect("running mpirun");
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not one JSON result ({e}): {stdout}"));
    let t = test0(&v);
    let ranks = t["ranks"].as_array().expect("ranks");
    assert_eq!(ranks.len(), 3, "{t}");
    // Each rank ran in its own network namespace, none of them this test's.
    let mine = std::fs::read_link("/proc/self/ns/net").unwrap().display().to_string();
    let spaces: Vec<String> = (0..3).map(|k| read(dir.path(), &format!("netns.{k}"))).collect();
    eprintln!("this test in {mine}; ranks in {spaces:?}");
    assert!(!spaces.contains(&mine) && spaces[0] != spaces[1] && spaces[1] != spaces[2] && spaces[0] != spaces[2]);
    for (k, r) in ranks.iter().enumerate() {
        assert_eq!(u(&r["rank"]), k as u64);
        // The row names the rank's own host, not rank 0's.
        assert_eq!(r["host"], hosts.names[k], "rank {k}");
        assert!(u(&r["ios"]) > 0);
        eprintln!(
            "rank {k}: host {}, {:.0} IOPS, clock offset {:.4} ms, round trip {:.4} ms",
            r["host"],
            f(&r["iops"]),
            f(&r["clock_offset_ms"]),
            f(&r["clock_rtt_ms"])
        );
        if k > 0 {
            assert!(f(&r["clock_rtt_ms"]) > 0.0, "rank {k}: {r}");
        }
    }
    // What ranks 1 and 2 sent rank 0 (their tests, histograms included) crossed their veth
    // pairs and rank 0's.
    let row = |k: usize| serde_json::to_string(&ranks[k]).unwrap().len() as u64;
    let sent: Vec<u64> = (0..3).map(|k| hosts.traffic(k) - before[k]).collect();
    eprintln!("bytes through the veth pairs: {sent:?}; rows of ranks 1, 2: {} B, {} B", row(1), row(2));
    assert!(sent[1] >= row(1) && sent[2] >= row(2) && sent[0] >= row(1) + row(2), "{sent:?}");
    let sum: f64 = ranks.iter().map(|r| f(&r["iops"])).sum();
    let iops = f(&t["total"]["iops"]);
    eprintln!("combined {iops:.1} IOPS, ranks' sum {sum:.1}");
    assert!((iops / sum - 1.0).abs() <= 0.01, "combined {iops:.1} IOPS, ranks' sum {sum:.1}");
    assert_eq!(u(&t["total"]["ios"]), ranks.iter().map(|r| u(&r["ios"])).sum::<u64>());
    assert_eq!(entries(dir.path()).iter().filter(|n| n.starts_with("file.")).count(), 0);
}

/// Runs `cmd`, and once `when` holds (checked every 20 ms) SIGKILLs the process whose id is
/// in `pid_file`. (exit code, stdout, stderr, time from the kill to the end).
fn kill_midway(mut cmd: std::process::Command, dir: &Path, pid_file: &str, when: impl Fn() -> bool) -> Killed {
    let (out, err) = (dir.join("mpirun.out"), dir.join("mpirun.err"));
    cmd.stdout(std::fs::File::create(&out).unwrap()).stderr(std::fs::File::create(&err).unwrap());
    let mut child = cmd.spawn().expect("running mpirun");
    let t0 = Instant::now();
    let mut killed_at = None;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("mpirun still running after 60 s: {}", std::fs::read_to_string(&err).unwrap());
        }
        if killed_at.is_none() && when() {
            let pid: i32 = read(dir, pid_file).parse().unwrap();
            assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0, "kill {pid}");
            killed_at = Some(Instant::now());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let after = killed_at.unwrap_or_else(|| {
        let said = std::fs::read_to_string(&err).unwrap();
        panic!("ended ({status}) before the kill: {said}; {:?}", entries(dir))
    });
    Killed {
        code: status.code().unwrap_or(-1),
        stdout: std::fs::read_to_string(&out).unwrap(),
        stderr: std::fs::read_to_string(&err).unwrap(),
        after_kill: after.elapsed(),
    }
}

struct Killed {
    code: i32,
    stdout: String,
    stderr: String,
    after_kill: Duration,
}

#[test]
fn a_rank_killed_midway_is_named_and_the_rest_kept() {
    let p = Privileged::new();
    let Some(hosts) = hosts(&p) else { return };
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let target = data.join("c.{rank}").display().to_string();
    let out = dir.path().join("result.json");
    let out_s = out.display().to_string();
    // Two tests of 3 s, reads then writes; rank 1 is killed a second into the second, which the
    // time its file was last written shows (it stays as the file was made through the first).
    let args = [
        "sweep",
        "--mpi",
        "--rw",
        "randrw",
        "--read-pct",
        "100,0",
        "-d",
        "3",
        "--size",
        "8M",
        "--format",
        "json",
        "--no-store",
        "--out",
        &out_s,
        &target,
    ];
    let file1 = data.join("c.1");
    let modified = || std::fs::metadata(&file1).and_then(|m| m.modified()).ok();
    // (mtime, since when it has not changed)
    let seen = std::cell::Cell::new(None::<(SystemTime, Instant)>);
    let writing_since = std::cell::Cell::new(None::<Instant>);
    let k = kill_midway(hosts.mpirun(dir.path(), &args), dir.path(), "pid.1", || {
        if let Some(w) = writing_since.get() {
            return w.elapsed() >= Duration::from_secs(1);
        }
        let Some(m) = modified() else { return false };
        match seen.get() {
            Some((was, since)) if was != m && since.elapsed() > Duration::from_millis(1500) => {
                writing_since.set(Some(Instant::now()))
            }
            Some((was, _)) if was == m => {}
            _ => seen.set(Some((m, Instant::now()))),
        }
        false
    });
    eprintln!("exit {} {:.2} s after the kill; stderr:\n{}", k.code, k.after_kill.as_secs_f64(), k.stderr);
    assert_ne!(k.code, 0);
    assert!(k.after_kill < Duration::from_secs(5), "{:?} after the kill", k.after_kill);
    // iolens names the lost rank and its host, and no other; mpirun says it was killed.
    let line = k.stderr.lines().find(|l| l.starts_with("error: rank 1 ")).unwrap_or_else(|| panic!("{}", k.stderr));
    assert!(line.starts_with(&format!("error: rank 1 ({}) failed: lost: no answer", hosts.names[1])), "{line}");
    assert!(!k.stderr.contains("rank 0 (") && !k.stderr.contains("rank 2 ("), "{}", k.stderr);
    assert!(k.stderr.contains("rank 1") && k.stderr.contains("signal 9"), "{}", k.stderr);
    // The result: the first test whole, rank 1's row included (sent before the second began);
    // the second from ranks 0 and 2, interrupted and marked partial.
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    eprintln!("stdout: {} bytes", k.stdout.len());
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 2, "{v}");
    let rows = |t: &Value| t["ranks"].as_array().unwrap().iter().map(|r| u(&r["rank"])).collect::<Vec<_>>();
    assert_eq!(rows(&tests[0]), [0, 1, 2]);
    assert!(tests[0]["failed"].is_null() && tests[0]["interrupted"] == false, "{}", tests[0]["failed"]);
    assert_eq!(tests[0]["ranks"][1]["host"], hosts.names[1]);
    assert_eq!(rows(&tests[1]), [0, 2]);
    let why = tests[1]["failed"].as_str().unwrap();
    assert!(why.starts_with("partial: 2 of 3 ranks measured this test; rank 1 ("), "{why}");
    assert_eq!(tests[1]["interrupted"], true);
    for t in tests {
        let sum: f64 = t["ranks"].as_array().unwrap().iter().map(|r| f(&r["iops"])).sum();
        let iops = f(&t["total"]["iops"]);
        eprintln!("{}: ranks {:?}, {iops:.0} IOPS", t["name"], rows(t));
        assert!(sum > 0.0 && (iops / sum - 1.0).abs() <= 0.01, "{}: {iops} IOPS, rows {sum}", t["name"]);
    }
    // Ranks 0 and 2 removed their test files; rank 1, killed, could not.
    assert_eq!(entries(&data), ["c.1"]);
}

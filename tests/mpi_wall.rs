//! Stonewalling under mpirun, as IOR has it, on three loop devices capped at different IOPS,
//! one per rank: what each rank had done when the first was done (the common window), and
//! with `--stonewall wear-out` every rank going on to the count of the rank that had done the
//! most by then. The caps make the ranks' speeds known, so the figures are checked against them.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs
#![cfg(feature = "mpi")]

mod common;
use common::mpi::*;
use common::throttled::Throttled;
use common::*;
use serde_json::Value;
use std::path::Path;

const CAPS: [u64; 3] = [300, 500, 800];

/// One test at a time: each sets up three devices and times its ranks against their caps.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Three capped loop devices, `dev.{rank}` in a directory; None where they cannot be had.
fn capped(name: &str) -> Option<(Vec<Throttled>, tempfile::TempDir)> {
    let devs: Vec<Throttled> = (0..3).map(|k| Throttled::new(&format!("{name}{k}"))).collect::<Option<Vec<_>>>()?;
    devs[0].need("mpirun (OpenMPI: apt-get install openmpi-bin)", program("mpirun"))?;
    // One cgroup holds every rank (mpirun's children) and caps each device differently.
    for (d, cap) in devs.iter().zip(CAPS) {
        devs[0].set_on(d, "read_iops_device", cap);
    }
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    for (k, d) in devs.iter().enumerate() {
        std::os::unix::fs::symlink(&d.dev, dir.path().join(format!("dev.{k}"))).unwrap();
    }
    Some((devs, dir))
}

fn run(devs: &[Throttled], dir: &Path, args: &str) -> Value {
    let out = devs[0].run(&format!(
        "{MPIRUN} {} run --mpi --rw randread --bs 4k --format json --no-store {args} '{}'",
        env!("CARGO_BIN_EXE_iolens"),
        dir.join("dev.{rank}").display()
    ));
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn near(got: f64, want: f64, within: f64) -> bool {
    (got / want - 1.0).abs() <= within
}

#[test]
fn wear_out_takes_every_rank_to_the_count_of_the_fastest() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some((devs, dir)) = capped("wear") else { return };
    let txt = dir.path().join("report.txt");
    let v = run(&devs, dir.path(), &format!("--qd 4 --duration 2 --stonewall wear-out --out {}", txt.display()));
    let t = test0(&v);
    let ranks = t["ranks"].as_array().unwrap();
    let at_first: Vec<u64> = ranks.iter().map(|r| u(&r["first_done"]["ios"])).collect();
    let ios: Vec<u64> = ranks.iter().map(|r| u(&r["ios"])).collect();
    let secs: Vec<f64> = ranks.iter().map(|r| f(&r["duration_s"])).collect();
    let at_secs: Vec<f64> = ranks.iter().map(|r| f(&r["first_done"]["seconds"])).collect();
    eprintln!(
        "caps {CAPS:?} IOPS, 2 s: counts when the first was done {at_first:?} (at {at_secs:.3?} s), in the end {ios:?} in {secs:.2?} s"
    );
    // When the first was done (2 s in), each had done what its cap allows in 2 s. The throttle
    // works in 100 ms slices and now and then lets a rank through one slice early (1680 I/Os
    // in 2 s at 800 IOPS, then the last ones wait for it): allow that one slice, no more.
    for (k, cap) in CAPS.iter().enumerate() {
        let share = &ranks[k]["first_done"];
        assert!(near(f(&share["seconds"]), 2.0, 0.02), "rank {k}: {share}");
        let (n, cap) = (at_first[k] as f64, *cap as f64);
        assert!((0.97 * 2.0 * cap..=1.01 * 2.1 * cap).contains(&n), "rank {k}: {n} I/Os at {cap} IOPS");
    }
    // Then the slower ranks went on to the most (the 800 IOPS rank's), and no further than the
    // I/Os they had in flight; the fastest stopped once the count was known, moments later.
    let most = *at_first.iter().max().unwrap();
    for (k, n) in ios.iter().enumerate() {
        let over = if at_first[k] == most { most / 10 } else { 4 };
        assert!(*n >= most && *n <= most + over, "rank {k}: {n} I/Os, the most was {most}");
    }
    assert!(near(secs[0], most as f64 / 300.0, 0.05), "rank 0 at 300 IOPS took {:.2} s for {most}", secs[0]);
    assert!(near(secs[2], 2.0, 0.1), "the fastest rank stopped at once: {:.2} s", secs[2]);
    let notice = format!("went on to {most} I/Os or more");
    assert!(t["notices"].as_array().unwrap().iter().any(|n| n.as_str().unwrap().starts_with(&notice)), "{t}");
    // First done: the caps' sum over the common window; last done: all I/Os over the longest time.
    let text = std::fs::read_to_string(&txt).unwrap();
    let first = ranks.iter().map(|r| u(&r["first_done"]["ios"]) as f64 / f(&r["first_done"]["seconds"])).sum::<f64>();
    assert!((0.97 * 1600.0..=1.01 * 2.1 / 2.0 * 1600.0).contains(&first), "{first:.1} IOPS over the common window");
    let last = ios.iter().sum::<u64>() as f64 / secs[0];
    assert!(near(last, 900.0, 0.05), "{last:.1} IOPS by the last done");
    let line = text.lines().find(|l| l.starts_with("first done: ")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.starts_with(&format!("first done: {first:.1} IOPS")), "{line}");
    assert!(line.contains(&format!("last done: {last:.1} IOPS")), "{line}");
}

#[test]
fn first_done_keeps_the_common_window_and_none_runs_each_rank_its_course() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some((devs, dir)) = capped("first") else { return };
    // Each rank reads 900 I/Os: at 800 IOPS the fastest is done after 1.1 s, the slowest takes 3 s.
    let limit = "--number-ios 225 --threads 4 --qd 1 --duration 30";
    let v = run(&devs, dir.path(), &format!("{limit} --stonewall first-done"));
    let ranks = test0(&v)["ranks"].as_array().unwrap().clone();
    let secs: Vec<f64> = ranks.iter().map(|r| f(&r["duration_s"])).collect();
    eprintln!("first-done: {secs:.2?} s, {:?} I/Os", ranks.iter().map(|r| u(&r["ios"])).collect::<Vec<_>>());
    assert_eq!(u(&ranks[2]["ios"]), 900);
    for (k, r) in ranks.iter().enumerate() {
        assert!(near(secs[k], 900.0 / 800.0, 0.1), "rank {k} ran {:.2} s", secs[k]);
        // Stopped at the first done: its count then, and the I/Os it had in flight.
        let (n, at) = (u(&r["ios"]), u(&r["first_done"]["ios"]));
        assert!(n >= at && n <= at + 4, "rank {k}: {n} I/Os, {at} when the first was done");
    }
    let v = run(&devs, dir.path(), limit);
    let ranks = test0(&v)["ranks"].as_array().unwrap().clone();
    let ios: Vec<u64> = ranks.iter().map(|r| u(&r["ios"])).collect();
    assert_eq!(ios, [900, 900, 900]);
    let at_first: Vec<u64> = ranks.iter().map(|r| u(&r["first_done"]["ios"])).collect();
    eprintln!("none: {ios:?} I/Os, {at_first:?} when the first was done");
    // The slower ranks had done a share of theirs when the fastest was done at 1.1 s.
    for (k, cap) in CAPS.iter().enumerate().take(2) {
        assert!(near(at_first[k] as f64, 900.0 * *cap as f64 / 800.0, 0.1), "rank {k}: {}", at_first[k]);
    }
}

//! `--mpi` under a real MPI launcher: three ranks on one machine (`mpirun --oversubscribe`),
//! each on its own target. The combined result must be the ranks' sum, its latency the exact
//! merge of their histograms (recomputed here from the rows' own histograms), a failing rank
//! must be named within seconds, and three devices capped differently must add up. Needs the
//! `mpi` feature and OpenMPI's mpirun; skipped with the reason without mpirun, failed under
//! IOLENS_REQUIRE_PRIVILEGED=1.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs
#![cfg(feature = "mpi")]

mod common;
use common::mpi::*;
use common::throttled::Throttled;
use common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

#[test]
fn three_ranks_combine_into_one_result() {
    let p = Privileged::new();
    let Some(()) = mpirun(&p) else { return };
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let target = dir.path().join("file.{rank}");
    let traces = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let trace = traces.path().join("t.csv");
    let (code, stdout, stderr) = launch(&format!(
        "run --mpi --duration 2 --size 8M --qd 2 --format json --no-store --trace {} '{}'",
        trace.display(),
        target.display()
    ));
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not one JSON result ({e}): {stdout}"));
    let t = test0(&v);
    let ranks = t["ranks"].as_array().expect("ranks");
    assert_eq!(ranks.iter().map(|r| u(&r["rank"])).collect::<Vec<_>>(), [0, 1, 2]);
    for (k, r) in ranks.iter().enumerate() {
        let want = dir.path().join(format!("file.{k}"));
        assert_eq!(r["targets"][0], want.display().to_string(), "rank {k}");
        assert!(!r["host"].as_str().unwrap().is_empty());
        assert!(f(&r["start_offset_ms"]).abs() < 1000.0, "{r}");
        assert!(u(&r["ios"]) > 0);
    }
    // The test files are the ranks' own, and gone afterwards.
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
    let sum: f64 = ranks.iter().map(|r| f(&r["iops"])).sum();
    let iops = f(&t["total"]["iops"]);
    assert!((iops / sum - 1.0).abs() <= 0.01, "combined {iops:.1} IOPS, ranks' sum {sum:.1}");
    // The ranks' rates over the common window (until the first was done), each from its row.
    let common: f64 = ranks.iter().map(|r| f(&r["first_done"]["ios"]) / f(&r["first_done"]["seconds"])).sum();
    assert!((iops / common - 1.0).abs() <= 0.01, "combined {iops:.1} IOPS, {common:.1} over the common window");
    assert_eq!(u(&t["total"]["ios"]), ranks.iter().map(|r| u(&r["ios"])).sum::<u64>());
    let merged = merge(ranks);
    assert_eq!(merged.1, u(&t["total"]["ios"]));
    eprintln!(
        "ranks {:.1?} IOPS (sum {sum:.1}), combined {iops:.1}, {common:.1} over the common window; p99 reported {} µs, \
         of all ranks' samples {} µs; start offsets {:.3?} ms, clock offsets {:.4?} ms",
        ranks.iter().map(|r| f(&r["iops"])).collect::<Vec<_>>(),
        f(&t["total"]["lat_us"]["percentiles"]["99"]),
        percentile_us(&merged, 99.0),
        ranks.iter().map(|r| f(&r["start_offset_ms"])).collect::<Vec<_>>(),
        ranks.iter().map(|r| f(&r["clock_offset_ms"])).collect::<Vec<_>>(),
    );
    for pct in ["50", "99", "99.9"] {
        let want = percentile_us(&merged, pct.parse().unwrap());
        let got = f(&t["total"]["lat_us"]["percentiles"][pct]);
        assert!((got - want).abs() < 1e-6, "p{pct}: reported {got} µs, merged histograms say {want} µs");
    }
    assert_eq!(v["host"]["targets"].as_array().unwrap().len(), 3);
    // Second by second too: p50 and p99 of one histogram of the ranks' buckets of that second.
    let seconds = t["seconds"].as_array().unwrap();
    assert!(seconds.len() >= 2, "{seconds:?}");
    for (k, s) in seconds.iter().enumerate() {
        let mut buckets = BTreeMap::new();
        let mut iops = 0.0;
        for r in ranks {
            let Some(rs) = r["seconds"].as_array().and_then(|v| v.get(k)) else { continue };
            iops += f(&rs["iops"]);
            for b in rs["latency_ns"].as_array().into_iter().flatten() {
                *buckets.entry(u(&b[0])).or_insert(0) += u(&b[1]);
            }
        }
        let count = buckets.values().sum::<u64>();
        assert!(count > 0, "second {}: no buckets from the ranks", k + 1);
        let h = (buckets, count, 0, u64::MAX);
        for (pct, key) in [(50.0, "p50_us"), (99.0, "p99_us")] {
            let (want, got) = (percentile_us(&h, pct), f(&s[key]));
            assert!((got - want).abs() < 1e-6, "second {}: {key} {got} µs, the ranks' buckets say {want} µs", k + 1);
        }
        assert!((f(&s["iops"]) - iops).abs() < 1e-6 * iops.max(1.0), "second {}", k + 1);
        assert!(s.get("latency_ns").is_none(), "the combined seconds keep no buckets");
    }
    // Each rank traced its own I/Os into its own file.
    let mut names = entries(traces.path());
    names.sort();
    assert_eq!(names, ["t.csv.0", "t.csv.1", "t.csv.2"]);
    for (k, r) in ranks.iter().enumerate() {
        let lines = std::fs::read_to_string(traces.path().join(format!("t.csv.{k}"))).unwrap().lines().count() as u64;
        assert!(lines > u(&r["ios"]), "rank {k}: {lines} trace lines, {} I/Os", r["ios"]);
    }
}

#[test]
fn a_rank_without_its_target_fails_the_run_naming_it() {
    let p = Privileged::new();
    let Some(()) = mpirun(&p) else { return };
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    for k in [0, 2] {
        std::fs::create_dir(dir.path().join(format!("d{k}"))).unwrap();
    }
    let target = dir.path().join("d{rank}").join("f");
    let t0 = Instant::now();
    let (code, stdout, stderr) =
        launch(&format!("run --mpi --duration 5 --size 8M --format json --no-store '{}'", target.display()));
    let took = t0.elapsed();
    assert_ne!(code, 0, "{stdout}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    let missing = dir.path().join("d1");
    let line = stderr.lines().find(|l| l.starts_with("error: rank 1 ")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.contains(&format!("{} does not exist", missing.display())), "{line}");
    eprintln!("exit {code} after {took:.2?}: {line}");
    assert!(!stderr.contains("rank 0 (") && !stderr.contains("rank 2 ("), "{stderr}");
    for k in [0, 2] {
        assert!(entries(&dir.path().join(format!("d{k}"))).is_empty(), "rank {k} left its file");
    }
}

#[test]
fn first_done_stops_every_rank_in_one_window() {
    let p = Privileged::new();
    let Some(()) = mpirun(&p) else { return };
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let target = dir.path().join("file.{rank}");
    // Rank by rank the I/O limit is reached at different times; without a stonewall each runs
    // to its own limit.
    let args =
        format!("run --mpi --number-ios 3000 --duration 20 --size 8M --format json --no-store '{}'", target.display());
    let (code, stdout, stderr) = launch(&format!("{args} --stonewall first-done"));
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let ranks = test0(&v)["ranks"].as_array().unwrap().clone();
    let ios: Vec<u64> = ranks.iter().map(|r| u(&r["ios"])).collect();
    assert!(ios.contains(&3000), "one rank reached its limit: {ios:?}");
    let ends: Vec<f64> = ranks.iter().map(|r| f(&r["end_offset_ms"])).collect();
    let first = ends.iter().cloned().fold(f64::MAX, f64::min);
    let last = ends.iter().cloned().fold(f64::MIN, f64::max);
    assert!(last - first < 500.0, "ends {ends:?} ms");
    assert_eq!(test0(&v)["interrupted"], false);
    let (code, stdout, stderr) = launch(&args);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let ios: Vec<u64> = test0(&v)["ranks"].as_array().unwrap().iter().map(|r| u(&r["ios"])).collect();
    assert_eq!(ios, [3000, 3000, 3000]);
}

#[test]
fn three_capped_devices_add_up() {
    let devs: Vec<Throttled> = match (0..3).map(|k| Throttled::new(&format!("mpi{k}"))).collect::<Option<Vec<_>>>() {
        Some(d) => d,
        None => return,
    };
    let Some(()) = devs[0].need("mpirun (OpenMPI: apt-get install openmpi-bin)", program("mpirun")) else { return };
    let caps = [300u64, 500, 800];
    // One cgroup holds every rank (mpirun's children) and caps each device differently.
    for (d, cap) in devs.iter().zip(caps) {
        devs[0].set_on(d, "read_iops_device", cap);
    }
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    for (k, d) in devs.iter().enumerate() {
        std::os::unix::fs::symlink(&d.dev, dir.path().join(format!("dev.{k}"))).unwrap();
    }
    let target = Path::new(dir.path()).join("dev.{rank}");
    let out = devs[0].run(&format!(
        "{MPIRUN} {} run --mpi --rw randread --bs 4k --qd 16 --warmup 1 -d 4 --format json --no-store '{}'",
        env!("CARGO_BIN_EXE_iolens"),
        target.display()
    ));
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let t = test0(&v);
    for (r, cap) in t["ranks"].as_array().unwrap().iter().zip(caps) {
        let iops = f(&r["iops"]);
        eprintln!("rank {} capped at {cap} IOPS: {iops:.1}", r["rank"]);
        assert!((iops / cap as f64 - 1.0).abs() <= 0.03, "rank {}: cap {cap}, measured {iops:.1}", r["rank"]);
    }
    let total = f(&t["total"]["iops"]);
    let sum: u64 = caps.iter().sum();
    assert!((total / sum as f64 - 1.0).abs() <= 0.03, "combined {total:.1} IOPS, caps add up to {sum}");
}

#[test]
fn cdm_keeps_one_pass_for_every_rank() {
    let p = Privileged::new();
    let Some(()) = mpirun(&p) else { return };
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let target = dir.path().join("c.{rank}");
    let (code, stdout, stderr) = launch(&format!(
        "cdm --mpi --tests 'RND4K Q1T1' --passes 3 --time 1 --interval 0 --no-prepare --size 8M --format json --no-store '{}'",
        target.display()
    ));
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    for t in v["tests"].as_array().unwrap() {
        // "pass 2: 42.48 MB/s, 10372 IOPS (kept)", rank 0's plain, the others' prefixed.
        let mut mbps = [[0.0f64; 3]; 3];
        let mut kept = Vec::new();
        for n in t["notices"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()) {
            let (rank, rest) = match n.strip_prefix("rank ") {
                Some(r) => (r[..1].parse::<usize>().unwrap(), &r[3..]),
                None => (0, n),
            };
            let Some(rest) = rest.strip_prefix("pass ") else { continue };
            let pass = rest[..1].parse::<usize>().unwrap() - 1;
            mbps[rank][pass] = rest[3..].split(' ').next().unwrap().parse().unwrap();
            if rest.ends_with("(kept)") {
                kept.push((rank, pass));
            }
        }
        let sums: Vec<f64> = (0..3).map(|k| mbps.iter().map(|r| r[k]).sum()).collect();
        let best = (0..3).max_by(|&a, &b| sums[a].total_cmp(&sums[b])).unwrap();
        assert_eq!(kept, [(0, best), (1, best), (2, best)], "{}: summed MB/s per pass {sums:?}", t["name"]);
        let total = f(&t["total"]["mbps"]);
        assert!((total - sums[best]).abs() < 0.02, "{}: {total} MB/s, pass {best} sums to {}", t["name"], sums[best]);
    }
}

#[test]
fn fio_jobs_run_on_every_rank() {
    let p = Privileged::new();
    let Some(()) = mpirun(&p) else { return };
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let file = dir.path().join("f.{rank}");
    let jobs = "--direct=1 --bs=4k --size=8m --runtime=1 --time_based";
    let (code, stdout, stderr) = launch(&format!(
        "fio --mpi --format json --no-store '--filename={}' {jobs} --name=r --rw=randread --name=w --rw=randwrite --stonewall",
        file.display()
    ));
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(tests.iter().map(|t| t["name"].as_str().unwrap()).collect::<Vec<_>>(), ["r", "w"]);
    for t in tests {
        let ranks = t["ranks"].as_array().unwrap();
        assert_eq!(ranks.len(), 3);
        assert_eq!(u(&t["total"]["ios"]), ranks.iter().map(|r| u(&r["ios"])).sum::<u64>());
    }
    assert!(u(&tests[1]["write"]["ios"]) > 0 && u(&tests[1]["read"]["ios"]) == 0);
    // The ranks' stonewall under its fio-side name: all stop when the first reaches its I/Os.
    let (code, stdout, stderr) = launch(&format!(
        "fio --mpi --mpi-stonewall first-done --format json --no-store '--filename={}' --direct=1 --bs=4k \
         --size=8m --runtime=20 --number_ios=3000 --name=r --rw=randread",
        file.display()
    ));
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let ranks = test0(&v)["ranks"].as_array().unwrap().clone();
    assert!(ranks.iter().any(|r| u(&r["ios"]) == 3000), "one rank reached its I/Os: {ranks:?}");
    let ends: Vec<f64> = ranks.iter().map(|r| f(&r["end_offset_ms"])).collect();
    let spread = ends.iter().cloned().fold(f64::MIN, f64::max) - ends.iter().cloned().fold(f64::MAX, f64::min);
    assert!(spread < 500.0, "ends {ends:?} ms");
    // Jobs that run together cannot be split over ranks one test at a time: refused.
    let (code, _, stderr) = launch(&format!(
        "fio --mpi --no-store '--filename={}' {jobs} --name=a --rw=randread --name=b --rw=randread",
        file.display()
    ));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("error: --mpi: jobs [a] and [b] run together"), "{stderr}");
}

#[test]
fn paced_response_and_fsync_latency_are_every_ranks() {
    let p = Privileged::new();
    let Some(()) = mpirun(&p) else { return };
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let target = dir.path().join("p.{rank}");
    let (code, stdout, stderr) = launch(&format!(
        "run --mpi --rw randrw --rate-iops 400 --fsync-every 8 --duration 2 --size 8M --format json --no-store '{}'",
        target.display()
    ));
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let t = test0(&v);
    let ranks = t["ranks"].as_array().unwrap();
    for (kinds, got) in [(&["response_read"][..], &t["response"]["read"]), (&["fsync"][..], &t["fsync"]["lat_us"])] {
        let merged = merge_of(ranks, kinds);
        assert!(merged.1 > 100, "{kinds:?}: {} I/Os", merged.1);
        for pct in ["50", "99"] {
            let want = percentile_us(&merged, pct.parse().unwrap());
            let got = f(&got["percentiles"][pct]);
            assert!((got - want).abs() < 1e-6, "{kinds:?} p{pct}: reported {got} µs, the rows' merge {want} µs");
        }
    }
    assert_eq!(u(&t["fsync"]["count"]), ranks.iter().map(|r| u(&r["histograms"]["fsync"]["count"])).sum::<u64>());
    assert!(!t["notices"].to_string().contains("response latency is rank 0's"), "{}", t["notices"]);
}

//! `--mpi` on one target every rank shares (no `{rank}` in its name): the region is split into
//! one part per rank, whole blocks each, so no rank touches another's; a new shared file is
//! created once. Checked on the I/Os themselves (each rank's trace) and, on a throttled loop
//! device, on the cap the ranks then share. Three ranks under mpirun on this machine.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs
#![cfg(feature = "mpi")]

mod common;
use common::mpi::*;
use common::throttled::Throttled;
use common::*;
use serde_json::Value;
use std::path::Path;

/// Offsets of every I/O in a rank's trace (worker,file,op,offset,length).
fn offsets(trace: &Path) -> Vec<(u64, u64)> {
    let text = std::fs::read_to_string(trace).unwrap_or_else(|e| panic!("{}: {e}", trace.display()));
    text.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (c[3].parse().unwrap(), c[4].parse().unwrap())
        })
        .collect()
}

fn region(r: &Value) -> (u64, u64) {
    let p = r["region"].as_array().unwrap_or_else(|| panic!("no region in {r}"));
    (u(&p[0]), u(&p[1]))
}

#[test]
fn one_shared_file_is_split_into_a_part_per_rank() {
    let p = Privileged::new();
    let Some(()) = mpirun(&p) else { return };
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let traces = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let file = dir.path().join("shared.dat");
    // 12 MiB + 64 KiB: 3 parts of 4 MiB, the last 64 KiB left to nobody.
    let (code, stdout, stderr) = launch(&format!(
        "run --mpi --rw write --bs 64k --qd 2 --duration 1 --size 12352k --format json --no-store --trace {} '{}'",
        traces.path().join("t.csv").display(),
        file.display()
    ));
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let t = test0(&v);
    let part = 4u64 << 20;
    for (k, r) in t["ranks"].as_array().unwrap().iter().enumerate() {
        assert_eq!(region(r), (k as u64 * part, part), "rank {k}");
        assert_eq!(r["targets"][0], file.display().to_string());
        let io = offsets(&traces.path().join(format!("t.csv.{k}")));
        assert!(io.len() as u64 >= u(&r["ios"]), "rank {k}: {} traced, {} measured", io.len(), r["ios"]);
        let (lo, hi) = (k as u64 * part, (k as u64 + 1) * part);
        let outside: Vec<_> = io.iter().filter(|(o, l)| *o < lo || o + l > hi).collect();
        assert!(outside.is_empty(), "rank {k} wrote outside {lo}..{hi}: {:?}", &outside[..outside.len().min(3)]);
        // Sequential writes that wrap around their part cover all of it.
        let mut blocks: Vec<u64> = io.iter().map(|(o, _)| o / 65536).collect();
        blocks.sort_unstable();
        blocks.dedup();
        assert_eq!(blocks.len(), 64, "rank {k}");
    }
    // One file, made by rank 0 only, and gone afterwards.
    let made: Vec<bool> = v["host"]["targets"].as_array().unwrap().iter().map(|t| t["created"] == true).collect();
    assert_eq!(made, [true, false, false]);
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
    // The combined test covers the three parts: one target, 12 MiB of it.
    assert_eq!(t["spec"]["targets"].as_array().unwrap().len(), 1);
    assert_eq!((u(&t["spec"]["offset"]), u(&t["spec"]["range"])), (0, 3 * part));
    assert_eq!(u(&t["total"]["ios"]), t["ranks"].as_array().unwrap().iter().map(|r| u(&r["ios"])).sum::<u64>());
}

#[test]
fn a_region_too_small_to_split_is_refused_before_any_file_is_made() {
    let p = Privileged::new();
    let Some(()) = mpirun(&p) else { return };
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let file = dir.path().join("shared.dat");
    let (code, _, stderr) =
        launch(&format!("run --mpi --rw write --bs 64k --duration 1 --size 128k --no-store '{}'", file.display()));
    assert_eq!(code, 2, "{stderr}");
    let want = format!(
        "error: --mpi: {}: its region of 128KiB holds fewer than 3 blocks of 64KiB; give a larger --size",
        file.display()
    );
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors, [want.as_str()], "{stderr}");
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}

#[test]
fn ranks_sharing_a_capped_device_share_its_cap() {
    let Some(dev) = Throttled::new("mpi-shared") else { return };
    let Some(()) = dev.need("mpirun (OpenMPI: apt-get install openmpi-bin)", program("mpirun")) else { return };
    let cap = 900u64;
    dev.set("read_iops_device", cap);
    let traces = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let out = dev.run(&format!(
        "{MPIRUN} {} run --mpi --rw randread --bs 4k --qd 8 --warmup 1 -d 4 --format json --no-store --trace {} {}",
        env!("CARGO_BIN_EXE_iolens"),
        traces.path().join("t.csv").display(),
        dev.dev
    ));
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let t = test0(&v);
    let third = (64u64 << 20) / 3 / 4096 * 4096;
    let mut rows = Vec::new();
    for (k, r) in t["ranks"].as_array().unwrap().iter().enumerate() {
        assert_eq!(region(r), (k as u64 * third, third), "rank {k}");
        let io = offsets(&traces.path().join(format!("t.csv.{k}")));
        let (lo, hi) = (k as u64 * third, (k as u64 + 1) * third);
        assert!(io.iter().all(|(o, l)| *o >= lo && o + l <= hi), "rank {k} read outside {lo}..{hi}");
        // Random offsets over the whole part: some in its first and some in its last tenth.
        assert!(io.iter().any(|(o, _)| *o < lo + third / 10) && io.iter().any(|(o, _)| *o >= hi - third / 10));
        rows.push(f(&r["iops"]));
    }
    let total = f(&t["total"]["iops"]);
    eprintln!("one device capped at {cap} IOPS, three ranks: {rows:.1?} IOPS, {total:.1} together");
    assert!((total / cap as f64 - 1.0).abs() <= 0.03, "combined {total:.1} IOPS under a {cap} IOPS cap");
    assert!(rows.iter().all(|&r| r < 0.5 * cap as f64), "each rank has a share of the cap: {rows:?}");
}

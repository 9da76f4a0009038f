//! A multi-host result is stored like any other, and `explain` and `compare` read it: three
//! ranks sweep one loop device they share, throttled to a cap the test sets, once at 900 and
//! once at 1,800 IOPS. What explain infers from the stored combined tests must be the cap (the
//! ranks' sum, not one rank's share) and a knee counted in every rank's I/Os in flight.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs
#![cfg(feature = "mpi")]

mod common;
use common::mpi::*;
use common::throttled::Throttled;
use common::*;
use serde_json::Value;

/// `sweep --mpi` of the device, stored under `label`: the stored result's id.
fn sweep(dev: &Throttled, label: &str) -> String {
    // The warm-up takes the throttle's first slice, which it lets through faster than the cap.
    let out = dev.run(&format!(
        "{MPIRUN} {} sweep --mpi --rw randread --bs 4k --qd 1,2,4 --warmup 1 -d 1 --label {label} {}",
        env!("CARGO_BIN_EXE_iolens"),
        dev.dev
    ));
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let id = stderr.split("saved as result ").nth(1).and_then(|s| s.split_whitespace().next());
    let id = id.unwrap_or_else(|| panic!("not stored: {stderr}")).to_string();
    eprintln!("{label}: result {id}\n{stdout}");
    // The report says who ran it, and describes the target the ranks share once.
    assert!(stdout.contains("\nranks: 3 on 1 host (the host above is rank 0's)\n"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("target: ")).count(), 1, "{stdout}");
    id
}

fn iolens(args: &[&str]) -> Value {
    let (code, stdout, stderr) = parts(&bin().args(args).args(["--format", "json"]).output().unwrap());
    assert_eq!(code, 0, "{args:?}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn a_stored_multi_host_sweep_is_explained_and_compared() {
    let Some(dev) = Throttled::new("mpi-stored") else { return };
    let Some(()) = dev.need("mpirun (OpenMPI: apt-get install openmpi-bin)", program("mpirun")) else { return };
    dev.set("read_iops_device", 900);
    let low = sweep(&dev, "shared-900");
    dev.set("read_iops_device", 1800);
    let high = sweep(&dev, "shared-1800");

    for (id, cap) in [(&low, 900.0), (&high, 1800.0)] {
        let a = &iolens(&["explain", id])["analysis"]["reads"];
        let found = a["iops_cap"].as_f64().unwrap_or_else(|| panic!("no IOPS cap in {a}"));
        eprintln!("explain {id}: IOPS cap {found}, knee at {} I/Os in flight", a["knee_qd"]);
        assert!((found / cap - 1.0).abs() <= 0.03, "result {id}: {found} IOPS found, {cap} set");
        // Flat from the first point (or, when the throttle held that one back, the second) on:
        // three ranks at depth 1 are three I/Os in flight, at depth 2 six; one rank's share
        // would give 1 or 2.
        let knee = a["knee_qd"].as_u64().unwrap_or_else(|| panic!("no knee in {a}"));
        assert!(knee == 3 || knee == 6, "{a}");
    }

    let c = iolens(&["compare", &low, &high]);
    let sides: Vec<&str> = c["results"].as_array().unwrap().iter().map(|s| s["host"].as_str().unwrap()).collect();
    assert!(sides.iter().all(|h| h.ends_with(", 3 ranks on 1 host")), "{sides:?}");
    let rows = c["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "a row per depth: {c}");
    for r in rows {
        let iops: Vec<f64> = r["cells"].as_array().unwrap().iter().map(|x| f(&x["iops"])).collect();
        let ratio = iops[1] / iops[0];
        assert!((ratio - 2.0).abs() <= 0.15, "{}: {iops:?}", r["test"]);
        // compare's signs: ">" below 2×, ">>" from 2× (1782 against 900 IOPS is ">").
        assert_eq!(r["verdicts"][1], if ratio >= 2.0 { ">>" } else { ">" }, "{r}");
    }
}

//! `iolens explain` on loop devices throttled to caps the test chooses: it must find them
//! (within 5 %) and say which binds at 4K and at 1M; with only a bandwidth throttle it must
//! report no IOPS cap. Needs root, losetup and cgroup v1 blkio; skipped with the reason elsewhere.

mod common;
use common::throttled::Throttled;
use common::*;

fn explain(t: &Throttled) -> serde_json::Value {
    let cmd = format!("{} explain {} --budget 30s --format json --quiet", env!("CARGO_BIN_EXE_iolens"), t.dev);
    let (code, out, err) = parts(&t.run(&cmd));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    eprintln!("{}", serde_json::to_string_pretty(&v["analysis"]).unwrap());
    v["analysis"].clone()
}

fn within(v: &serde_json::Value, set: f64, tol: f64) -> bool {
    v.as_f64().is_some_and(|m| (m / set - 1.0).abs() <= tol)
}

#[test]
fn iops_and_bandwidth_caps_are_found_and_named_per_block_size() {
    let Some(t) = Throttled::new("explain-both") else { return };
    t.set("read_iops_device", 1000);
    t.set("read_bps_device", 20_000_000);
    let a = explain(&t);
    assert!(within(&a["iops_cap"], 1000.0, 0.05), "iops_cap {}", a["iops_cap"]);
    assert!(within(&a["mbps_cap"], 20.0, 0.05), "mbps_cap {}", a["mbps_cap"]);
    assert_eq!(a["binding"]["4K"], "iops");
    assert_eq!(a["binding"]["1M"], "mbps");
    // 20 MB/s ÷ 1,000 IOPS: 20 kB, where one wall hands over to the other.
    assert!(within(&a["crossover_bs"], 20_000.0, 0.10), "crossover {}", a["crossover_bs"]);
}

#[test]
fn a_bandwidth_throttle_alone_has_no_iops_cap() {
    let Some(t) = Throttled::new("explain-bw") else { return };
    t.set("read_bps_device", 20_000_000);
    let a = explain(&t);
    assert!(a.get("iops_cap").is_none(), "no IOPS cap: {}", a["iops_cap"]);
    assert!(within(&a["mbps_cap"], 20.0, 0.05), "mbps_cap {}", a["mbps_cap"]);
    assert_eq!(a["binding"]["1M"], "mbps");
}

//! The walls on synthetic sweeps with known answers: the Iometer table from the field (one
//! 1 TB Premium SSD on a D16s_v3), a flat throttle, and Little's law on a queue-depth sweep.

use super::catalog::Catalog;
use super::infer::Point;
use super::{explain, Config};
use crate::result::analysis::Wall;

fn p(bs_k: u64, outstanding: u32, iops: f64, mbps: f64, lat_us: f64) -> Point {
    Point { bs: bs_k * 1024, outstanding, read: true, iops, mbps, lat_us, workers: 1, ..Point::default() }
}

#[test]
fn iometer_table_gives_p30_caps_and_the_crossover() {
    // 16 workers, 100 % sequential read: 4K … 256K.
    let pts = [
        p(4, 16, 5000.0, 21.0, 3200.0),
        p(16, 16, 4800.0, 78.0, 3330.0),
        p(32, 16, 4580.0, 150.0, 3490.0),
        p(64, 16, 3100.0, 200.0, 5160.0),
        p(256, 16, 780.0, 200.0, 20500.0),
    ];
    let e =
        explain(&pts, &Catalog::load_with(None, None).unwrap(), &Config::default(), 0.10, &Default::default()).unwrap();
    assert_eq!(e.walls.iops_cap, Some(5000.0));
    assert_eq!(e.walls.mbps_cap, Some(200.0));
    assert_eq!(e.walls.crossover_bs, Some(40000));
    assert_eq!(e.walls.binding.get("4K").map(Wall::as_str), Some("iops"));
    assert_eq!(e.walls.binding.get("32K").map(Wall::as_str), Some("iops"));
    assert_eq!(e.walls.binding.get("256K").map(Wall::as_str), Some("mbps"));
    assert!(e.walls.throttle.is_none() && e.walls.knee_qd.is_none());
    let p30 = e.matches.iter().find(|m| m.name == "Azure Premium SSD P30").expect("P30 matches");
    assert_eq!(p30.on.to_string(), "iops and mbps");
    let j = serde_json::to_value(&e).unwrap();
    assert_eq!(j["iops_cap"], 5000.0);
    assert!(j.get("knee_qd").is_none() && j.get("throttle").is_none(), "absent, never zero: {j}");
}

#[test]
fn a_flat_table_is_a_throttle() {
    // The DS13 temp drive: 8K at 1, 4 and 8 threads, all 500 IOPS / 3.9 MB/s.
    let pts = [p(8, 1, 500.0, 3.9, 2000.0), p(8, 4, 502.0, 3.9, 7970.0), p(8, 8, 499.0, 3.9, 16030.0)];
    let e =
        explain(&pts, &Catalog::load_with(None, None).unwrap(), &Config::default(), 0.10, &Default::default()).unwrap();
    let t = e.walls.throttle.expect("a throttle");
    assert_eq!((t.iops, t.mbps), (502.0, 3.9));
    assert_eq!(e.walls.iops_cap, Some(502.0));
    assert!(e.walls.knee_qd.is_none() || e.walls.knee_qd == Some(1));
    assert!(e.advice[0].advice.starts_with("Everything stops at 502 IOPS"), "{:?}", e.advice);
}

#[test]
fn littles_law_region_and_the_knee() {
    // 60 µs per I/O until the device saturates at 150K IOPS.
    let pts: Vec<Point> = [1u32, 2, 4, 8, 16, 32, 64]
        .iter()
        .map(|&q| {
            let iops = (q as f64 / 60e-6).min(150_000.0);
            p(4, q, iops, iops * 4096.0 / 1e6, q as f64 / iops * 1e6)
        })
        .collect();
    let e =
        explain(&pts, &Catalog::load_with(None, None).unwrap(), &Config::default(), 0.10, &Default::default()).unwrap();
    let lb = e.reads.as_ref().unwrap().latency_bound.clone().expect("a latency-bound region");
    assert_eq!((lb.from_qd, lb.to_qd), (1, 8));
    assert!((lb.latency_us - 60.0).abs() < 0.5, "{}", lb.latency_us);
    assert_eq!(e.walls.knee_qd, Some(16));
    assert!(e.advice.iter().any(|a| a.advice.starts_with("Keep at least 16 I/Os in flight")), "{:?}", e.advice);
}

#[test]
fn still_growing_is_said_at_the_deepest_depth_measured() {
    // check's sweep on a VM's disk: in step to QD 4, then slower but still growing to QD 32.
    let pts = [
        p(4, 1, 15_354.0, 62.9, 64.7),
        p(4, 2, 27_175.0, 111.3, 73.3),
        p(4, 4, 42_376.0, 173.6, 94.2),
        p(4, 8, 51_895.0, 212.6, 153.9),
        p(4, 32, 78_159.0, 320.1, 409.2),
    ];
    let e =
        explain(&pts, &Catalog::load_with(None, None).unwrap(), &Config::default(), 0.10, &Default::default()).unwrap();
    let r = e.reads.as_ref().unwrap();
    let lb = r.latency_bound.clone().expect("a latency-bound stretch");
    assert_eq!((lb.from_qd, lb.to_qd, r.knee_qd, r.deepest_qd), (1, 4, None, Some(32)));
    let a = e.advice.iter().find(|a| a.advice.starts_with("IOPS still grew")).expect("the advice");
    assert_eq!(a.advice, "IOPS still grew at QD 32, the deepest measured: deeper queues may give more.");
    assert!(a.because.ends_with("(≈ 77 µs each), then more slowly, to 78,159 IOPS at QD 32 (409 µs)"), "{}", a.because);
    let verdict = crate::report::explain::verdict(&e);
    assert!(verdict.contains("IOPS still growing at QD 32"), "{verdict}");
}

#[test]
fn a_mbps_cap_seen_at_one_block_size_says_at_which_depths() {
    // check on a VM's disk: the block sizes at QD 32 end at 1M, where QD 1 and QD 8 agree.
    let mut pts = vec![p(4, 32, 78_159.0, 320.1, 409.2), p(64, 32, 18_712.0, 1226.3, 1710.2)];
    pts.extend([p(256, 32, 4157.0, 1089.7, 7691.9), p(1024, 32, 2657.5, 2786.6, 11973.9)]);
    pts.extend([p(1024, 1, 2843.0, 2981.1, 350.4), p(1024, 8, 2456.0, 2575.3, 3254.0)]);
    let e =
        explain(&pts, &Catalog::load_with(None, None).unwrap(), &Config::default(), 0.10, &Default::default()).unwrap();
    assert_eq!(e.walls.mbps_cap, Some(2786.6));
    let a = e.advice.iter().find(|a| a.advice.starts_with("Large I/O stops at 2787 MB/s")).expect("the advice");
    assert_eq!(a.because, "MB/s within 10 % at 1M (QD 1, 8 and 32: 2,575–2,981 MB/s)");
}

#[test]
fn a_bandwidth_throttle_has_no_iops_cap() {
    // 20 MB/s at every block size at QD 16.
    let pts: Vec<Point> =
        [4u64, 16, 64, 256, 1024].iter().map(|&k| p(k, 16, 20e6 / (k * 1024) as f64, 20.0, 1000.0)).collect();
    let e =
        explain(&pts, &Catalog::load_with(None, None).unwrap(), &Config::default(), 0.10, &Default::default()).unwrap();
    assert_eq!((e.walls.iops_cap, e.walls.mbps_cap), (None, Some(20.0)));
    assert_eq!(e.walls.binding.get("4K").map(Wall::as_str), Some("mbps"));
}

#[test]
fn one_step_over_a_bandwidth_cap_does_not_raise_it() {
    // A throttle's slice let the 256K step run 6 % over a 20 MB/s cap that the others hold.
    let mbps = [(4u64, 4.0), (64, 19.6), (256, 21.2), (512, 19.9), (1024, 20.0)];
    let pts: Vec<Point> = mbps.iter().map(|&(k, m)| p(k, 16, m * 1e6 / (k * 1024) as f64, m, 1000.0)).collect();
    let e =
        explain(&pts, &Catalog::load_with(None, None).unwrap(), &Config::default(), 0.10, &Default::default()).unwrap();
    assert_eq!(e.walls.mbps_cap, Some(19.95));
}

#[test]
fn a_named_configuration_is_checked() {
    let pts = [
        p(4, 32, 12_650.0, 51.8, 2530.0),
        p(8, 32, 12_600.0, 103.2, 2540.0),
        p(64, 32, 2990.0, 196.0, 10700.0),
        p(1024, 32, 185.0, 194.0, 170_000.0),
    ];
    let cfg = Config { disk: Some("P30".into()), count: 4, vm: Some("D8s_v3".into()), ..Config::default() };
    let e = explain(&pts, &Catalog::load_with(None, None).unwrap(), &cfg, 0.10, &Default::default()).unwrap();
    let x = e.expected.as_ref().unwrap();
    assert_eq!((x.iops, x.mbps), (12800.0, Some(192.0)));
    assert!(
        e.advice
            .iter()
            .any(|a| a.advice.contains("the limit of VM D8s_v3 uncached binds") && a.because.contains("(-1 %)")),
        "{:?}",
        e.advice
    );
}

#[test]
fn an_explanation_round_trips_through_json() {
    let pts = [
        p(4, 16, 5000.0, 21.0, 3200.0),
        p(16, 16, 4800.0, 78.0, 3330.0),
        p(256, 16, 780.0, 200.0, 20500.0),
        p(64, 16, 3100.0, 200.0, 5160.0),
    ];
    let e =
        explain(&pts, &Catalog::load_with(None, None).unwrap(), &Config::default(), 0.10, &Default::default()).unwrap();
    let back: super::Explanation = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
    assert_eq!(back, e);
}

#[test]
fn a_cap_at_the_vms_burst_is_named_as_burst() {
    // DiskSpd on 3 × P30 striped on a D2s_v4 (the field notes): 4,023 IOPS, 4,000 published
    // for the VM's burst and 3,200 sustained.
    let pts = [
        p(4, 32, 4023.0, 16.5, 7950.0),
        p(8, 32, 4010.0, 32.8, 7980.0),
        p(64, 32, 3040.0, 199.2, 10500.0),
        p(1024, 32, 190.0, 199.2, 168_000.0),
    ];
    let cfg = Config { disk: Some("P30".into()), count: 3, vm: Some("D2s_v4".into()), ..Config::default() };
    let e = explain(&pts, &Catalog::load_with(None, None).unwrap(), &cfg, 0.10, &Default::default()).unwrap();
    let burst = e
        .advice
        .iter()
        .find(|a| a.advice.starts_with("IOPS at the burst limit of VM D2s_v4 uncached burst"))
        .unwrap_or_else(|| panic!("{:?}", e.advice));
    assert!(burst.advice.contains("credit-based") && burst.advice.contains("Sustained load gets 3,200."), "{burst:?}");
    assert!(burst.because.contains("measured 4,023 against 4,000") && burst.because.contains("(+1 %)"), "{burst:?}");
    // MB/s likewise: 199 against the VM's 200 MB/s burst, 48 sustained.
    assert!(e.advice.iter().any(|a| a.advice.starts_with("MB/s at the burst limit")), "{:?}", e.advice);
    // And the catalog match says which limit it is.
    assert!(e.matches.iter().any(|m| m.name.contains("D2s_v4") && m.on.is_burst()), "{:?}", e.matches);
}

#[test]
fn sequential_tests_complete_a_plateau_the_sweep_ran_out_of_time_for() {
    // check on a 2,000 IOPS / 40 MB/s throttle: the writes' block sizes stopped at 32K, the
    // first step past the IOPS cap; SEQ1M Q8T1 and Q1T1 sit at the same 40 MB/s.
    let sweep = [
        p(4, 16, 1989.0, 8.15, 8000.0),
        p(8, 16, 1989.0, 16.3, 8000.0),
        p(16, 16, 1989.0, 32.6, 8000.0),
        p(32, 16, 1214.0, 39.8, 13000.0),
    ];
    let seq = [p(1024, 8, 38.0, 39.85, 210_000.0), p(1024, 1, 38.0, 39.85, 26_000.0)];
    let cat = Catalog::load_with(None, None).unwrap();
    let e = explain(&[&sweep[..], &seq].concat(), &cat, &Config::default(), 0.10, &Default::default()).unwrap();
    let cap = e.walls.mbps_cap.expect("a MB/s cap");
    assert!((cap - 39.85).abs() < 0.01, "{cap}");
    assert_eq!(e.walls.iops_cap, Some(1989.0));
    assert_eq!(e.walls.crossover_bs, Some((cap * 1e6 / 1989.0).round() as u64));
    // Without them, one step at 40 MB/s is no plateau.
    assert_eq!(explain(&sweep, &cat, &Config::default(), 0.10, &Default::default()).unwrap().walls.mbps_cap, None);
    // A large block well above the last step: the sweep had not reached the wall.
    let fast = [p(1024, 8, 200.0, 209.7, 40_000.0), seq[1].clone()];
    assert_eq!(
        explain(&[&sweep[..], &fast].concat(), &cat, &Config::default(), 0.10, &Default::default())
            .unwrap()
            .walls
            .mbps_cap,
        None
    );
    // One at a time, 1M under the sweep's MB/s is latency's, not a plateau.
    let slow = [p(1024, 1, 20.0, 21.0, 50_000.0)];
    assert_eq!(
        explain(&[&sweep[..], &slow].concat(), &cat, &Config::default(), 0.10, &Default::default())
            .unwrap()
            .walls
            .mbps_cap,
        None
    );
}

#[test]
fn a_sweep_that_jumped_to_1m_has_its_plateau_confirmed_at_other_depths() {
    // The budget ran short after 8K: the sweep went straight to 1M, alone at 200 MB/s.
    let sweep = [p(4, 16, 5000.0, 20.5, 3200.0), p(8, 16, 5000.0, 41.0, 3200.0), p(1024, 16, 190.0, 199.5, 84_000.0)];
    let seq = [p(1024, 8, 191.0, 200.0, 42_000.0), p(1024, 1, 190.0, 199.9, 5_200.0)];
    let cat = Catalog::load_with(None, None).unwrap();
    let e = explain(&[&sweep[..], &seq].concat(), &cat, &Config::default(), 0.10, &Default::default()).unwrap();
    assert_eq!(e.walls.iops_cap, Some(5000.0));
    assert_eq!(e.walls.mbps_cap, Some(199.9));
    assert_eq!(e.walls.binding.get("1M").map(Wall::as_str), Some("mbps"));
    assert_eq!(explain(&sweep, &cat, &Config::default(), 0.10, &Default::default()).unwrap().walls.mbps_cap, None);
}

#[test]
fn writes_with_walls_of_their_own_name_their_catalog_row() {
    // Reads at a P30's caps, writes at a P20's (2,300 IOPS, 150 MB/s): each direction's part of
    // the verdict names its own row.
    let sweep = |read: bool, iops: f64, mbps: f64| {
        let mut v = vec![
            p(4, 16, iops, iops * 4096.0 / 1e6, 3200.0),
            p(16, 16, iops * 0.97, iops * 0.97 * 16384.0 / 1e6, 3300.0),
            p(64, 16, mbps * 1e6 / 65536.0, mbps, 5000.0),
            p(256, 16, mbps * 1e6 / 262144.0, mbps, 20000.0),
        ];
        v.iter_mut().for_each(|x| x.read = read);
        v
    };
    let pts: Vec<Point> = [sweep(true, 5000.0, 200.0), sweep(false, 2300.0, 150.0)].concat();
    let e =
        explain(&pts, &Catalog::load_with(None, None).unwrap(), &Config::default(), 0.10, &Default::default()).unwrap();
    assert_eq!((e.writes.as_ref().unwrap().iops_cap, e.writes.as_ref().unwrap().mbps_cap), (Some(2300.0), Some(150.0)));
    assert!(e.matches.iter().any(|m| m.name == "Azure Premium SSD P30"), "{:?}", e.matches);
    let p20 = e.write_matches.iter().find(|m| m.name == "Azure Premium SSD P20").expect("P20 matches the writes");
    assert_eq!(p20.on.to_string(), "iops and mbps");
    let text = crate::report::findings(&e);
    let verdict = text.lines().find(|l| l.starts_with("Verdict: ")).unwrap();
    let writes = &verdict[verdict.find("; writes: ").unwrap()..];
    assert!(writes.contains("Azure Premium SSD P20"), "{verdict}");
    assert!(
        text.contains("\n  writes:\n    Azure Premium SSD P20 (2,300 IOPS, 150 MB/s): iops and mbps [catalog A41, A39 (read 2026-11-27)]\n"),
        "{text}"
    );
    let j = serde_json::to_value(&e).unwrap();
    assert!(j["write_matches"].as_array().unwrap().iter().any(|m| m["name"] == "Azure Premium SSD P20"), "{j}");
    // Reads alone: no writes' matches, and none in the JSON.
    let reads_only =
        explain(&pts[..4], &Catalog::load_with(None, None).unwrap(), &Config::default(), 0.10, &Default::default())
            .unwrap();
    assert!(
        reads_only.write_matches.is_empty()
            && serde_json::to_value(&reads_only).unwrap().get("write_matches").is_none()
    );
}

#[test]
fn matches_leave_out_rows_the_host_cannot_be() {
    use super::matching::{matches, HostFit};
    let cat = Catalog::load_with(None, None).unwrap();
    let names = |iops: f64, mbps: Option<f64>, fit: &HostFit| -> Vec<String> {
        matches(&cat, Some(iops), mbps, 0.02, fit).into_iter().map(|m| m.name).collect()
    };
    let n2 = |v: &[String]| v.iter().any(|n| n.starts_with("GCP VM n2 32-63 vCPU"));
    // The case: a 2-vCPU host's write cap named a 32-63 vCPU machine.
    let small = HostFit { cloud: None, vcpus: Some(2), memory_gib: Some(23.5) };
    assert!(n2(&names(60000.0, None, &HostFit::default())), "{:?}", names(60000.0, None, &HostFit::default()));
    assert!(!n2(&names(60000.0, None, &small)));
    let big_google = HostFit { cloud: Some("gcp"), vcpus: Some(32), memory_gib: None };
    assert!(n2(&names(60000.0, None, &big_google)));
    // On Azure (or Hyper-V), no GCP or AWS row, disk or VM.
    let azure = HostFit { cloud: Some("azure"), vcpus: Some(32), memory_gib: None };
    assert!(names(60000.0, None, &azure).iter().all(|n| n.starts_with("Azure ")), "{:?}", names(60000.0, None, &azure));
    // D2s_v3 (2 vCPUs, 8 GiB): a guest sees a little less memory, never three times as much.
    let d2s = |gib: f64| {
        names(3200.0, Some(48.0), &HostFit { cloud: Some("azure"), vcpus: Some(2), memory_gib: Some(gib) })
            .iter()
            .any(|n| n.contains("D2s_v3"))
    };
    assert!(d2s(7.75));
    assert!(!d2s(23.5));
    assert!(!d2s(4.0));
}

#[test]
fn the_host_fit_reads_the_dmi_vendor() {
    use super::matching::HostFit;
    let mut h: crate::result::Host = serde_json::from_value(serde_json::json!({
        "hostname": "vm", "os": "", "kernel": "", "arch": "x86_64", "cpu_model": "", "cores": 4,
        "memory_bytes": 16u64 << 30, "vm_vendor": "Microsoft Corporation", "vm_product": "Virtual Machine", "targets": []
    }))
    .unwrap();
    assert_eq!(HostFit::of(&h), HostFit { cloud: Some("azure"), vcpus: Some(4), memory_gib: Some(16.0) });
    for (vendor, cloud) in
        [("Amazon EC2", Some("aws")), ("Google", Some("gcp")), ("VMware, Inc.", None), ("QEMU", None)]
    {
        h.vm_vendor = Some(vendor.into());
        assert_eq!(HostFit::of(&h).cloud, cloud, "{vendor}");
    }
    h.vm_vendor = None;
    h.cores = 0;
    h.memory_bytes = 0;
    assert_eq!(HostFit::of(&h), HostFit::default());
}

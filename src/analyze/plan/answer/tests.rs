use super::*;
use crate::workload::observed::Role;

fn file(name: &str, reads: f64, read_bytes: f64, writes: f64, write_bytes: f64) -> Observed {
    let (read_wait_ms, write_wait_ms) = (None, None);
    Observed {
        name: name.into(),
        role: Role::Data,
        seconds: 10.0,
        reads,
        read_bytes,
        read_wait_ms,
        writes,
        write_bytes,
        write_wait_ms,
    }
}

#[test]
fn the_counters_target_is_every_file_together_raised_by_the_headroom() {
    let s = FromStats::new(vec![file("data", 1000.0, 8.0e6, 500.0, 4.0e6), file("log", 0.0, 0.0, 2000.0, 2.0e7)], 20.0);
    assert_eq!(s.observed_iops, 100.0 + 50.0 + 200.0);
    assert!((s.observed_mbps - 3.2).abs() < 1e-12, "{}", s.observed_mbps);
    assert!((s.target.iops - 420.0).abs() < 1e-9 && (s.target.mbps - 3.84).abs() < 1e-12, "{:?}", s.target);
    let v = serde_json::to_value(StatsPlan { stats: &s, candidates: &[] }).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["candidates", "headroom_pct", "observed", "observed_iops", "observed_mbps", "target"]);
}

#[test]
fn a_prediction_needs_a_disk_or_a_vm_and_counts_large_ios_as_several() {
    let cat = Catalog::built_in();
    let none = Config { count: 1, ..Config::default() };
    assert_eq!(predict(&cat, &none).unwrap_err().option, "--disk");
    let p30 = Config { disk: Some("P30".into()), count: 1, ..Config::default() };
    let (p, disk) = predict(&cat, &p30).unwrap();
    assert_eq!(disk.map(|d| d.name.as_str()), Some("P30"));
    let sizes: Vec<u64> = p.at_block_size.iter().map(|a| a.bs).collect();
    assert_eq!(sizes, SIZES);
    // P30: 5,000 IOPS, 200 MB/s; 4K is bound by IOPS, 1M by MB/s.
    assert_eq!((p.at_block_size[0].binds, p.at_block_size[5].binds), ("iops", "mbps"));
    assert!((p.at_block_size[5].mbps - 200.0).abs() < 1e-9, "{:?}", p.at_block_size[5]);
}

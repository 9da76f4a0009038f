use super::*;

fn hist(json: &str) -> HistDump {
    serde_json::from_str(json).expect("a histogram")
}

#[test]
fn a_blk_throttled_loop_device_at_qd16_shows_two_modes_at_the_refill() {
    // Read latency of `run --qd 16` on a loop device capped at 1,000 IOPS by blkio.
    let said = token_bucket(&hist(include_str!("throttled_qd16.json"))).expect("the signature");
    assert!(said.starts_with("latency in two modes, 8"), "{said}");
    assert!(said.contains("% near 98 ms") || said.contains("% near 99 ms"), "{said}");
}

#[test]
fn the_same_device_unthrottled_or_one_spread_out_mode_has_none() {
    assert_eq!(token_bucket(&hist(include_str!("free_qd16.json"))), None);
    // One wide mode: 100 µs to 10 ms evenly on a log scale.
    let buckets: Vec<(u64, u64)> = (0..200).map(|i| ((1e5 * 10f64.powf(i as f64 / 100.0)) as u64, 10)).collect();
    let h = HistDump { count: 2000, buckets, ..hist(include_str!("free_qd16.json")) };
    assert_eq!(token_bucket(&h), None);
    // Too few I/Os to tell.
    let few = HistDump { count: 100, ..hist(include_str!("throttled_qd16.json")) };
    assert_eq!(token_bucket(&few), None);
}

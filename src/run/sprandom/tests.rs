use super::*;

#[test]
fn the_stream_writes_every_block_and_the_physical_size_with_the_models_invalidations() {
    let s = Settings { op: 0.10, regions: 50, cache: 0 };
    let blocks = 8192; // fio's t/sprandom.py test 1: 32 MiB of 4 KiB blocks
    let mut g = SpRandom::new(s, blocks, 4096, 7);
    let mut seen = vec![0u32; blocks as usize];
    let mut n = 0u64;
    while let Some(b) = g.next() {
        seen[b as usize] += 1;
        n += 1;
    }
    assert!(seen.iter().all(|&c| c >= 1), "every logical block written");
    let physical = physical_size(0.10, blocks * 4096, 4096) / 4096;
    assert!(n.abs_diff(physical) <= physical / 25, "{n} writes for {physical} physical blocks");
    // The rewrites are the invalidations: about what the regions' invalid shares add up to.
    let rewrites: u64 = seen.iter().map(|&c| u64::from(c) - 1).sum();
    let expected: f64 = validity(50, 0.10).iter().map(|v| (1.0 - v) * g.region_writes as f64).sum();
    assert!((rewrites as f64 - expected).abs() < expected * 0.1 + 20.0, "{rewrites} rewrites, model {expected:.0}");
}

#[test]
fn with_a_cache_the_invalidations_wait_a_region_longer() {
    let s = Settings { op: 0.10, regions: 100, cache: 32 << 10 };
    let mut g = SpRandom::new(s, 8192, 4096, 3);
    let order: Vec<u64> = std::iter::from_fn(|| g.next()).collect();
    let region = g.region_writes as usize;
    // No block is written twice within two regions' worth of writes.
    let mut last = std::collections::HashMap::new();
    for (i, b) in order.iter().enumerate() {
        if let Some(j) = last.insert(*b, i) {
            assert!(i - j >= region, "block {b} again after {} writes", i - j);
        }
    }
}

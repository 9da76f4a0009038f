use super::*;

#[test]
fn a_pools_slots_are_aligned_apart_and_each_its_own() {
    let mut p = BufPool::try_new(256, 4096).unwrap();
    assert_eq!((p.count(), p.len()), (256, 4096));
    let base = p.ptr(0) as usize;
    assert_eq!(base % AlignedBuf::ALIGN, 0);
    for i in 0..256 {
        assert_eq!(p.ptr(i) as usize, base + i * 4096, "slot {i}");
        p.slot(i).fill(i as u8);
    }
    assert!((0..256).all(|i| p.slot(i).iter().all(|&b| b == i as u8)));
}

#[test]
fn odd_sizes_round_up_to_the_page_and_large_ones_never_straddle_a_huge_page() {
    let p = BufPool::try_new(3, 5000).unwrap();
    assert_eq!(p.len(), 8192);
    let mut big = BufPool::try_new(4, 1536 << 10).unwrap();
    assert_eq!(big.len(), 2 << 20);
    let base = big.ptr(0) as usize;
    assert_eq!(base % AlignedBuf::HUGE, 0);
    assert_eq!(big.ptr(3) as usize - base, 6 << 20);
    let mut one = BufPool::try_new(2, 1 << 20).unwrap();
    assert_eq!((one.len(), one.ptr(1) as usize - one.ptr(0) as usize), (1 << 20, 1 << 20));
}

#[test]
fn pools_kept_apart_start_on_boundaries_of_their_own() {
    const APART: usize = 16 << 20;
    let mut a = BufPool::apart(4, 4096, APART).unwrap();
    let mut b = BufPool::apart(4, 4096, APART).unwrap();
    let (pa, pb) = (a.ptr(0) as usize, b.ptr(0) as usize);
    assert_eq!((pa % APART, pb % APART), (0, 0));
    // No 16 MiB span holds buffers of both.
    assert_ne!(pa / APART, pb / APART);
    assert_eq!(a.slot(3).len(), 4096);
    // The boundary places the region; it does not size it (a worker once zeroed 16 MiB).
    assert_eq!((a.mem.len(), b.mem.len()), (4 * 4096, 4 * 4096));
}

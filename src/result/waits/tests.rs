use super::WaitStats;

#[test]
fn calls_land_in_their_bucket_and_sum() {
    let mut w = WaitStats::default();
    for (waited, n) in [(true, 1), (true, 1), (true, 0), (false, 3), (false, 12)] {
        w.call(waited, n);
    }
    assert_eq!(w.wait, [1, 2, 0, 0, 0, 0, 0, 0]);
    assert_eq!(w.lookaside, [0, 0, 0, 1, 0, 0, 0, 1]);
    assert_eq!((w.full_waits(), w.lookasides(), w.completions()), (3, 2, 2 + 3 + 7));
    w.throttle_wait = 1;
    assert_eq!(w.full_waits(), 2);
}

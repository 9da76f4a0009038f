use super::*;

#[test]
fn a_budget_is_taken_one_io_at_a_time_and_given_back() {
    let t = IoCount::new(true);
    t.begin(2, 1.0);
    assert!((0..1000).all(|_| t.claim()), "no budget: every I/O goes");
    t.limit(3);
    assert!(t.claim() && t.claim() && !t.spent());
    t.give_back();
    assert!(t.claim() && t.claim() && t.spent() && !t.claim());
    t.publish(0, 10, 40960);
    t.publish(1, 5, 20480);
    t.publish(7, 1, 1);
    assert_eq!((t.progress().ios, t.progress().bytes), (15, 61440));
}

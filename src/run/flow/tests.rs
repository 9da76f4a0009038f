use super::*;

fn spec(id: u32, weight: u32) -> Spec {
    Spec { flow: Some(Flow { id, weight, sleep_us: 0 }), ..Spec::default() }
}

/// Workers that always try to issue, taken in turn: the counts follow the weights exactly.
#[test]
fn issued_counts_follow_the_weights() {
    let (a, b, c) = (spec(0, 3), spec(0, 2), spec(0, 1));
    let flows = Flows::of([(&a, 1), (&b, 1), (&c, 1)].into_iter());
    let mut m: Vec<Member> = [&a, &b, &c].iter().map(|s| flows.member(s).unwrap()).collect();
    let mut held = 0;
    while m.iter().map(|w| w.own).sum::<u64>() < 6000 {
        for w in m.iter_mut() {
            if w.held() {
                held += 1;
            } else {
                w.took();
            }
        }
    }
    let own: Vec<u64> = m.iter().map(|w| w.own).collect();
    for (o, want) in own.iter().zip([3000, 2000, 1000]) {
        assert!(o.abs_diff(want) <= 2, "{own:?}");
    }
    assert!(held > 1000, "{held}");
    for w in m.iter_mut() {
        w.leave();
    }
    assert_eq!((flows.0[0].issued.load(Relaxed), flows.0[0].weight.load(Relaxed)), (1, 0));
}

/// Groups are separate; a worker left alone in its group is never held back.
#[test]
fn groups_are_separate_and_a_lone_worker_runs_free() {
    let (a, b, c) = (spec(1, 8), spec(1, 1), spec(2, 5));
    let flows = Flows::of([(&a, 2), (&b, 1), (&c, 1)].into_iter());
    assert_eq!(flows.0.len(), 2);
    assert_eq!(flows.0[0].weight.load(Relaxed), 17);
    let mut lone = flows.member(&c).unwrap();
    for _ in 0..1000 {
        assert!(!lone.held());
        lone.took();
    }
    let mut slow = flows.member(&b).unwrap();
    slow.took();
    assert!(slow.held(), "1 of 2 issued is more than its weight's 1/17");
    assert!(flows.member(&Spec::default()).is_none());
}

use super::*;

/// One worker's second `sec` of `n` I/Os of `ns` each.
fn second(sec: u32, n: u64, ns: u64) -> SecondData {
    let mut d = SecondData { sec, ios: [n, 0], bytes: [n * 4096, 0], ..Default::default() };
    for _ in 0..n {
        d.hist.record(ns);
    }
    d
}

/// The percentile `p` of a histogram of each `(n, ns)`: `n` I/Os of `ns`, as a second would give it.
fn pct(ios: &[(u64, u64)], p: f64) -> Option<f64> {
    let mut h = SecondHist::default();
    for &(n, ns) in ios {
        for _ in 0..n {
            h.record(ns);
        }
    }
    h.percentile_us(p)
}

#[test]
fn a_second_is_sealed_once_every_worker_has_moved_past_it_and_keeps_its_figures() {
    let boxes = [Mailbox::new(), Mailbox::new()];
    let mut c = Collector::new(2);
    // Worker 0 hands over seconds 0 and 1; worker 1 only second 0 and is in second 1.
    let mut cur = second(0, 10, 100_000);
    boxes[0].flush(&mut cur, 1);
    cur = second(1, 10, 300_000);
    boxes[0].flush(&mut cur, 2);
    let mut cur1 = second(0, 30, 200_000);
    boxes[1].flush(&mut cur1, 1);
    c.collect(&boxes, false);
    assert!(c.seconds[0].hist.is_none(), "second 0: every worker is past it");
    assert!(c.seconds[1].hist.is_some(), "second 1: worker 1 may still hand some over");
    let first = [(10, 100_000), (30, 200_000)];
    assert_eq!((c.seconds[0].p50_us(), c.seconds[0].ios), (pct(&first, 50.0), [40, 0]));
    assert_eq!(c.seconds[0].p99_us(), pct(&first, 99.0));
    assert!(c.seconds[0].p50_us().is_some_and(|v| (v - 200.0).abs() < 2.0));
    // Worker 1's second 1 arrives, and it ends: second 1 is sealed with both workers' I/Os.
    cur1 = second(1, 30, 100_000);
    boxes[1].flush(&mut cur1, u32::MAX);
    c.collect(&boxes, true);
    let s = &c.seconds[1];
    assert!(s.hist.is_none());
    let both = [(10, 300_000), (30, 100_000)];
    assert_eq!((s.p50_us(), s.p99_us(), s.ios), (pct(&both, 50.0), pct(&both, 99.0), [40, 0]));
    let counts: Vec<u64> = s.buckets().iter().map(|b| b[1]).collect();
    assert_eq!(counts, [30, 10]);
    assert!(c.seconds[0].buckets().is_empty(), "sealed before buckets were asked for");
}

#[test]
fn an_idle_worker_holds_no_second_back_once_it_moves_on() {
    let boxes = [Mailbox::new(), Mailbox::new()];
    let mut c = Collector::new(2);
    let mut cur = second(0, 5, 50_000);
    boxes[0].flush(&mut cur, 3);
    c.collect(&boxes, false);
    assert!(c.seconds[0].hist.is_some(), "worker 1 has said nothing yet");
    // Worker 1 had nothing to hand over, but is in second 3 now.
    let mut idle = SecondData::default();
    boxes[1].flush(&mut idle, 3);
    c.collect(&boxes, false);
    assert!(c.seconds[0].hist.is_none());
    assert_eq!(c.seconds[0].p50_us(), pct(&[(5, 50_000)], 50.0));
}

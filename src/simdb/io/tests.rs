use super::*;

/// One I/O of `ns` through the gauge, unthrottled.
fn done(g: &Gauge, ns: u64) {
    g.in_flight.fetch_add(1, Ordering::AcqRel);
    g.exit(ns, Op::Read);
}

#[test]
fn the_running_average_weighs_each_io_an_eighth() {
    let g = Gauge::default();
    done(&g, 8_000_000);
    done(&g, 0);
    let mut f = SimdbFile::default();
    g.fill(&mut f);
    assert_eq!((f.running_avg_io_ms, f.max_running_avg_io_ms, f.throttled), (7.0, 8.0, 0));
}

#[test]
fn a_slow_flush_leaves_the_average_alone() {
    let g = Gauge::default();
    done(&g, 2_000_000);
    g.in_flight.fetch_add(1, Ordering::AcqRel);
    g.exit(1_600_000_000, Op::Flush);
    let mut f = SimdbFile::default();
    g.fill(&mut f);
    assert_eq!((f.running_avg_io_ms, f.max_running_avg_io_ms), (2.0, 2.0));
    assert_eq!(g.in_flight.load(Ordering::Relaxed), 0);
}

#[test]
fn above_the_target_a_second_io_waits_for_the_first_and_is_counted() {
    let g = Gauge::default();
    let stop = AtomicBool::new(false);
    done(&g, 200_000_000);
    // Above a 100 ms target with nothing in flight: one I/O may go.
    g.enter(100_000_000, &stop);
    std::thread::scope(|s| {
        let waiter = s.spawn(|| {
            g.enter(100_000_000, &stop);
            g.exit(1_000_000, Op::Write);
        });
        std::thread::sleep(Duration::from_millis(50));
        assert!(!waiter.is_finished(), "the second I/O went while the first was in flight");
        g.exit(1_000_000, Op::Write);
        waiter.join().unwrap();
    });
    let mut f = SimdbFile::default();
    g.fill(&mut f);
    assert_eq!(f.throttled, 1);
    assert!(f.running_avg_io_ms < 200.0 && f.max_running_avg_io_ms == 200.0, "{f:?}");
}

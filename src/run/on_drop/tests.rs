use super::*;

fn check(pct: f64, window_s: u32) -> DropCheck {
    DropCheck::new(DropStop { pct, window_s })
}

/// Feeds `secs` one by one; the second (1-based count fed) at which it dropped.
fn feed(d: &mut DropCheck, secs: impl IntoIterator<Item = f64>) -> Option<u32> {
    for x in secs {
        d.fed += 1;
        d.take(x);
        if d.out.is_some() {
            return d.out.map(|o| o.at_s);
        }
    }
    None
}

#[test]
fn a_fall_that_stays_for_the_window_stops_the_run_at_its_end() {
    let mut d = check(30.0, 5);
    // 20 s at 2,000, then 1,000: the window is all low 5 s after the fall.
    let at = feed(&mut d, (0..20).map(|_| 2000.0).chain((0..20).map(|_| 1000.0)));
    assert_eq!(at, Some(25));
    let o = d.out.unwrap();
    assert_eq!((o.before, o.after, o.pct, o.window_s), (2000.0, 1000.0, 30.0, 5));
}

#[test]
fn a_dip_shorter_than_the_window_or_smaller_than_asked_goes_on() {
    // 4 slow seconds in a 5-second window: one second of the window is back up.
    let dip = (0..20).map(|_| 2000.0).chain((0..4).map(|_| 500.0)).chain((0..20).map(|_| 2000.0));
    assert_eq!(feed(&mut check(30.0, 5), dip), None);
    // 20 % down where 30 % is asked.
    let small = (0..20).map(|_| 2000.0).chain((0..20).map(|_| 1600.0));
    assert_eq!(feed(&mut check(30.0, 5), small), None);
    // One second of the window at the old level: not stayed.
    let back = (0..20).map(|_| 2000.0).chain([1000.0, 1000.0, 2000.0, 1000.0, 1000.0]);
    assert_eq!(feed(&mut check(30.0, 5), back), None);
}

#[test]
fn the_history_stays_bounded_however_long_the_run() {
    let mut d = check(50.0, 10);
    assert_eq!(feed(&mut d, (0..100_000).map(|i| 1000.0 + (i % 7) as f64)), None);
    assert_eq!(d.history.len(), REFERENCE_S + 10);
}

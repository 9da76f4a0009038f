//! `-vs`: each thread's wait statistics, in DiskSpd 2.3's split (ResultParser's "Completion
//! Wait" and "Lookaside" tables; XmlResultParser's `<WaitStatistics>`). The lookaside table
//! only with -L or -D, whose latency stamps are why DiskSpd looks aside after each dispatch.
//! Throttled runs add the rate's waits and sleeps, "---" for a thread without a rate. DiskSpd's
//! "wait" leaves the rate's waits out; its per-wait histogram counts them.

use super::profile::XmlOut;
use super::Shown;
use crate::result::waits::WaitStats;
use crate::result::TestResult;
use std::fmt::Write;

pub(super) fn text(o: &mut String, t: &TestResult, show: Shown) {
    let rows: Vec<(u32, WaitStats)> = t.threads.iter().map(|th| (th.thread, th.waits.unwrap_or_default())).collect();
    let throttled = rows.iter().any(|(_, w)| w.throttled);
    let extra = if throttled { "throttle wait  -  sleep | " } else { "" };
    let head = format!("thread |         wait | {extra}0 - 7+ complete per wait");
    let _ = writeln!(o, "\nWait Statistics - Completion Wait\n{head}\n{}", "-".repeat(head.len()));
    for (i, w) in &rows {
        let _ = write!(o, "{i:>6} | {:>12} | ", w.full_waits());
        match (throttled, w.throttled) {
            (true, true) => {
                let _ = write!(o, "{:>13}  - {:>6} | ", w.throttle_wait, w.throttle_sleep);
            }
            (true, false) => o.push_str("              ---       | "),
            _ => {}
        }
        let _ = writeln!(o, "{}", spaced(&w.wait));
    }
    if show.latency || show.iops {
        let _ = writeln!(o, "\nWait Statistics - Lookaside");
        let _ = writeln!(o, "thread |    lookaside | 0 - 7+ complete per lookaside\n{}", "-".repeat(53));
        for (i, w) in &rows {
            let _ = writeln!(o, "{i:>6} | {:>12} | {}", w.lookasides(), spaced(&w.lookaside));
        }
    }
}

/// 2.3's "IoRing Statistics": each thread's SubmitIoRing calls per second of the test.
pub(super) fn ring_text(o: &mut String, t: &TestResult) {
    let rate = |n: u64| n as f64 / t.duration_s;
    let _ = writeln!(o, "\n\nIoRing Statistics\nthread |  Submits/s \n{}", "-".repeat(20));
    let mut total = 0;
    for th in &t.threads {
        let n = th.waits.map_or(0, |w| w.submits);
        total += n;
        let _ = writeln!(o, "{:>6} | {:>11.2}", th.thread, rate(n));
    }
    let _ = writeln!(o, "{}\ntotal: | {:>11.2}", "-".repeat(20), rate(total));
}

/// A thread's `<WaitStatistics>`: 2.2's elements, with 2.3's `<WaitCompletion>` after the
/// waits it counts.
pub(super) fn xml(x: &mut XmlOut, w: &WaitStats) {
    x.open("WaitStatistics");
    x.leaf("CompletionWait", w.full_waits());
    x.leaf("WaitCompletion", spaced(&w.wait));
    x.leaf("ThrottleWait", w.throttle_wait);
    x.leaf("ThrottleSleep", w.throttle_sleep);
    x.leaf("Lookaside", w.lookasides());
    x.leaf("LookasideCompletion", spaced(&w.lookaside));
    x.close("WaitStatistics");
}

fn spaced(h: &[u64; 8]) -> String {
    h.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

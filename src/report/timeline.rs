//! A test over time: the per-second table, and the shifts found in it said one line each
//! ("at 31:40 IOPS fell 4,012 → 3,205 (-20 %) and stayed").

use super::cells::{RULE, TEXT};
use crate::analyze::thousands;
use crate::result::shifts::{Metric, Shift};
use crate::result::TestResult;
use std::fmt::Write;

pub(super) fn seconds_table(o: &mut String, t: &TestResult) {
    if t.seconds.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nPer second\nsecond |       IOPS |     MB/s |  p50 µs |  p99 µs");
    let _ = writeln!(o, "{}", &RULE[..52]);
    for s in &t.seconds {
        let (p50, p99) = (TEXT.us(s.p50_us), TEXT.us(s.p99_us));
        let _ = writeln!(o, "{:>6} | {:>10.1} | {:>8.2} | {p50:>7} | {p99:>7}", s.second, s.iops, s.mbps);
    }
}

/// The test's shifts, a line each, and the cause where one was named.
pub(super) fn shift_lines(o: &mut String, t: &TestResult) {
    if let Some(d) = &t.dropped {
        let _ = writeln!(
            o,
            "stopped at {}: IOPS fell {} → {} ({:+.0} %) and stayed down {} s (--stop-on-drop {} %)",
            clock(d.at_s),
            thousands(d.before),
            thousands(d.after),
            (d.after / d.before - 1.0) * 100.0,
            d.window_s,
            d.pct
        );
    }
    for s in &t.shifts {
        let _ = writeln!(o, "{}", line(s));
        if let Some(c) = &s.cause {
            let _ = writeln!(o, "    cause: {c}");
        }
    }
}

/// One shift in words.
pub fn line(s: &Shift) -> String {
    let pct = s.change() * 100.0;
    let how = if pct < 0.0 { "fell" } else { "rose" };
    let held = if s.stayed { "and stayed".to_string() } else { format!("for {} s", s.after.end_s - s.after.start_s) };
    format!(
        "at {} {} {how} {} → {}{} ({pct:+.0} %) {held}",
        clock(s.at_s),
        s.metric.label(),
        figure(s.metric, s.before.mean),
        figure(s.metric, s.after.mean),
        s.metric.unit()
    )
}

/// m:ss from the start of measuring, h:mm:ss past an hour.
pub fn clock(at_s: u32) -> String {
    let (h, m, s) = (at_s / 3600, at_s / 60 % 60, at_s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

fn figure(m: Metric, v: f64) -> String {
    match m {
        Metric::Mbps if v < 100.0 => format!("{v:.1}"),
        _ => thousands(v),
    }
}

#[cfg(test)]
mod tests;

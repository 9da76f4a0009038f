//! A sweep's table: one row per point, the swept values first, then what the point achieved.

use super::cells::TEXT;
use super::text::header;
use crate::result::RunResult;
use std::fmt::Write;

pub fn render(r: &RunResult) -> String {
    let mut o = header(r);
    if let Some(t) = r.tests.first() {
        let _ = writeln!(
            o,
            "\n{} s per point, engine {}, {}",
            t.spec.duration,
            t.engine,
            super::cells::unbuffered(&r.host, t.spec.direct)
        );
    }
    let w = r.tests.iter().map(|t| t.name.len()).max().unwrap_or(5).max(5);
    let _ = writeln!(
        o,
        "\n{:<w$} | {:>11} | {:>9} | {:>9} | {:>9} | {:>9} | {:>7}",
        "point", "IOPS", "MB/s", "mean µs", "p50 µs", "p99 µs", "mean QD"
    );
    let _ = writeln!(o, "{}", "-".repeat(w + 72));
    for t in &r.tests {
        let l = &t.total.lat_us;
        let _ = writeln!(
            o,
            "{:<w$} | {:>11.1} | {:>9.2} | {:>9} | {:>9} | {:>9} | {:>7.2}",
            t.name,
            t.total.iops,
            t.total.mbps,
            TEXT.us(l.mean),
            TEXT.us(l.percentiles.get("50")),
            TEXT.us(l.percentiles.get("99")),
            t.mean_qd
        );
    }
    let _ = writeln!(o, "\nMB/s = 10^6 B/s; latency from submission to completion.");
    if r.interrupted {
        let _ = writeln!(o, "\nINTERRUPTED: points after the interruption did not run.");
    }
    o
}

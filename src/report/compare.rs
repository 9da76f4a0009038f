//! The comparison table: one row per test and operation, IOPS, MB/s, p50 and p99 per result,
//! and the verdict of each result against the baseline, thresholds printed under it.

use crate::compare::{rows, verdict};
use crate::result::RunResult;
use std::fmt::Write;

/// `names[i]` heads result i's columns; `base` is the baseline's index; `same` the ≈ tolerance.
pub fn render(results: &[RunResult], names: &[String], base: usize, same: f64) -> String {
    let mut o = String::new();
    for (n, r) in names.iter().zip(results) {
        let vm = r.host.vm_product.as_deref().map(|p| format!(" ({p})")).unwrap_or_default();
        let _ = writeln!(
            o,
            "{n}: {} {}{vm}, {} at {}",
            r.host.hostname,
            r.command,
            r.host.targets.first().map_or("", |t| t.path.as_str()),
            r.started_at
        );
    }
    let rows = rows(results);
    // A mix has a row per operation; a pure read or write test is its own operation.
    let label =
        |r: &crate::compare::Row| if r.key.contains(" Mix") { format!("{} {}", r.key, r.op) } else { r.key.clone() };
    let w = rows.iter().map(|r| label(r).len()).max().unwrap_or(10).max(10);
    let _ = write!(o, "\n{:<w$}", "test");
    for (i, n) in names.iter().enumerate() {
        let short: String = n.chars().take(24).collect();
        let _ = write!(o, " | {short:^40}");
        if i != base {
            let _ = write!(o, " | {:^7}", "verdict");
        }
    }
    let _ = writeln!(o);
    let _ = write!(o, "{:<w$}", "");
    for i in 0..names.len() {
        let _ = write!(o, " | {:>10} {:>9} {:>9} {:>9}", "IOPS", "MB/s", "p50 µs", "p99 µs");
        if i != base {
            let _ = write!(o, " | {:^7}", "");
        }
    }
    let _ = writeln!(o);
    let mut missing = Vec::new();
    for row in &rows {
        let _ = write!(o, "{:<w$}", label(row));
        for (i, c) in row.cells.iter().enumerate() {
            match c {
                Some(s) => {
                    let us =
                        |k: &str| s.lat_us.percentiles.get(k).map(|v| format!("{v:.1}")).unwrap_or_else(|| "-".into());
                    let _ = write!(o, " | {:>10.1} {:>9.2} {:>9} {:>9}", s.iops, s.mbps, us("50"), us("99"));
                }
                None => {
                    let _ = write!(o, " | {:>40}", "(not in this result)");
                    missing.push(format!("{} is not in {}", label(row), names[i]));
                }
            }
            if i != base {
                let v = match (c, row.cells[base]) {
                    (Some(s), Some(b)) => verdict(s.iops, b.iops, same),
                    _ => "-".into(),
                };
                let _ = write!(o, " | {v:^7}");
            }
        }
        let _ = writeln!(o);
    }
    let _ = writeln!(
        o,
        "\nVerdicts compare IOPS with {} (the baseline): ≈ within ±{:.0} %, > or < below 2×, then one sign per factor (>> 2×, >>> 3×, >>>>> 5×).",
        names[base],
        same * 100.0
    );
    let _ = writeln!(o, "MB/s = 10^6 B/s; latency from submission to completion.");
    missing.dedup();
    for m in missing {
        let _ = writeln!(o, "note: {m}");
    }
    o
}

//! The comparison in text, CSV and Markdown: one row per test and operation, IOPS, MB/s, p50
//! and p99 per result, and each result's verdict against the baseline.

use super::cells::TEXT;
use crate::compare::Comparison;
use std::fmt::Write;

/// The line under every comparison: what the signs mean.
pub fn legend(c: &Comparison) -> String {
    format!(
        "Verdicts compare IOPS with {} (the baseline): ≈ within ±{:.0} %, > or < below 2×, then one sign per factor (>> 2×, >>> 3×, >>>>> 5×; from 10× nine signs and the factor).",
        c.results[c.baseline].name,
        c.same * 100.0
    )
}

pub fn text(c: &Comparison) -> String {
    let mut o = String::new();
    for s in &c.results {
        let vm = s.vm.as_deref().map(|p| format!(" ({p})")).unwrap_or_default();
        let target = s.target.as_deref().unwrap_or("");
        let cut = if s.interrupted { " (INTERRUPTED: cut short, a partial measurement)" } else { "" };
        let _ = writeln!(o, "{}: {}{vm}, {} {target} at {}{cut}", s.name, s.host, s.command, s.started_at);
    }
    let w = c.rows.iter().map(|r| r.test.chars().count()).max().unwrap_or(10).max(10);
    let vw =
        c.rows.iter().flat_map(|r| r.verdicts.iter().flatten()).map(|v| v.chars().count()).max().unwrap_or(7).max(7);
    let _ = write!(o, "\n{:<w$}", "test");
    for (i, s) in c.results.iter().enumerate() {
        let short: String = s.name.chars().take(24).collect();
        let _ = write!(o, " | {short:^40}");
        if i != c.baseline {
            let _ = write!(o, " | {:^vw$}", "verdict");
        }
    }
    let _ = writeln!(o);
    let _ = write!(o, "{:<w$}", "");
    for i in 0..c.results.len() {
        let _ = write!(o, " | {:>10} {:>9} {:>9} {:>9}", "IOPS", "MB/s", "p50 µs", "p99 µs");
        if i != c.baseline {
            let _ = write!(o, " | {:^vw$}", "");
        }
    }
    let _ = writeln!(o);
    for row in &c.rows {
        let _ = write!(o, "{:<w$}", row.test);
        for (cell, v) in row.cells.iter().zip(&row.verdicts) {
            match cell {
                Some(s) => {
                    let _ = write!(
                        o,
                        " | {:>10.1} {:>9.2} {:>9} {:>9}",
                        s.iops,
                        s.mbps,
                        TEXT.us(s.p50_us),
                        TEXT.us(s.p99_us)
                    );
                }
                None => {
                    let _ = write!(o, " | {:>40}", "(not in this result)");
                }
            }
            if let Some(v) = v {
                let _ = write!(o, " | {v:^vw$}");
            }
        }
        let _ = writeln!(o);
    }
    let _ = writeln!(o, "\n{}", legend(c));
    let _ = writeln!(o, "MB/s = 10^6 B/s; latency from submission to completion.");
    for m in c.missing.iter().chain(&c.builds) {
        let _ = writeln!(o, "note: {m}");
    }
    o
}

/// One row per test, operation and result, with the verdict against the baseline.
pub fn csv(c: &Comparison) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let head = ["test", "op", "result", "host", "baseline", "iops", "mbps", "p50_us", "p99_us", "verdict"];
    w.write_record(head).expect("writing to memory");
    let num = |v: Option<f64>| v.map(|x| format!("{x:.3}")).unwrap_or_default();
    for row in &c.rows {
        for (i, (cell, v)) in row.cells.iter().zip(&row.verdicts).enumerate() {
            let s = &c.results[i];
            w.write_record([
                row.test.as_str(),
                row.op,
                s.name.as_str(),
                s.host.as_str(),
                if i == c.baseline { "true" } else { "false" },
                &num(cell.map(|x| x.iops)),
                &num(cell.map(|x| x.mbps)),
                &num(cell.and_then(|x| x.p50_us)),
                &num(cell.and_then(|x| x.p99_us)),
                v.as_deref().unwrap_or(""),
            ])
            .expect("writing to memory");
        }
    }
    String::from_utf8(w.into_inner().expect("flushing to memory")).expect("CSV of UTF-8 fields")
}

/// The table users paste into a wiki: a column of MB/s and IOPS per result, then the verdicts, bold where one
/// side is 2× or more ahead.
pub fn markdown(c: &Comparison) -> String {
    let mut o = String::new();
    let cell = |s: &str| s.replace('|', "\\|");
    let _ = writeln!(o, "### iolens compare\n");
    for s in &c.results {
        let vm = s.vm.as_deref().map(|p| format!(" ({p})")).unwrap_or_default();
        let cut = if s.interrupted { " (**interrupted**: a partial measurement)" } else { "" };
        let _ = writeln!(o, "- **{}**: {}{vm}, {} at {}{cut}", cell(&s.name), cell(&s.host), s.command, s.started_at);
    }
    let _ = write!(o, "\n| test |");
    for (i, s) in c.results.iter().enumerate() {
        let _ = write!(o, " {} IOPS | {} MB/s | {} p99 µs |", cell(&s.name), cell(&s.name), cell(&s.name));
        if i != c.baseline {
            let _ = write!(o, " verdict |");
        }
    }
    let _ = write!(o, "\n|---|");
    for i in 0..c.results.len() {
        let _ = write!(o, "---:|---:|---:|");
        if i != c.baseline {
            let _ = write!(o, ":---:|");
        }
    }
    let _ = writeln!(o);
    for row in &c.rows {
        let _ = write!(o, "| {} |", row.test);
        for (x, v) in row.cells.iter().zip(&row.verdicts) {
            match x {
                Some(s) => {
                    // A missing p99 has always been a hyphen here, unlike the pages' en dash.
                    let _ = write!(o, " {:.0} | {:.2} | {} |", s.iops, s.mbps, TEXT.us(s.p99_us));
                }
                None => {
                    let _ = write!(o, " – | – | – |");
                }
            }
            if let Some(v) = v {
                let strong = v.chars().count() >= 2 && (v.starts_with('<') || v.starts_with('>'));
                let v = v.replace('<', "&lt;").replace('>', "&gt;");
                let _ = write!(o, " {} |", if strong { format!("**{v}**") } else { v });
            }
        }
        let _ = writeln!(o);
    }
    let _ = writeln!(o, "\n{}", legend(c));
    if !c.missing.is_empty() || c.builds.is_some() {
        let _ = writeln!(o);
    }
    for m in c.missing.iter().chain(&c.builds) {
        let _ = writeln!(o, "- {m}");
    }
    o
}

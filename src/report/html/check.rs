//! The top of a `check` or `explain` page: CrystalDiskMark's table as its users know it (MB/s,
//! read and write; IOPS and latency on hover and in a second table beside it), the verdict in
//! one sentence, and the sweep as curves.

use super::curves::{self, Source};
use super::esc;
use crate::analyze::thousands;
use crate::compare::test_key;
pub use crate::report::explain::verdict;
use crate::result::{Kind, RunResult, TestResult};
use crate::workload::presets::PROFILES;
use std::fmt::Write;

/// A CrystalDiskMark row: its label ("SEQ1M Q8T1") and its read and write tests.
pub type Row<'a> = (String, [Option<&'a TestResult>; 2]);

/// check's own CrystalDiskMark tests (the sweep's are named "sweep …"); for explain, which
/// runs none of its own, the sweep's steps that are CrystalDiskMark's default tests.
pub fn rows(r: &RunResult) -> Vec<Row<'_>> {
    let mut out: Vec<Row> = Vec::new();
    if r.kind() == Kind::Check {
        for t in r.tests.iter().filter(|t| !t.name.starts_with("sweep ")) {
            let Some((label, op)) = t.name.rsplit_once(' ') else { continue };
            let Some(k) = ["Read", "Write"].iter().position(|o| *o == op) else { continue };
            match out.iter_mut().find(|(l, _)| l == label) {
                Some((_, cells)) => cells[k] = Some(t),
                None => {
                    let mut cells = [None; 2];
                    cells[k] = Some(t);
                    out.push((label.to_string(), cells));
                }
            }
        }
    } else {
        for label in PROFILES[0].1 {
            let best = |op: &str| {
                let key = format!("{label} {op}");
                r.tests.iter().filter(|t| test_key(&t.spec) == key).max_by(|a, b| a.total.iops.total_cmp(&b.total.iops))
            };
            let cells = [best("Read"), best("Write")];
            if cells.iter().any(Option::is_some) {
                out.push((label.to_string(), cells));
            }
        }
    }
    out
}

fn us(v: Option<f64>) -> String {
    v.map(thousands).unwrap_or_else(|| "–".into())
}

/// What a hover over a MB/s figure shows.
pub fn hover(t: &TestResult) -> String {
    let l = &t.total.lat_us;
    format!("{} IOPS, mean {} µs, p99 {} µs", thousands(t.total.iops), us(l.mean), us(l.percentiles.get("99")))
}

pub fn tables(o: &mut String, r: &RunResult) {
    let rows = rows(r);
    if rows.is_empty() {
        return;
    }
    let cols: Vec<usize> = (0..2).filter(|&k| rows.iter().any(|(_, c)| c[k].is_some())).collect();
    let names = ["Read", "Write"];
    let _ = writeln!(o, "<h2>CrystalDiskMark</h2>\n<div class=\"pair\">\n<table class=\"cdm\"><tr><th></th>");
    for &k in &cols {
        let _ = write!(o, "<th>{} (MB/s)</th>", names[k]);
    }
    let _ = writeln!(o, "</tr>");
    for (label, cells) in &rows {
        let _ = write!(o, "<tr><th>{}</th>", esc(label));
        for &k in &cols {
            match cells[k] {
                Some(t) => {
                    let _ = write!(o, "<td class=n title=\"{}\">{:.2}</td>", esc(&hover(t)), t.total.mbps);
                }
                None => {
                    let _ = write!(o, "<td class=n>–</td>");
                }
            }
        }
        let _ = writeln!(o, "</tr>");
    }
    let _ = write!(o, "</table>\n<table><tr><th rowspan=2>test</th>");
    for &k in &cols {
        let _ = write!(o, "<th colspan=3>{}</th>", names[k]);
    }
    let _ = write!(o, "</tr>\n<tr>");
    for _ in &cols {
        let _ = write!(o, "<th>IOPS</th><th>mean µs</th><th>p99 µs</th>");
    }
    let _ = writeln!(o, "</tr>");
    for (label, cells) in &rows {
        let _ = write!(o, "<tr><td>{}</td>", esc(label));
        for &k in &cols {
            match cells[k] {
                Some(t) => {
                    let l = &t.total.lat_us;
                    let _ = write!(
                        o,
                        "<td class=n>{}</td><td class=n>{}</td><td class=n>{}</td>",
                        thousands(t.total.iops),
                        us(l.mean),
                        us(l.percentiles.get("99"))
                    );
                }
                None => {
                    let _ = write!(o, "<td colspan=3 class=note>not run</td>");
                }
            }
        }
        let _ = writeln!(o, "</tr>");
    }
    let _ = writeln!(o, "</table>\n</div>");
    if r.kind() != Kind::Check {
        let _ = writeln!(
            o,
            "<p class=\"note\">The sweep's steps that are CrystalDiskMark's tests; <code>iolens check</code> also runs its sequential ones.</p>"
        );
    }
}

/// The sweep's two charts, for one result or several overlaid.
pub fn sweep(o: &mut String, sources: &[Source]) {
    let by_depth = curves::by_depth(sources);
    let by_size = curves::by_block_size(sources);
    if by_depth.is_none() && by_size.is_none() {
        return;
    }
    let _ = writeln!(o, "<h2>Sweep</h2>");
    if let Some(svg) = by_depth {
        let caption = "IOPS and p99 latency against queue depth: where IOPS stops following IOPS = QD ÷ latency";
        let _ = writeln!(
            o,
            "<figure class=\"chart\" id=\"by-depth\"><figcaption>{}</figcaption>\n{svg}</figure>",
            esc(caption)
        );
    }
    if let Some(svg) = by_size {
        let caption = "MB/s and IOPS against block size: the IOPS cap binds small blocks, the MB/s cap large ones";
        let _ = writeln!(
            o,
            "<figure class=\"chart\" id=\"by-size\"><figcaption>{}</figcaption>\n{svg}</figure>",
            esc(caption)
        );
    }
}

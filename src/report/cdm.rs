//! CrystalDiskMark's table: one row per test, read and write (and mix) side by side in MB/s,
//! IOPS and mean latency. Rows come from the test names ("SEQ1M Q8T1 Read").

use super::text::header;
use crate::result::{RunResult, TestResult};
use std::fmt::Write;

const OPS: [&str; 3] = ["Read", "Write", "Mix"];

pub fn render(r: &RunResult) -> String {
    let mut o = header(r);
    let mut rows: Vec<(&str, [Option<&TestResult>; 3])> = Vec::new();
    for t in &r.tests {
        let Some((label, op)) = t.name.rsplit_once(' ') else { continue };
        let Some(k) = OPS.iter().position(|x| *x == op) else { continue };
        match rows.iter_mut().find(|(l, _)| *l == label) {
            Some((_, cells)) => cells[k] = Some(t),
            None => {
                let mut cells = [None; 3];
                cells[k] = Some(t);
                rows.push((label, cells));
            }
        }
    }
    let cols: Vec<usize> = (0..3).filter(|&k| rows.iter().any(|(_, c)| c[k].is_some())).collect();
    if let Some(t) = r.tests.first() {
        let s = &t.spec;
        let cache = super::cells::unbuffered(&r.host, s.direct);
        let _ = writeln!(
            o,
            "\n{} test file, {} s per pass, {cache}, engine {}",
            crate::workload::size::format_size(s.size),
            s.duration,
            t.engine
        );
    }
    for (title, unit) in [("MB/s", 0), ("IOPS", 1), ("latency (mean µs)", 2)] {
        let _ = write!(o, "\n{:<18}", title);
        for &k in &cols {
            let _ = write!(o, " | {:>10}", OPS[k]);
        }
        let _ = writeln!(o);
        let _ = writeln!(o, "{}", "-".repeat(18 + 13 * cols.len()));
        for (label, cells) in &rows {
            let _ = write!(o, "{label:<18}");
            for &k in &cols {
                let v = cells[k].map(|t| match unit {
                    0 => format!("{:.2}", t.total.mbps),
                    1 => format!("{:.2}", t.total.iops),
                    _ => t.total.lat_us.mean.map(|m| format!("{m:.2}")).unwrap_or_else(|| "-".into()),
                });
                let _ = write!(o, " | {:>10}", v.unwrap_or_else(|| "-".into()));
            }
            let _ = writeln!(o);
        }
    }
    let _ = writeln!(
        o,
        "\nMB/s = 10^6 B/s. Each figure is the best of its passes (most MB/s), as CrystalDiskMark reports."
    );
    for t in &r.tests {
        let passes: Vec<&str> = t.notices.iter().filter(|n| n.starts_with("pass ")).map(String::as_str).collect();
        if !passes.is_empty() {
            let _ = writeln!(o, "{}: {}", t.name, passes.join("; "));
        }
    }
    if r.interrupted {
        let _ = writeln!(o, "\nINTERRUPTED: tests after the interruption did not run.");
    }
    o
}

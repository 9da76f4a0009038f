//! Markdown: the tables users paste into a wiki or a post, one row per test and operation.

use super::cells::{LATENCY_HEADS, PAGE};
use crate::result::ranks::{outlier, spread};
use crate::result::{RunResult, TestResult};
use std::fmt::Write;

pub fn render(r: &RunResult) -> String {
    let mut o = String::new();
    let label = r.label.as_deref().map(|l| format!(" — {l}")).unwrap_or_default();
    let _ = writeln!(o, "### iolens {}{label}\n", r.command);
    let vm = r.host.vm_product.as_deref().map(|p| format!(" ({p})")).unwrap_or_default();
    if r.host.cores == 0 {
        let _ =
            writeln!(o, "Host **{}**{vm} (no further details recorded); started {}.\n", r.host.hostname, r.started_at);
    } else {
        let _ = writeln!(
            o,
            "Host **{}**{vm}, {} × {}, {}; started {}.\n",
            r.host.hostname, r.host.cores, r.host.cpu_model, r.host.kernel, r.started_at
        );
    }
    if let Some(src) = &r.source {
        let _ = writeln!(o, "Source: {src}.\n");
    }
    for t in &r.host.targets {
        let dev = t.device.as_deref().map(|d| format!(" on {d}")).unwrap_or_default();
        let fs = t.filesystem.as_deref().map(|f| format!(", {f}")).unwrap_or_default();
        let _ = writeln!(o, "Target `{}`{dev}{fs}.\n", t.path);
    }
    let _ = writeln!(o, "| test | op | IOPS | MB/s | {} | mean QD / asked |", LATENCY_HEADS.join(" | "));
    let _ = writeln!(o, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for t in &r.tests {
        let ops: &[(&str, &crate::result::OpStats)] = match t.spec.read_pct {
            100 => &[("read", &t.read)],
            0 => &[("write", &t.write)],
            _ => &[("read", &t.read), ("write", &t.write), ("total", &t.total)],
        };
        for (op, s) in ops {
            let lat = PAGE.latency(&s.lat_us).join(" | ");
            let qd = format!("{:.2} / {}", t.mean_qd, t.asked_qd());
            let _ = writeln!(o, "| {} | {op} | {:.0} | {:.2} | {lat} | {qd} |", t.name, s.iops, s.mbps);
        }
    }
    for t in r.tests.iter().filter(|t| !t.ranks.is_empty()) {
        ranks(&mut o, t);
    }
    let _ = writeln!(o, "\nMB/s = 10^6 B/s; latency from submission to completion.");
    if r.interrupted {
        let _ = writeln!(o, "\n**Interrupted:** the figures cover only the time measured before Ctrl-C.");
    }
    o
}

/// A multi-host test's row per rank, the outlier in bold, and how far apart they ran.
fn ranks(o: &mut String, t: &TestResult) {
    let bad = outlier(&t.ranks);
    let _ = writeln!(o, "\n#### {}: per rank\n", t.name);
    let _ = writeln!(o, "| rank | host | IOPS | MB/s | mean µs | p99 µs | start ms | end ms | clock ms |");
    let _ = writeln!(o, "|---:|---|---:|---:|---:|---:|---:|---:|---:|");
    for r in &t.ranks {
        let b = if bad == Some(r.rank) { "**" } else { "" };
        let _ = writeln!(
            o,
            "| {b}{}{b} | {} | {:.0} | {:.2} | {} | {b}{}{b} | {:.3} | {:.3} | {:.3} |",
            r.rank,
            r.host,
            r.iops,
            r.mbps,
            PAGE.us(r.mean_us),
            PAGE.us(r.p99_us),
            r.start_offset_ms,
            r.end_offset_ms,
            r.clock_offset_ms
        );
    }
    if let Some(s) = spread(&t.ranks) {
        let _ = writeln!(
            o,
            "\nStart spread {:.3} ms, first done {:.1} ms, last done {:.1} ms after the common start; clocks \
             within ±{:.3} ms of rank 0's.",
            s.start_spread_ms, s.first_done_ms, s.last_done_ms, s.clock_within_ms
        );
    }
    if let Some(c) = crate::result::ranks::common_window(&t.ranks) {
        let _ = writeln!(
            o,
            "\nFirst done: {:.1} IOPS, {:.2} MB/s over the common window ({} I/Os, {:.3} s); last done: {:.1} \
             IOPS, {:.2} MB/s.",
            c.iops, c.mbps, c.ios, c.seconds, c.last_iops, c.last_mbps
        );
    }
    if let Some(parts) = crate::result::ranks::parts(&t.ranks) {
        let _ = writeln!(o, "\nOne target shared by the ranks, each on its own part: {parts}.");
    }
}

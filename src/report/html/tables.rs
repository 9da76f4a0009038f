//! The HTML report's tables: who and where, one row per test and operation, percentiles,
//! per-thread figures and notices.

use super::{esc, ops};
use crate::report::cells::{LATENCY_HEADS, PAGE};
use crate::result::RunResult;
use crate::stats::PERCENTILES;
use crate::workload::size::format_size;
use std::fmt::Write;

pub fn host(o: &mut String, r: &RunResult) {
    let h = &r.host;
    let vm = match (&h.vm_vendor, &h.vm_product) {
        (Some(v), Some(p)) => format!(" ({v} {p})"),
        (v, p) => v.clone().or_else(|| p.clone()).map(|x| format!(" ({x})")).unwrap_or_default(),
    };
    if h.cores == 0 {
        let _ = writeln!(
            o,
            "<p class=\"meta\">Host <b>{}</b>{} (no further details recorded); started {}.</p>",
            esc(&h.hostname),
            esc(&vm),
            esc(&r.started_at)
        );
    } else {
        let _ = writeln!(
            o,
            "<p class=\"meta\">Host <b>{}</b>{}, {} × {}, {:.1} GiB memory, {} {}; started {}.</p>",
            esc(&h.hostname),
            esc(&vm),
            h.cores,
            esc(&h.cpu_model),
            h.memory_bytes as f64 / (1u64 << 30) as f64,
            esc(&h.os),
            esc(&h.kernel),
            esc(&r.started_at)
        );
    }
    for t in &h.targets {
        let dev = t.device.as_deref().map(|d| format!(" on {d}")).unwrap_or_default();
        let model = t.model.as_deref().map(|m| format!(" ({m})")).unwrap_or_default();
        let fs = t.filesystem.as_deref().map(|f| format!(", {f}")).unwrap_or_default();
        let _ = writeln!(
            o,
            "<p class=\"meta\">Target <code>{}</code> ({}, {}){}</p>",
            esc(&t.path),
            esc(t.kind.as_str()),
            format_size(t.size_bytes),
            esc(&format!("{dev}{model}{fs}"))
        );
    }
    if !r.args.is_empty() {
        let _ = writeln!(o, "<p class=\"meta\">Command: <code>iolens {}</code></p>", esc(&r.args.join(" ")));
    }
    if !r.tags.is_empty() {
        let tags: Vec<String> = r.tags.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(o, "<p class=\"meta\">Tags: {}</p>", esc(&tags.join(", ")));
    }
    if let Some(s) = &r.source {
        let _ = writeln!(o, "<p class=\"meta\">Source: {}</p>", esc(s));
    }
}

pub fn summary(o: &mut String, r: &RunResult) {
    let heads: String = LATENCY_HEADS.iter().map(|h| format!("<th>{h}</th>")).collect();
    // Tests that end once steady (the sweep's, fio's ss): how long each ran, and why it stopped.
    let stops = r.tests.iter().any(|t| t.steady.as_ref().is_some_and(|s| s.stop.is_some()));
    let _ = writeln!(
        o,
        "<table><tr><th>test</th><th>op</th><th>IOPS</th><th>MB/s</th><th>MiB/s</th>{heads}<th>mean QD</th><th>QD asked</th>\
         <th>CPU µs/IO</th>{}</tr>",
        if stops { "<th>s</th><th>stop</th>" } else { "" }
    );
    for t in &r.tests {
        let stop = match t.steady.as_ref().and_then(|s| s.stop).filter(|_| stops) {
            Some(s) => format!("<td class=n>{:.2}</td><td>{}</td>", t.duration_s, s.name()),
            None if stops => "<td></td><td></td>".into(),
            None => String::new(),
        };
        for (op, s) in ops(t) {
            let lat: String = PAGE.latency(&s.lat_us).iter().map(|c| format!("<td class=n>{c}</td>")).collect();
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td>{op}</td><td class=n>{:.0}</td><td class=n>{:.2}</td><td class=n>{:.2}</td>{lat}\
                 <td class=n>{:.2}</td><td class=n>{}</td><td class=n>{}</td>{stop}</tr>",
                esc(&t.name),
                s.iops,
                s.mbps,
                s.mibps,
                t.mean_qd,
                t.asked_qd(),
                PAGE.us(t.cpu.us_per_io)
            );
        }
    }
    let _ = writeln!(o, "</table>");
}

pub fn percentiles(o: &mut String, r: &RunResult) {
    let cols: Vec<(String, &crate::stats::LatStats)> = r
        .tests
        .iter()
        .flat_map(|t| {
            ops(t).into_iter().filter(|(_, s)| s.ios > 0).map(move |(op, s)| (format!("{} {op}", t.name), &s.lat_us))
        })
        .collect();
    if cols.is_empty() {
        return;
    }
    // At most eight columns a table, so the page keeps its width however many tests ran.
    for cols in cols.chunks(8) {
        let _ = write!(o, "<table><tr><th>%-ile (µs)</th>");
        for (n, _) in cols {
            let _ = write!(o, "<th>{}</th>", esc(n));
        }
        let _ = writeln!(o, "</tr>");
        let row = |o: &mut String, name: &str, f: &dyn Fn(&crate::stats::LatStats) -> Option<f64>| {
            let _ = write!(o, "<tr><td>{name}</td>");
            for (_, l) in cols {
                let _ = write!(o, "<td class=n>{}</td>", PAGE.us(f(l)));
            }
            let _ = writeln!(o, "</tr>");
        };
        row(o, "min", &|l| l.min);
        for p in PERCENTILES {
            row(o, &crate::report::cells::ordinal(p), &|l| l.percentiles.get(p));
        }
        row(o, "max", &|l| l.max);
        let _ = writeln!(o, "</table>");
    }
}

pub fn threads(o: &mut String, r: &RunResult) {
    if r.tests.iter().all(|t| t.threads.len() < 2) {
        return;
    }
    let _ = writeln!(o, "<h2>Per thread</h2>");
    let _ = writeln!(
        o,
        "<table><tr><th>test</th><th>thread</th><th>target</th><th>IOPS</th><th>MB/s</th><th>mean µs</th><th>IOPS stddev</th></tr>"
    );
    for t in r.tests.iter().filter(|t| t.threads.len() > 1) {
        for th in &t.threads {
            let target =
                crate::result::host::target_of(&r.host.targets, t, th.target as usize).map_or("", |x| x.path.as_str());
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td class=n>{}</td><td>{}</td><td class=n>{:.0}</td><td class=n>{:.2}</td><td class=n>{}</td><td class=n>{:.1}</td></tr>",
                esc(&t.name),
                th.thread,
                esc(target),
                th.total.iops,
                th.total.mbps,
                PAGE.us(th.total.lat_mean_us),
                th.total.iops_stddev
            );
        }
    }
    let _ = writeln!(o, "</table>");
}

pub fn notices(o: &mut String, r: &RunResult) {
    let all: Vec<String> =
        r.tests.iter().flat_map(|t| t.notices.iter().map(move |n| format!("{}: {n}", t.name))).collect();
    if all.is_empty() {
        return;
    }
    let _ = writeln!(o, "<h2>Notices</h2>\n<ul>");
    for n in all {
        let _ = writeln!(o, "<li>{}</li>", esc(&n));
    }
    let _ = writeln!(o, "</ul>");
}

//! What explain and check found, on the page: the walls of reads and writes, the catalog
//! matches, the configuration named, and the advice with the measurement behind it.

use super::esc;
use crate::result::analysis::{Explanation, Wall, Walls};
use std::fmt::Write;

fn row(o: &mut String, k: &str, v: String) {
    let _ = writeln!(o, "<tr><th>{k}</th><td>{}</td></tr>", esc(&v));
}

fn walls(o: &mut String, dir: &str, w: &Walls) {
    let _ = writeln!(o, "<h3>{dir}</h3>\n<table>");
    if let Some(lb) = &w.latency_bound {
        row(
            o,
            "latency-bound",
            format!(
                "QD {} to {}: ≈ {:.0} µs an I/O (IOPS ≈ I/Os in flight ÷ latency)",
                lb.from_qd, lb.to_qd, lb.latency_us
            ),
        );
    }
    let deepest = w.deepest_qd.map(|q| format!(" (QD {q})")).unwrap_or_default();
    row(
        o,
        "knee",
        w.knee_qd.map_or(format!("none: IOPS still grew at the deepest queue{deepest}"), |k| format!("QD {k}")),
    );
    row(o, "IOPS cap", w.iops_cap.map_or("none found".into(), |c| format!("{c:.0}")));
    row(o, "MB/s cap", w.mbps_cap.map_or("none found".into(), |c| format!("{c:.1}")));
    if let Some(b) = w.crossover_bs {
        row(o, "crossover", format!("{:.1} KiB", b as f64 / 1024.0));
    }
    if let Some(t) = &w.throttle {
        row(o, "throttle", format!("{:.0} IOPS / {:.1} MB/s at every queue depth (flat {})", t.iops, t.mbps, t.on));
    }
    if !w.binding.is_empty() {
        let mut b: Vec<(&String, &Wall)> = w.binding.iter().collect();
        b.sort_by_key(|(k, _)| crate::workload::size::parse_size(k).unwrap_or(0));
        row(o, "binding", b.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", "));
    }
    for (field, why) in &w.unsure {
        row(o, &format!("not sure of the {}", crate::report::explain::claim(field)), why.clone());
    }
    let _ = writeln!(o, "</table>");
}

pub fn render(o: &mut String, e: &Explanation) {
    let _ = writeln!(o, "<h2>Walls and advice</h2>");
    if let Some(w) = &e.reads {
        walls(o, "Reads", w);
    }
    if let Some(w) = &e.writes {
        walls(o, "Writes", w);
    }
    if let Some(r) = e.read_write_ratio {
        let why = e.ratio_unsure.as_ref().map(|w| format!(" Not sure: {w}.")).unwrap_or_default();
        let _ = writeln!(
            o,
            "<p>Reads/writes: {r:.1}× the IOPS at the same block size and queue depth (the median of such pairs).{}</p>",
            esc(&why)
        );
    }
    let _ = writeln!(o, "<p>Repeatability: {}.</p>", esc(&crate::report::explain::repeatability(e)));
    let _ = writeln!(o, "<h3>Catalog matches (within ±{:.0} %)</h3>", e.tolerance_pct);
    if e.matches.is_empty() && e.write_matches.is_empty() {
        let _ = writeln!(o, "<p>none</p>");
    }
    let writes_too = !e.write_matches.is_empty();
    for (who, ms) in [("Reads", &e.matches), ("Writes", &e.write_matches)] {
        if ms.is_empty() {
            continue;
        }
        if writes_too {
            let _ = writeln!(o, "<p>{who}:</p>");
        }
        let _ = writeln!(o, "<ul>");
        for m in ms {
            let mbps = m.mbps.map_or("no MB/s limit published".into(), |v| format!("{v:.0} MB/s"));
            let src = esc(&crate::report::explain::from(m));
            let _ =
                writeln!(o, "<li>{} ({:.0} IOPS, {mbps}): {}{src}</li>", esc(&m.name), m.iops, esc(&m.on.to_string()));
        }
        let _ = writeln!(o, "</ul>");
    }
    if let Some(x) = &e.expected {
        let _ = writeln!(
            o,
            "<p>Expected from the catalog: {:.0} IOPS ({}), {}.</p>",
            x.iops,
            esc(&x.iops_by),
            x.mbps.map_or("no MB/s limit published".into(), |m| format!("{m:.0} MB/s ({})", esc(&x.mbps_by)))
        );
        if let (Some(i), Some(by)) = (x.burst_iops, &x.burst_iops_by) {
            let mbps = match (x.burst_mbps, &x.burst_mbps_by) {
                (Some(m), Some(mby)) => format!(", {m:.0} MB/s ({})", esc(mby)),
                _ => String::new(),
            };
            let how: Vec<String> = x.bursts.iter().map(|b| format!("{}: {}", esc(&b.by), b.model.describe())).collect();
            let _ = writeln!(o, "<p>While bursting: {i:.0} IOPS ({}){mbps}. {}.</p>", esc(by), how.join("; "));
        }
        if !x.sources.is_empty() {
            let _ = writeln!(o, "<p class=\"note\">Figures from the catalog: {}.</p>", esc(&x.sources.join("; ")));
        }
    }
    let _ = writeln!(o, "<h3>Advice</h3>\n<ul>");
    if e.advice.is_empty() {
        let _ = writeln!(o, "<li>nothing stands out</li>");
    }
    for a in &e.advice {
        let (head, why) = match &a.unsure {
            Some(w) => ("<b>Not sure:</b> ", format!("<br><span class=\"note\">not sure, since {}</span>", esc(w))),
            None => ("", String::new()),
        };
        let _ = writeln!(
            o,
            "<li>{head}{}<br><span class=\"note\">because: {}</span>{why}</li>",
            esc(&a.advice),
            esc(&a.because)
        );
    }
    let _ = writeln!(o, "</ul>");
}

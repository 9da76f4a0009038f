//! A comparison as a page: grouped bars per test (one bar per result) with the verdicts beside
//! them, then the table the charts come from. Results of `check` or `explain` (before and after
//! a migration) get CrystalDiskMark's table side by side, each one's verdict, and their sweeps
//! overlaid instead of the bars.

use super::charts::{self, Bars};
use super::check::{self, hover};
use super::curves::Source;
use super::{esc, figure, page};
use crate::compare::{Cell, Comparison};
use crate::report::cells::PAGE;
use crate::result::RunResult;
use std::fmt::Write;

pub fn render(c: &Comparison, results: &[RunResult]) -> String {
    let mut o = String::new();
    let names: Vec<&str> = c.results.iter().map(|s| s.name.as_str()).collect();
    let title = format!("iolens compare: {}", names.join(" vs "));
    let _ = writeln!(o, "<header><h1>{}</h1>", esc(&title));
    let _ = writeln!(o, "<table><tr><th>result</th><th>host</th><th>command</th><th>target</th><th>started</th></tr>");
    for (i, s) in c.results.iter().enumerate() {
        let base = if i == c.baseline { " (baseline)" } else { "" };
        let base = if s.interrupted {
            format!("{base} <span class=warn>interrupted: a partial measurement</span>")
        } else {
            base.into()
        };
        let vm = s.vm.as_deref().map(|v| format!(" ({v})")).unwrap_or_default();
        let _ = writeln!(
            o,
            "<tr><td><b>{}</b>{base}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
            esc(&s.name),
            esc(&format!("{}{vm}", s.host)),
            esc(&s.command),
            esc(s.target.as_deref().unwrap_or("")),
            esc(&s.started_at)
        );
    }
    let _ = writeln!(o, "</table></header>");
    let legend = super::super::compare::legend(c);
    let checks = results.len() == c.results.len() && results.iter().all(|r| r.analysis.is_some());
    if checks {
        explained(&mut o, c, results);
        table(&mut o, c);
        let _ = writeln!(o, "<p class=\"note\">{}</p>", esc(&legend));
        missing(&mut o, c);
        return page(&title, &o);
    }
    let cats: Vec<String> = c.rows.iter().map(|r| r.test.clone()).collect();
    // Each result's verdict beside its bar; the baseline and missing tests have none.
    let notes: Vec<Vec<Option<String>>> =
        c.rows.iter().map(|r| r.verdicts.iter().map(|v| v.clone().filter(|v| v != "-")).collect()).collect();
    let _ = writeln!(o, "<h2>Side by side</h2>\n<p class=\"note\">{}</p>", esc(&legend));
    for (caption, unit, pick, with_notes) in [
        ("IOPS per test, with the verdicts", "IOPS", (|x: &Cell| Some(x.iops)) as fn(&Cell) -> Option<f64>, true),
        ("MB/s per test", "MB/s (10^6 B/s)", |x: &Cell| Some(x.mbps), false),
        ("p99 latency per test (µs, lower is better)", "p99 latency (µs)", |x: &Cell| x.p99_us, false),
    ] {
        let series: Vec<(String, Vec<Option<f64>>)> = (0..c.results.len())
            .map(|i| (c.results[i].name.clone(), c.rows.iter().map(|r| r.cells[i].as_ref().and_then(pick)).collect()))
            .collect();
        let notes = with_notes.then_some(notes.as_slice());
        figure(&mut o, caption, charts::bars(&Bars { x_desc: unit, categories: &cats, series: &series, notes }));
    }
    table(&mut o, c);
    let _ = writeln!(o, "<p class=\"note\">{}</p>", esc(&legend));
    missing(&mut o, c);
    page(&title, &o)
}

fn missing(o: &mut String, c: &Comparison) {
    if !c.missing.is_empty() {
        let _ = writeln!(o, "<h2>Not in every result</h2>\n<ul>");
        for m in &c.missing {
            let _ = writeln!(o, "<li>{}</li>", esc(m));
        }
        let _ = writeln!(o, "</ul>");
    }
    if let Some(b) = &c.builds {
        let _ = writeln!(o, "<p class=\"note\">{}</p>", esc(b));
    }
}

/// check and explain results: CrystalDiskMark's MB/s side by side with the verdicts, each
/// result's walls in a sentence, and the sweeps overlaid, one colour per result.
fn explained(o: &mut String, c: &Comparison, results: &[RunResult]) {
    let per: Vec<Vec<check::Row>> = results.iter().map(check::rows).collect();
    // In the order of the result with the most rows (a quick check runs fewer tests).
    let mut order: Vec<&Vec<check::Row>> = per.iter().collect();
    order.sort_by_key(|rows| std::cmp::Reverse(rows.len()));
    let mut labels: Vec<&str> = Vec::new();
    for (l, _) in order.into_iter().flatten() {
        if !labels.contains(&l.as_str()) {
            labels.push(l);
        }
    }
    if !labels.is_empty() {
        let _ = write!(o, "<h2>CrystalDiskMark</h2>\n<table class=\"cdm\"><tr><th></th>");
        for s in &c.results {
            let _ = write!(o, "<th colspan=2>{}</th>", esc(&s.name));
        }
        let _ = write!(o, "</tr>\n<tr><th></th>");
        for _ in &c.results {
            let _ = write!(o, "<th>Read (MB/s)</th><th>Write (MB/s)</th>");
        }
        let _ = writeln!(o, "</tr>");
        for label in &labels {
            let _ = write!(o, "<tr><th>{}</th>", esc(label));
            for (i, rows) in per.iter().enumerate() {
                let cells = rows.iter().find(|(l, _)| l == label).map(|(_, c)| *c).unwrap_or([None, None]);
                for (k, op) in ["Read", "Write"].iter().enumerate() {
                    let Some(t) = cells[k] else {
                        let _ = write!(o, "<td class=n>–</td>");
                        continue;
                    };
                    // The verdict of this result's IOPS against the baseline's, as the table below.
                    let key = format!("{label} {op}");
                    let v = c.rows.iter().find(|r| r.test == key).and_then(|r| r.verdicts[i].clone());
                    let v = v.filter(|v| v != "-").map(|v| format!(" <span class=vd>{}</span>", esc(&v)));
                    let _ = write!(
                        o,
                        "<td class=n title=\"{}\">{:.2}{}</td>",
                        esc(&hover(t)),
                        t.total.mbps,
                        v.unwrap_or_default()
                    );
                }
            }
            let _ = writeln!(o, "</tr>");
        }
        let _ = writeln!(o, "</table>");
    }
    let _ = writeln!(o, "<ul class=\"verdicts\">");
    let mut sources = Vec::new();
    for (i, (s, r)) in c.results.iter().zip(results).enumerate() {
        let Some(e) = &r.analysis else { continue };
        let _ = writeln!(o, "<li><b>{}</b>: {}</li>", esc(&s.name), esc(&check::verdict(e)));
        sources.push(Source { name: Some(&s.name), index: i, r, e });
    }
    let _ = writeln!(o, "</ul>");
    check::sweep(o, &sources);
}

fn table(o: &mut String, c: &Comparison) {
    let _ = write!(o, "<h2>Figures</h2>\n<table><tr><th rowspan=2>test</th>");
    for (i, s) in c.results.iter().enumerate() {
        let span = if i == c.baseline { 4 } else { 5 };
        let _ = write!(o, "<th colspan={span}>{}</th>", esc(&s.name));
    }
    let _ = write!(o, "</tr>\n<tr>");
    for i in 0..c.results.len() {
        let _ = write!(o, "<th>IOPS</th><th>MB/s</th><th>p50 µs</th><th>p99 µs</th>");
        if i != c.baseline {
            let _ = write!(o, "<th>verdict</th>");
        }
    }
    let _ = writeln!(o, "</tr>");
    for row in &c.rows {
        let _ = write!(o, "<tr><td>{}</td>", esc(&row.test));
        for (cell, v) in row.cells.iter().zip(&row.verdicts) {
            match cell {
                Some(s) => {
                    let _ = write!(
                        o,
                        "<td class=n>{:.0}</td><td class=n>{:.2}</td><td class=n>{}</td><td class=n>{}</td>",
                        s.iops,
                        s.mbps,
                        PAGE.us(s.p50_us),
                        PAGE.us(s.p99_us)
                    );
                }
                None => {
                    let _ = write!(o, "<td colspan=4 class=note>not in this result</td>");
                }
            }
            if let Some(v) = v {
                let _ = write!(o, "<td class=v>{}</td>", esc(v));
            }
        }
        let _ = writeln!(o, "</tr>");
    }
    let _ = writeln!(o, "</table>");
}

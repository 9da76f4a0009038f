//! `simdb`'s part of the HTML page: SQLIOSim's per-file summary as a table and a chart of
//! each file's I/O by kind, the running average against the target, and the findings.

use super::{charts, esc, figure};
use crate::report::simdb::FILE_COLUMNS;
use crate::result::simdb::Simdb;
use crate::result::verify::counts;
use crate::result::RunResult;
use std::fmt::Write;

/// Findings listed in the page; the JSON and the store hold them all.
const LISTED: usize = 50;

pub fn render(o: &mut String, r: &RunResult, s: &Simdb) {
    files(o, s);
    charts(o, s);
    verdict(o, r);
    for st in &s.stalls {
        let _ = writeln!(
            o,
            "<p class=\"warn\">Stall: {} at {} in {} took {:.0} ms</p>",
            st.op,
            st.offset,
            esc(&st.file),
            st.ms
        );
    }
    for e in &s.errors {
        let _ = writeln!(o, "<p class=\"warn\">Error: {}</p>", esc(e));
    }
}

fn files(o: &mut String, s: &Simdb) {
    let _ = writeln!(o, "<h2>Per file (SQLIOSim's summary)</h2>");
    let _ = write!(o, "<table><tr>");
    for c in &FILE_COLUMNS {
        let _ = write!(o, "<th>{}</th>", c.long);
    }
    let _ = writeln!(o, "</tr>");
    for f in &s.files {
        let _ = write!(o, "<tr>");
        for c in &FILE_COLUMNS {
            let class = if c.figure { " class=\"n\"" } else { "" };
            let _ = write!(o, "<td{class}>{}</td>", esc(&(c.cell)(f)));
        }
        let _ = writeln!(o, "</tr>");
    }
    let _ = writeln!(o, "</table>");
}

/// Each file's I/Os by kind, and (when the run did I/O of its own) its running average I/O
/// duration against the target.
fn charts(o: &mut String, s: &Simdb) {
    let cats: Vec<String> = s
        .files
        .iter()
        .map(|f| std::path::Path::new(&f.path).file_name().map_or(f.path.clone(), |n| n.to_string_lossy().into()))
        .collect();
    let pick = |g: fn(&crate::result::simdb::SimdbFile) -> u64| s.files.iter().map(|f| Some(g(f) as f64)).collect();
    let series = [
        ("reads".to_string(), pick(|f| f.reads)),
        ("scatter reads".to_string(), pick(|f| f.scatter_reads)),
        ("writes".to_string(), pick(|f| f.writes)),
        ("gather writes".to_string(), pick(|f| f.gather_writes)),
    ];
    figure(
        o,
        "I/Os per file, by kind",
        charts::bars(&charts::Bars { x_desc: "I/Os", categories: &cats, series: &series, notes: None }),
    );
    if !s.verify_only {
        let avg = [
            ("target".to_string(), s.files.iter().map(|f| Some(f.target_io_ms)).collect()),
            ("highest running average".to_string(), s.files.iter().map(|f| Some(f.max_running_avg_io_ms)).collect()),
            ("running average at the end".to_string(), s.files.iter().map(|f| Some(f.running_avg_io_ms)).collect()),
        ];
        figure(
            o,
            "Running average I/O duration against the target (ms)",
            charts::bars(&charts::Bars { x_desc: "ms", categories: &cats, series: &avg, notes: None }),
        );
    }
}

fn verdict(o: &mut String, r: &RunResult) {
    let all: Vec<_> = r.tests.iter().filter_map(|t| t.verify.as_ref()).flat_map(|v| v.findings.clone()).collect();
    let _ = writeln!(o, "<h2>Verdict</h2>");
    if all.is_empty() {
        let _ = writeln!(o, "<p><b>Clean:</b> nothing lost, torn, stale, misdirected, corrupt or unread.</p>");
    } else {
        let by: Vec<String> =
            counts(&all).into_iter().filter(|(_, n)| *n > 0).map(|(c, n)| format!("{n} {c}")).collect();
        let _ = writeln!(o, "<p class=\"warn\"><b>Findings:</b> {}</p>", esc(&by.join(", ")));
        let _ = writeln!(
            o,
            "<table><tr><th>class</th><th>file</th><th>offset</th><th>expected gen</th><th>found gen</th>\
             <th>bad re-reads</th><th>first difference</th></tr>"
        );
        for f in all.iter().take(LISTED) {
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}/{}</td><td><code>{}</code> at byte {}</td></tr>",
                f.class,
                esc(&f.file),
                f.offset,
                f.expected_gen,
                f.found_gen.map_or("-".into(), |g| g.to_string()),
                f.bad_rereads,
                f.rereads,
                esc(&f.diff),
                f.diff_at
            );
        }
        let _ = writeln!(o, "</table>");
    }
}

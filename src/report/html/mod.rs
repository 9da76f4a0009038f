//! The HTML report: one self-contained page (inline CSS and SVG, no script, a Content Security
//! Policy that forbids every fetch) with charts beside the tables, readable when printed.

pub mod charts;
mod check;
mod compare;
mod curves;
mod explain;
mod plot;
mod ranks;
mod simdb;
mod sweep;
mod tables;

use crate::result::shifts::Metric;
use crate::result::{Kind, OpStats, RunResult, SecondStats, TestResult};
use charts::{Lines, Scale, Series};
use std::fmt::Write;

pub use compare::render as compare;

/// At most this many lines in one chart; the tables hold everything.
const MAX_SERIES: usize = 8;

pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            _ => o.push(c),
        }
    }
    o
}

const CSS: &str = "
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1100px;padding:16px 24px;color:#111}
h1{font-size:22px;margin:8px 0}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ccc}
.meta{color:#444;margin:2px 0}code{background:#f3f3f3;padding:0 3px}
table{border-collapse:collapse;margin:8px 0;font-variant-numeric:tabular-nums}
th,td{border:1px solid #ccc;padding:3px 8px}td.n{text-align:right}th{background:#f3f3f3}
td.v{text-align:center;font-weight:bold}
figure.chart{margin:12px 0;break-inside:avoid;page-break-inside:avoid}figure.chart svg{width:100%;max-width:760px;height:auto}
#by-depth svg,#by-size svg{max-width:1000px}
figcaption{font-weight:600;margin-bottom:4px}.note{color:#555}.warn{color:#a00}
tr.warn td{color:#a00;font-weight:600}table.ranks caption{text-align:left;font-weight:600}
.pair{display:flex;flex-wrap:wrap;gap:8px 32px;align-items:flex-start}
table.cdm td{font-size:20px;font-weight:600;min-width:130px;padding:4px 10px}
table.cdm tr>th:first-child{background:#2e7d32;color:#fff;text-align:left;padding:4px 12px;print-color-adjust:exact;-webkit-print-color-adjust:exact}
span.vd{font-size:15px;color:#0072b2;margin-left:6px}ul.verdicts{font-size:16px}ul.verdicts li{margin:4px 0}
p.verdict{font-size:17px;font-weight:600;border-left:5px solid #0072b2;background:#f2f7fb;padding:8px 14px;margin:16px 0}
@page{size:A4;margin:12mm}
@media print{body{max-width:none;padding:0;font-size:11px}h2{break-after:avoid;page-break-after:avoid}
table{break-inside:auto;font-size:10px}th,td{padding:2px 4px}tr{break-inside:avoid}table.cdm td{font-size:15px}figure.chart svg{max-width:100%}}
";

/// A whole page around `body`.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{body}<footer class=\"note\"><p>MB/s = 10^6 B/s, MiB/s = 2^20 B/s; \
         latency from submission to completion, in µs. Made by iolens {}.</p></footer>\n</body>\n</html>\n",
        esc(title),
        env!("CARGO_PKG_VERSION")
    )
}

/// A chart with its caption; `class="chart"` is what counts a chart.
pub fn figure(o: &mut String, caption: &str, svg: String) {
    let _ = writeln!(o, "<figure class=\"chart\"><figcaption>{}</figcaption>\n{svg}</figure>", esc(caption));
}

/// A test's operations worth showing: the one it does, or read, write and total for a mix.
pub fn ops(t: &TestResult) -> Vec<(&'static str, &OpStats)> {
    match t.spec.read_pct {
        100 => vec![("read", &t.read)],
        0 => vec![("write", &t.write)],
        _ => vec![("read", &t.read), ("write", &t.write), ("total", &t.total)],
    }
}

pub fn render(r: &RunResult) -> String {
    let mut o = String::new();
    let title = format!("iolens {}{}", r.command, r.label.as_deref().map(|l| format!(" — {l}")).unwrap_or_default());
    let _ = writeln!(o, "<header><h1>{}</h1>", esc(&title));
    tables::host(&mut o, r);
    let _ = writeln!(o, "</header>");
    if r.interrupted {
        let _ = writeln!(
            o,
            "<p class=\"warn\"><b>Interrupted:</b> the figures cover only what was measured before Ctrl-C.</p>"
        );
    }
    if let Some(e) = &r.analysis {
        // check and explain: CrystalDiskMark's table, the verdict, the sweep's curves, then why.
        check::tables(&mut o, r);
        let _ = writeln!(o, "<p class=\"verdict\">{}</p>", esc(&check::verdict(e)));
        check::sweep(&mut o, &[curves::Source { name: None, index: 0, r, e }]);
        explain::render(&mut o, e);
        let _ = writeln!(o, "<h2>Every test</h2>");
        tables::summary(&mut o, r);
    } else {
        if let Some(s) = &r.simdb {
            simdb::render(&mut o, r, s);
        }
        throughput(&mut o, r);
        tables::summary(&mut o, r);
        if r.kind() == Kind::Sweep && r.tests.len() > 1 {
            sweep::render(&mut o, r);
        }
    }
    latency(&mut o, r);
    tables::percentiles(&mut o, r);
    over_time(&mut o, r);
    ranks::render(&mut o, r);
    tables::threads(&mut o, r);
    tables::notices(&mut o, r);
    page(&title, &o)
}

/// Names for the rows of a result: "SEQ1M Q8T1 Read", and the operation for a mix.
fn row_names(r: &RunResult) -> Vec<(String, &OpStats)> {
    let mut v = Vec::new();
    for t in &r.tests {
        for (op, s) in ops(t) {
            let name = if t.spec.read_pct % 100 == 0 { t.name.clone() } else { format!("{} {op}", t.name) };
            v.push((name, s));
        }
    }
    v
}

fn throughput(o: &mut String, r: &RunResult) {
    let _ = writeln!(o, "<h2>Throughput</h2>");
    let rows = row_names(r);
    let cats: Vec<String> = rows.iter().map(|(n, _)| n.clone()).collect();
    for (caption, unit, pick) in [
        ("IOPS per test", "IOPS", (|s: &OpStats| s.iops) as fn(&OpStats) -> f64),
        ("MB/s per test", "MB/s (10^6 B/s)", |s: &OpStats| s.mbps),
    ] {
        let series = [(unit.to_string(), rows.iter().map(|(_, s)| Some(pick(s))).collect())];
        figure(
            o,
            caption,
            charts::bars(&charts::Bars { x_desc: unit, categories: &cats, series: &series, notes: None }),
        );
    }
}

/// Percentiles with enough I/Os behind them: 99.99 needs at least 10,000.
fn percentile_points(s: &OpStats) -> Vec<(f64, f64)> {
    let have = (s.ios.max(1) as f64).log10();
    s.lat_us
        .percentiles
        .0
        .iter()
        .filter_map(|(k, v)| Some((k.parse::<f64>().ok()?, (*v)?)))
        .filter(|&(p, _)| -(1.0 - p / 100.0).log10() <= have + 1e-9)
        .collect()
}

fn latency(o: &mut String, r: &RunResult) {
    let _ = writeln!(o, "<h2>Latency</h2>");
    let rows = row_names(r);
    let series: Vec<Series> = rows
        .iter()
        .filter(|(_, s)| s.ios > 0)
        .take(MAX_SERIES)
        .map(|(n, s)| Series { name: n.clone(), points: percentile_points(s) })
        .collect();
    let c = Lines {
        x_desc: "percentile",
        y_desc: "latency (µs)",
        x: Scale::Nines,
        y: Scale::Log,
        markers: true,
        series: &series,
    };
    figure(o, "Latency percentiles (µs, log scale) by nines", charts::lines(&c));
    if rows.len() > MAX_SERIES {
        let _ = writeln!(
            o,
            "<p class=\"note\">The chart shows the first {MAX_SERIES} of {} rows; the table has all.</p>",
            rows.len()
        );
    }
}

/// Per-second figures: one line per test, or, for many tests, one timeline through them all.
fn over_time(o: &mut String, r: &RunResult) {
    if r.tests.iter().all(|t| t.seconds.is_empty()) {
        return;
    }
    let _ = writeln!(o, "<h2>Over time</h2>");
    let timeline = r.tests.len() > MAX_SERIES;
    let pick_series = |f: &dyn Fn(&SecondStats) -> Option<f64>| -> Vec<Series> {
        if timeline {
            let mut at = 0f64;
            let mut pts = Vec::new();
            for t in &r.tests {
                pts.extend(t.seconds.iter().filter_map(|s| Some((at + s.second as f64, f(s)?))));
                at += t.seconds.len() as f64;
            }
            vec![Series { name: "all tests in order".into(), points: pts }]
        } else {
            r.tests
                .iter()
                .map(|t| Series {
                    name: t.name.clone(),
                    points: t.seconds.iter().filter_map(|s| Some((s.second as f64, f(s)?))).collect(),
                })
                .collect()
        }
    };
    let x_desc = if timeline { "second (tests one after another)" } else { "second of the test" };
    let mut iops = pick_series(&|s| Some(s.iops));
    // A single mix shows its reads and writes beside the total.
    if let [t] = &r.tests[..] {
        if t.spec.read_pct % 100 != 0 {
            iops[0].name = "total".into();
            for (name, f) in
                [("read", (|s: &SecondStats| s.read_iops) as fn(&SecondStats) -> f64), ("write", |s| s.write_iops)]
            {
                iops.push(Series {
                    name: name.into(),
                    points: t.seconds.iter().map(|s| (s.second as f64, f(s))).collect(),
                });
            }
        }
    }
    if !timeline {
        iops.extend(levels(r, Metric::Iops));
    }
    figure(
        o,
        "IOPS per second",
        charts::lines(&Lines {
            x_desc,
            y_desc: "IOPS",
            x: Scale::Linear,
            y: Scale::Linear,
            markers: false,
            series: &iops,
        }),
    );
    let mut p99 = pick_series(&|s| s.p99_us);
    if !timeline {
        p99.extend(levels(r, Metric::LatP99Us));
    }
    let c =
        Lines { x_desc, y_desc: "p99 latency (µs)", x: Scale::Linear, y: Scale::Log, markers: false, series: &p99 };
    figure(o, "p99 latency per second (µs, log scale)", charts::lines(&c));
    for t in r.tests.iter().filter(|t| !t.shifts.is_empty()) {
        let _ = writeln!(o, "<ul class=\"shifts\"><li>{}</li>", esc(&t.name));
        for s in &t.shifts {
            let cause = s.cause.as_ref().map(|c| format!(" <em>{}</em>", esc(c))).unwrap_or_default();
            let _ = writeln!(o, "<li>{}{cause}</li>", esc(&crate::report::timeline::line(s)));
        }
        let _ = writeln!(o, "</ul>");
    }
}

/// The levels the shifts of `metric` divide each test into, as a step line over its seconds.
fn levels(r: &RunResult, metric: Metric) -> Vec<Series> {
    r.tests
        .iter()
        .filter_map(|t| {
            let shifts: Vec<_> = t.shifts.iter().filter(|s| s.metric == metric).collect();
            let first = shifts.first()?.before;
            let steps = std::iter::once(first).chain(shifts.iter().map(|s| s.after));
            let points = steps.flat_map(|l| [(l.start_s as f64 + 1.0, l.mean), (l.end_s as f64, l.mean)]).collect();
            Some(Series { name: format!("{}: levels", t.name), points })
        })
        .collect()
}

#[cfg(test)]
mod tests;

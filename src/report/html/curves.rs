//! The sweep of `check` and `explain` as curves: IOPS and p99 latency against the I/Os in
//! flight, with IOPS = QD ÷ latency, the knee and the IOPS cap; MB/s and IOPS against block
//! size, with both caps and the crossover; the matched catalog row's limits as reference lines.
//! One result draws reads and writes in two colours; a comparison gives each result a colour
//! (reads solid, writes dashed). Everything drawn is read off the tests and the stored analysis.

use super::plot::{self, Chart, Curve, Dash, Level, Mark, Panel, Rgb, Slope, Unit, GREY};
use crate::analyze::infer::{self, Point};
use crate::analyze::thousands;
use crate::result::analysis::{Axes, Explanation, Match, Walls};
use crate::result::{RunResult, TestResult};
use crate::workload::size::format_block;

const READS: Rgb = (0, 114, 178);
const WRITES: Rgb = (213, 94, 0);
/// One colour per result of a comparison (Okabe–Ito).
const RESULTS: [Rgb; 5] = [(0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (0, 0, 0)];

/// A result on the charts: its name in a comparison (None alone), its place among them.
pub struct Source<'a> {
    pub name: Option<&'a str>,
    pub index: usize,
    pub r: &'a RunResult,
    pub e: &'a Explanation,
}

/// One direction of one result: who it is on labels, its colour and dash, its walls.
struct Dir<'a> {
    who: String,
    /// The result's name in a comparison, and "reads" or "writes".
    result: Option<&'a str>,
    op: &'static str,
    colour: Rgb,
    dash: Dash,
    read: bool,
    w: &'a Walls,
    r: &'a RunResult,
}

fn dirs<'a>(sources: &'a [Source<'a>]) -> Vec<Dir<'a>> {
    let mut out = Vec::new();
    for s in sources {
        for (read, w) in [(true, &s.e.reads), (false, &s.e.writes)] {
            let Some(w) = w else { continue };
            let op = if read { "reads" } else { "writes" };
            let (who, colour, dash) = match s.name {
                None => (op.to_string(), if read { READS } else { WRITES }, Dash::Solid),
                Some(n) => (
                    format!("{n} {op}"),
                    RESULTS[s.index % RESULTS.len()],
                    if read { Dash::Solid } else { Dash::Dashed },
                ),
            };
            out.push(Dir { who, result: s.name, op, colour, dash, read, w, r: s.r });
        }
    }
    out
}

/// The tests of one direction on the line its walls were found in, by x (I/Os in flight along
/// the queue depths, else block size): one set of tests measured together, a repeated point
/// drawn by the measurement the analysis took.
fn line<'a>(d: &Dir<'a>, by_qd: bool) -> Vec<(u64, &'a TestResult)> {
    let pts = infer::of_result(d.r, 0);
    let mine: Vec<&Point> = pts.iter().filter(|p| p.read == d.read).collect();
    let l = if by_qd { infer::qd_line(&mine) } else { infer::bs_line(&mine) };
    l.into_iter()
        .map(|m| (if by_qd { u64::from(m.p.outstanding) } else { m.p.bs }, &d.r.tests[m.p.test as usize]))
        .collect()
}

fn tip(who: &str, at: &str, t: &TestResult) -> String {
    let p99 =
        t.total.lat_us.percentiles.get("99").map(|v| format!(", p99 {}", Unit::Micros.label(v))).unwrap_or_default();
    let mean = t.total.lat_us.mean.map(|v| format!(", mean {}", Unit::Micros.label(v))).unwrap_or_default();
    format!("{who} {at}: {} IOPS, {:.1} MB/s{mean}{p99}", thousands(t.total.iops), t.total.mbps)
}

fn legend(ds: &[Dir]) -> Vec<(String, Rgb, Dash)> {
    ds.iter().map(|d| (d.who.clone(), d.colour, d.dash)).collect()
}

/// The catalog rows matched and the configuration named, as levels: IOPS or MB/s.
fn references(sources: &[Source], iops: bool) -> Vec<Level> {
    let mut out: Vec<Level> = Vec::new();
    for s in sources {
        // The best row of the headline walls (the reads'), and of the writes' where they differ.
        let best = |ms: &[Match]| -> Option<Match> {
            let on =
                |m: &&Match| if iops { m.on.axes != Axes::Mbps } else { m.on.axes != Axes::Iops && m.mbps.is_some() };
            ms.iter().find(on).cloned()
        };
        for m in [best(&s.e.matches), best(&s.e.write_matches)].into_iter().flatten() {
            let (at, fig) = if iops {
                (m.iops, format!("{} IOPS", thousands(m.iops)))
            } else {
                let v = m.mbps.unwrap_or(0.0);
                (v, format!("{v:.0} MB/s"))
            };
            let burst = if m.on.is_burst() { " (burst)" } else { "" };
            out.push(Level { at, label: format!("{}{burst}: {fig}", m.name), colour: GREY, dash: Dash::Dotted });
        }
        if let Some(x) = &s.e.expected {
            let (at, by) = if iops { (Some(x.iops), &x.iops_by) } else { (x.mbps, &x.mbps_by) };
            if let Some(at) = at {
                let fig = if iops { format!("{} IOPS", thousands(at)) } else { format!("{at:.0} MB/s") };
                out.push(Level { at, label: format!("expected, {by}: {fig}"), colour: GREY, dash: Dash::Dashed });
            }
        }
    }
    // Results matching the same row share its line.
    let mut seen: Vec<String> = Vec::new();
    out.retain(|l| {
        let new = !seen.contains(&l.label);
        seen.push(l.label.clone());
        new
    });
    out
}

fn cap(d: &Dir, iops: bool) -> Option<Level> {
    let (at, label) = if iops {
        match (d.w.iops_cap, &d.w.throttle) {
            (Some(c), _) => (c, format!("{} IOPS cap {}", d.who, thousands(c))),
            (None, Some(t)) => (t.iops, format!("{} throttle {} IOPS", d.who, thousands(t.iops))),
            _ => return None,
        }
    } else {
        let c = d.w.mbps_cap?;
        (c, format!("{} MB/s cap {c:.0}", d.who))
    };
    Some(Level { at, label, colour: d.colour, dash: Dash::Dashed })
}

/// IOPS and p99 latency against the I/Os in flight (log axes); None without a queue-depth sweep.
pub fn by_depth(sources: &[Source]) -> Option<String> {
    let ds = dirs(sources);
    let (mut iops, mut p99) = (Panel::new("IOPS", Unit::Count), Panel::new("p99 latency", Unit::Micros));
    let mut marks = Vec::new();
    let mut bs = Vec::new();
    for d in &ds {
        let sweep_bs = d.w.sweep_bs.unwrap_or(4096);
        let pts = line(d, true);
        if pts.len() < 2 {
            continue;
        }
        bs.push(sweep_bs);
        let at = |q: u64| format!("QD {q}");
        iops.curves.push(Curve {
            colour: d.colour,
            dash: d.dash,
            points: pts.iter().map(|(q, t)| (*q as f64, t.total.iops, tip(&d.who, &at(*q), t))).collect(),
        });
        p99.curves.push(Curve {
            colour: d.colour,
            dash: d.dash,
            points: pts
                .iter()
                .filter_map(|(q, t)| Some((*q as f64, t.total.lat_us.percentiles.get("99")?, tip(&d.who, &at(*q), t))))
                .collect(),
        });
        iops.levels.extend(cap(d, true));
        // IOPS = I/Os in flight ÷ latency: over the latency-bound region found, else at the
        // shallowest queue measured.
        let (lat, whence) = match &d.w.latency_bound {
            Some(lb) => (Some(lb.latency_us), format!("QD {}–{}", lb.from_qd, lb.to_qd)),
            None => (pts[0].1.total.lat_us.mean, format!("QD {}", pts[0].0)),
        };
        // A comparison draws one line a result (its reads'), so their labels fit.
        let first_of_result = !ds.iter().take_while(|o| !std::ptr::eq(*o, d)).any(|o| o.result == d.result);
        if let Some(lat) = lat.filter(|l| *l > 0.0 && (d.result.is_none() || first_of_result)) {
            iops.slopes.push(Slope {
                k: 1e6 / lat,
                label: format!("{} {}", d.result.unwrap_or(d.op), Unit::Micros.label(lat)),
                tip: format!("{}: IOPS = QD ÷ {}, the mean latency at {whence}", d.who, Unit::Micros.label(lat)),
                colour: d.colour,
            });
        }
        if let Some(k) = d.w.knee_qd {
            marks.push((k as f64, format!("knee QD {k}"), d));
        }
    }
    if iops.curves.is_empty() {
        return None;
    }
    iops.levels.extend(references(sources, true));
    bs.sort_unstable();
    bs.dedup();
    let blocks = bs.iter().map(|b| format_block(*b)).collect::<Vec<_>>().join(" and ");
    Some(plot::draw(&Chart {
        x_title: format!("I/Os in flight (queue depth × threads), {blocks} blocks, log scale"),
        x_unit: Unit::Count,
        legend: legend(&ds),
        panels: vec![iops.titled("IOPS (log scale)"), p99.titled("p99 latency (log scale)")],
        marks: merge(marks),
    }))
}

/// MB/s and IOPS against block size (log axes); None without a block-size sweep.
pub fn by_block_size(sources: &[Source]) -> Option<String> {
    let ds = dirs(sources);
    let (mut mbps, mut iops) = (Panel::new("MB/s", Unit::Count), Panel::new("IOPS", Unit::Count));
    let mut marks = Vec::new();
    let mut qds = Vec::new();
    for d in &ds {
        let Some(qd) = d.w.sweep_qd else { continue };
        let pts = line(d, false);
        if pts.len() < 2 {
            continue;
        }
        qds.push(qd);
        let at = |b: u64| format_block(b);
        mbps.curves.push(Curve {
            colour: d.colour,
            dash: d.dash,
            points: pts.iter().map(|(b, t)| (*b as f64, t.total.mbps, tip(&d.who, &at(*b), t))).collect(),
        });
        iops.curves.push(Curve {
            colour: d.colour,
            dash: d.dash,
            points: pts.iter().map(|(b, t)| (*b as f64, t.total.iops, tip(&d.who, &at(*b), t))).collect(),
        });
        mbps.levels.extend(cap(d, false));
        iops.levels.extend(cap(d, true));
        if let Some(b) = d.w.crossover_bs {
            marks.push((b as f64, format!("crossover {:.0} KiB", b as f64 / 1024.0), d));
        }
    }
    if mbps.curves.is_empty() {
        return None;
    }
    mbps.levels.extend(references(sources, false));
    iops.levels.extend(references(sources, true));
    qds.sort_unstable();
    qds.dedup();
    let qds = qds.iter().map(|q| q.to_string()).collect::<Vec<_>>().join(" and ");
    Some(plot::draw(&Chart {
        x_title: format!("block size at {qds} I/Os in flight, log scale"),
        x_unit: Unit::Bytes,
        legend: legend(&ds),
        panels: vec![mbps.titled("MB/s (10^6 B/s, log scale)"), iops.titled("IOPS (log scale)")],
        marks: merge(marks),
    }))
}

/// Marks at the same place saying the same ("knee QD 1") become one, naming whose they are:
/// "knee QD 1 (reads, writes)", or in a comparison "knee QD 1 (before, after writes)".
fn merge(found: Vec<(f64, String, &Dir)>) -> Vec<Mark> {
    let mut groups: Vec<(f64, String, Vec<&Dir>)> = Vec::new();
    for (at, what, d) in found {
        match groups.iter_mut().find(|(a, w, _)| *a == at && *w == what) {
            Some((_, _, ds)) => ds.push(d),
            None => groups.push((at, what, vec![d])),
        }
    }
    groups
        .into_iter()
        .map(|(at, what, ds)| {
            let mut owners: Vec<String> = Vec::new();
            for d in &ds {
                let both = ds.iter().filter(|o| o.result == d.result).count() > 1;
                let name = match d.result {
                    Some(r) if both => r.to_string(),
                    Some(_) => d.who.clone(),
                    None => d.op.to_string(),
                };
                if !owners.contains(&name) {
                    owners.push(name);
                }
            }
            let colour = if ds.iter().all(|d| d.colour == ds[0].colour) { ds[0].colour } else { (51, 51, 51) };
            Mark { at, label: format!("{what} ({})", owners.join(", ")), colour }
        })
        .collect()
}

impl Panel {
    fn new(title: &str, unit: Unit) -> Panel {
        Panel { title: title.into(), unit, curves: Vec::new(), levels: Vec::new(), slopes: Vec::new() }
    }

    fn titled(self, title: &str) -> Panel {
        Panel { title: title.into(), ..self }
    }
}

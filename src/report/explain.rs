//! What `explain` and `check` found, as text: the walls of reads and writes, the catalog
//! matches, the configuration named, and the advice with the measurement behind each line.

use super::cells::TEXT;
use crate::analyze::thousands as num;
use crate::result::analysis::{Axes, Explanation, Match, Wall, Walls};
use crate::result::RunResult;
use std::fmt::Write;

fn walls(o: &mut String, dir: &str, w: &Walls) {
    let _ = writeln!(o, "{dir}:");
    if let Some(lb) = &w.latency_bound {
        let _ = writeln!(
            o,
            "  latency-bound from QD {} to {}: ≈ {:.0} µs an I/O, IOPS ≈ I/Os in flight ÷ latency",
            lb.from_qd, lb.to_qd, lb.latency_us
        );
    }
    match w.knee_qd {
        Some(k) => {
            let _ = writeln!(o, "  knee at QD {k}: beyond it IOPS grows < 5 % while latency grows");
        }
        None => {
            let deepest = w.deepest_qd.map(|q| format!(" (QD {q})")).unwrap_or_default();
            let _ = writeln!(o, "  no knee: IOPS still grew at the deepest queue measured{deepest}");
        }
    }
    if let Some(t) = &w.throttle {
        let _ =
            writeln!(o, "  throttle: {} IOPS / {:.1} MB/s at every queue depth (flat {})", num(t.iops), t.mbps, t.on);
    }
    let at = w.sweep_qd.map(|q| format!(" (block sizes at QD {q})")).unwrap_or_default();
    match w.iops_cap {
        Some(c) => {
            let _ = writeln!(o, "  IOPS cap: {}{at}", num(c));
        }
        None => {
            let _ = writeln!(o, "  IOPS cap: none found");
        }
    }
    match w.mbps_cap {
        Some(c) => {
            let _ = writeln!(o, "  MB/s cap: {c:.1} MB/s");
        }
        None => {
            let _ = writeln!(o, "  MB/s cap: none found");
        }
    }
    if let Some(b) = w.crossover_bs {
        let _ = writeln!(
            o,
            "  crossover: {:.1} KiB (= MB/s cap ÷ IOPS cap): smaller blocks hit the IOPS cap, larger the MB/s cap",
            b as f64 / 1024.0
        );
    }
    if !w.binding.is_empty() {
        let mut sizes: Vec<(&String, &Wall)> = w.binding.iter().collect();
        sizes.sort_by_key(|(k, _)| crate::workload::size::parse_size(k).unwrap_or(0));
        let list: Vec<String> = sizes.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(o, "  binding: {}", list.join(", "));
    }
    for (field, why) in &w.unsure {
        let _ = writeln!(o, "  not sure of the {}: {why}", claim(field));
    }
}

/// What a field of the walls claims, as the reports name it.
pub(crate) fn claim(field: &str) -> &str {
    match field {
        "knee_qd" => "knee",
        "latency_bound" => "latency-bound region",
        "iops_cap" => "IOPS cap",
        "mbps_cap" => "MB/s cap",
        "throttle" => "throttle",
        f => f,
    }
}

/// How repeatable the target was, in one line.
pub(crate) fn repeatability(e: &Explanation) -> String {
    match &e.repeatability {
        Some(r) => format!(
            "{} point{} measured more than once; the furthest apart by {:.0} % ({})",
            r.points,
            if r.points == 1 { "" } else { "s" },
            r.spread_pct,
            r.worst
        ),
        None => "not measured: no point was measured twice".into(),
    }
}

/// One direction's matches under `head` ("" for the only one), at most 12 of them.
fn match_list(o: &mut String, head: &str, indent: &str, ms: &[Match]) {
    match (head.is_empty(), ms.is_empty()) {
        (true, true) => {
            let _ = writeln!(o, "{indent}none");
        }
        (false, true) => {
            let _ = writeln!(o, "{head} none");
        }
        (false, false) => {
            let _ = writeln!(o, "{head}");
        }
        (true, false) => {}
    }
    for m in ms.iter().take(12) {
        let mbps = m.mbps.map_or("no MB/s limit published".into(), |v| format!("{v:.0} MB/s"));
        let _ = writeln!(o, "{indent}{} ({} IOPS, {mbps}): {}{}", m.name, num(m.iops), m.on, from(m));
    }
    if ms.len() > 12 {
        let _ = writeln!(o, "{indent}… and {} more (--format json lists them all)", ms.len() - 12);
    }
}

/// The findings alone (also printed for stored results).
pub fn findings(e: &Explanation) -> String {
    let mut o = String::new();
    // Results with no pure read or write test to find walls in, but with shifts.
    if e.reads.is_none() && e.writes.is_none() && !e.over_time.is_empty() {
        over_time(&mut o, e);
        return o;
    }
    let _ = writeln!(o, "\nVerdict: {}", verdict(e));
    let _ = writeln!(o, "\nWalls");
    if let Some(w) = &e.reads {
        walls(&mut o, "reads", w);
    }
    if let Some(w) = &e.writes {
        walls(&mut o, "writes", w);
    }
    if let Some(r) = e.read_write_ratio {
        let _ = writeln!(
            o,
            "reads/writes: {r:.1}× the IOPS at the same block size and queue depth (the median of such pairs)"
        );
    }
    if let Some(why) = &e.ratio_unsure {
        let _ = writeln!(o, "  not sure of that ratio: {why}");
    }
    let _ = writeln!(o, "repeatability: {}", repeatability(e));
    let _ = writeln!(o, "\nCatalog matches (within ±{:.0} %)", e.tolerance_pct);
    // With reads and writes apart, each has its list, and "none" says whose.
    if e.reads.is_some() && e.writes.is_some() {
        match_list(&mut o, "  reads:", "    ", &e.matches);
        match_list(&mut o, "  writes:", "    ", &e.write_matches);
    } else {
        match_list(&mut o, "", "  ", &e.matches);
    }
    if let Some(x) = &e.expected {
        let _ = writeln!(o, "\nExpected from the catalog");
        let disks = x.disks_iops.map(|d| format!(" (the disks alone: {})", num(d))).unwrap_or_default();
        let _ = writeln!(o, "  IOPS {} set by {}{disks}", num(x.iops), x.iops_by);
        let disks = x.disks_mbps.map(|d| format!(" (the disks alone: {d:.0})")).unwrap_or_default();
        match x.mbps {
            Some(m) => {
                let _ = writeln!(o, "  MB/s {m:.0} set by {}{disks}", x.mbps_by);
            }
            None => {
                let _ = writeln!(o, "  MB/s: no limit published");
            }
        }
        if let (Some(i), Some(by)) = (x.burst_iops, &x.burst_iops_by) {
            let _ = writeln!(o, "  burst: IOPS {} set by {by}", num(i));
        }
        if let (Some(m), Some(by)) = (x.burst_mbps, &x.burst_mbps_by) {
            let _ = writeln!(o, "  burst: MB/s {m:.0} set by {by}");
        }
        for b in &x.bursts {
            let _ = writeln!(o, "  {}: {} [catalog: {}]", b.by, b.model.describe(), b.terms);
        }
        if !x.sources.is_empty() {
            let _ = writeln!(o, "  figures from the catalog: {}", x.sources.join("; "));
        }
    }
    over_time(&mut o, e);
    let _ = writeln!(o, "\nAdvice");
    if e.advice.is_empty() {
        let _ = writeln!(o, "  nothing stands out");
    }
    for a in &e.advice {
        match &a.unsure {
            Some(why) => {
                let _ = writeln!(o, "- Not sure: {}\n    because: {}\n    not sure, since {why}", a.advice, a.because);
            }
            None => {
                let _ = writeln!(o, "- {}\n    because: {}", a.advice, a.because);
            }
        }
    }
    o
}

/// Each test's shifts and what caused them.
fn over_time(o: &mut String, e: &Explanation) {
    if e.over_time.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nOver time");
    for t in &e.over_time {
        let _ = writeln!(o, "  {}", t.test);
        for s in &t.shifts {
            let _ = writeln!(o, "  - {}", super::timeline::line(s));
            let cause = s.cause.as_deref().unwrap_or("no cause named: no catalog row, cap or cache matches it");
            let _ = writeln!(o, "      cause: {cause}");
        }
        if let Some(sig) = &t.throttle_signature {
            let _ = writeln!(o, "  - {sig}");
        }
    }
}

pub fn render(r: &RunResult) -> String {
    // check: CrystalDiskMark's table of its profile first, then the sweep.
    let (profile, sweep): (Vec<_>, Vec<_>) = r.tests.iter().cloned().partition(|t| r.in_check_profile(t));
    let mut o = if profile.is_empty() {
        super::text::header(r)
    } else {
        let only = RunResult { tests: profile, interrupted: false, ..r.clone() };
        super::cdm::render(&only)
    };
    let r = &RunResult { tests: sweep, ..r.clone() };
    let w = r.tests.iter().map(|t| t.name.chars().count()).max().unwrap_or(5).max(5);
    let _ = writeln!(
        o,
        "\n{:<w$} | {:>10} | {:>9} | {:>9} | {:>9} | {:>7} | {:>6} | stop",
        "test", "IOPS", "MB/s", "mean µs", "p99 µs", "mean QD", "s"
    );
    let _ = writeln!(o, "{}", "-".repeat(w + 82));
    for t in &r.tests {
        let l = &t.total.lat_us;
        let _ = writeln!(
            o,
            "{:<w$} | {:>10.1} | {:>9.2} | {:>9} | {:>9} | {:>7.2} | {:>6.2} | {}",
            t.name,
            t.total.iops,
            t.total.mbps,
            TEXT.us(l.mean),
            TEXT.us(l.percentiles.get("99")),
            t.mean_qd,
            t.duration_s,
            t.steady.as_ref().and_then(|s| s.stop).map_or("–", |s| s.name())
        );
    }
    if let Some(ss) = r.tests.iter().find_map(|t| t.spec.steady.filter(|s| s.interval_ms > 0)) {
        let _ = writeln!(
            o,
            "s: measured seconds; stop: steady (IOPS of each {} ms within ±{} % of their mean over {} s), \
             cap (its full length), interrupted",
            ss.interval_ms, ss.limit, ss.dur
        );
    }
    for t in &r.tests {
        for n in t.notices.iter().filter(|n| !n.starts_with("pass ")) {
            let _ = writeln!(o, "note: {}: {n}", t.name);
        }
    }
    if let Some(e) = &r.analysis {
        o.push_str(&findings(e));
    }
    let _ = writeln!(o, "\nMB/s = 10^6 B/s; latency from submission to completion.");
    if r.interrupted {
        let _ = writeln!(o, "\nINTERRUPTED: the sweep stopped early; the walls are what the measured steps show.");
    }
    o
}

/// The first catalog row matched on IOPS (`iops`) or on MB/s.
fn matched(ms: &[Match], iops: bool) -> Option<&Match> {
    ms.iter().find(|m| if iops { m.on.axes != Axes::Mbps } else { m.on.axes != Axes::Iops && m.mbps.is_some() })
}

fn named(m: &Match, plural: bool) -> String {
    format!("match{} {}{}", if plural { "" } else { "es" }, m.name, if m.on.is_burst() { "'s burst limit" } else { "" })
}

/// One direction's walls in a phrase; `ms` are the catalog rows they matched.
fn phrase(w: &Walls, ms: &[Match]) -> String {
    let mut parts = Vec::new();
    let sure = |field: &str, s: String| if w.unsure.contains_key(field) { format!("{s} (not sure)") } else { s };
    let (mi, mm) = (matched(ms, true), matched(ms, false));
    match (w.iops_cap, w.mbps_cap) {
        (Some(i), Some(m)) if mi.is_some() && mi == mm => {
            let both = format!("{} IOPS and {m:.0} MB/s caps (both {})", num(i), named(mi.expect("checked"), true));
            parts.push(sure(if w.unsure.contains_key("iops_cap") { "iops_cap" } else { "mbps_cap" }, both));
        }
        (i, m) => {
            let with = |m: Option<&Match>| m.map(|m| format!(" ({})", named(m, false))).unwrap_or_default();
            parts.extend(i.map(|i| sure("iops_cap", format!("{} IOPS cap{}", num(i), with(mi)))));
            parts.extend(m.map(|m| sure("mbps_cap", format!("{m:.0} MB/s cap{}", with(mm)))));
        }
    }
    if let Some(t) = &w.throttle {
        parts.push(sure(
            "throttle",
            format!("flat at every queue depth ({} IOPS, {:.1} MB/s: a throttle)", num(t.iops), t.mbps),
        ));
    }
    match (w.knee_qd, &w.latency_bound) {
        (Some(k), _) => parts.push(sure("knee_qd", format!("knee at QD {k}"))),
        (None, Some(lb)) => {
            parts.push(sure("knee_qd", format!("IOPS still growing at QD {}", w.deepest_qd.unwrap_or(lb.to_qd))))
        }
        _ => {}
    }
    if parts.is_empty() {
        "no wall found".into()
    } else {
        parts.join(", ")
    }
}

/// The walls in one sentence: "5,000 IOPS cap (matches Azure Premium SSD P30), 199 MB/s cap,
/// knee at QD 1", per direction when reads and writes were both swept.
pub fn verdict(e: &Explanation) -> String {
    let noisy = e
        .repeatability
        .as_ref()
        .filter(|r| r.spread_pct > crate::analyze::infer::FLAT * 100.0)
        .map(|r| {
            format!(
                " The same test repeated came out up to {:.0} % apart ({}): walls told apart by 10 % are not sure here.",
                r.spread_pct, r.worst
            )
        })
        .unwrap_or_default();
    walls_verdict(e) + &noisy
}

fn walls_verdict(e: &Explanation) -> String {
    // The headline matches are the reads', else the writes'.
    match (&e.reads, &e.writes) {
        (Some(r), Some(w)) => format!("Reads: {}; writes: {}.", phrase(r, &e.matches), phrase(w, &e.write_matches)),
        (Some(d), None) | (None, Some(d)) => {
            let p = phrase(d, &e.matches);
            let mut c = p.chars();
            c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str() + ".").unwrap_or_default()
        }
        (None, None) => "No pure read or write test to find walls in.".into(),
    }
}

/// Where a match's published figures come from: " [catalog A41, A39 (read 2026-11-27)]".
pub(crate) fn from(m: &crate::result::analysis::Match) -> String {
    m.source.as_deref().map(|s| format!(" [catalog {s}]")).unwrap_or_default()
}

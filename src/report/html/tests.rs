//! The HTML page over the fixed result: self-contained, escaped, one figure per chart.

use crate::result::RunResult;

fn fixture() -> RunResult {
    serde_json::from_str(include_str!("../testdata/iolens_randrw_q4.json")).expect("fixture parses")
}

fn count(s: &str, pat: &str) -> usize {
    s.matches(pat).count()
}

#[test]
fn page_is_self_contained_with_its_charts() {
    let mut r = fixture();
    r.label = Some("<b>Azure & co</b>".into());
    let h = super::render(&r);
    // Throughput (IOPS, MB/s), percentiles, and per second (IOPS, p99): five charts.
    assert_eq!(count(&h, "<figure class=\"chart\">"), 5);
    assert_eq!(count(&h, "<svg "), 5);
    assert!(h.contains("&lt;b&gt;Azure &amp; co&lt;/b&gt;") && !h.contains("<b>Azure"));
    // Nothing is fetched: no URL but the SVG namespace, and the policy forbids fetching.
    let urls: Vec<&str> = h.match_indices("://").map(|(i, _)| &h[i.saturating_sub(5)..(i + 30).min(h.len())]).collect();
    assert!(urls.iter().all(|u| u.contains("http://www.w3.org/2000/svg")), "{urls:?}");
    assert!(h.contains("default-src 'none'"));
    assert!(!h.contains("<script") && !h.contains(" src=") && !h.contains("url("));
    // Every row of the summary: read, write and total of the mix.
    assert_eq!(count(&h, "<td>read</td>") + count(&h, "<td>write</td>") + count(&h, "<td>total</td>"), 3);
}

#[test]
fn comparison_page_has_grouped_bars_and_verdicts() {
    let a = fixture();
    let mut b = fixture();
    for t in &mut b.tests {
        t.read.iops *= 3.0;
        t.write.iops *= 0.5;
    }
    let c = crate::compare::compare(&[a, b], &["before".into(), "after".into()], 0, 0.10);
    let h = super::compare(&c, &[]);
    assert_eq!(count(&h, "<figure class=\"chart\">"), 3);
    assert!(h.contains("<td class=v>&gt;&gt;&gt;</td>"), "read 3× ahead");
    assert!(h.contains("<td class=v>&lt;&lt;</td>"), "write at half");
}

/// `check --quick` of a loop device throttled to an Azure P30's limits (histograms emptied: the
/// page does not draw them).
fn check_fixture() -> RunResult {
    serde_json::from_str(include_str!("../testdata/check_p30_quick.json")).expect("fixture parses")
}

/// The text from `start` up to the next `end`.
fn part<'a>(h: &'a str, start: &str, end: &str) -> &'a str {
    let at = h.find(start).unwrap_or_else(|| panic!("no {start}"));
    &h[at..at + h[at..].find(end).unwrap_or_else(|| panic!("no {end} after {start}"))]
}

#[test]
fn check_page_opens_with_crystaldiskmark_the_verdict_and_the_curves() {
    let h = super::render(&check_fixture());
    let order: Vec<usize> = ["<table class=\"cdm\">", "<p class=\"verdict\">", "id=\"by-depth\"", "id=\"by-size\""]
        .iter()
        .map(|p| h.find(p).unwrap_or_else(|| panic!("no {p}")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "table, verdict, then the curves: {order:?}");
    assert!(h.find("<table").unwrap() == order[0], "CrystalDiskMark's table is the first");
    let cdm = part(&h, "<table class=\"cdm\">", "</table>");
    assert_eq!(count(cdm, "<tr><th>"), 4, "a header and SEQ1M Q8T1, RND4K Q32T1, RND4K Q1T1: {cdm}");
    assert!(cdm.find("SEQ1M Q8T1").unwrap() < cdm.find("RND4K Q32T1").unwrap());
    assert!(cdm.contains("title=\"190 IOPS, mean 41,310 µs, p99 101,404 µs\">199.23</td>"), "{cdm}");
    let verdict = part(&h, "<p class=\"verdict\">", "</p>");
    assert!(verdict.contains("Reads: 5,000 IOPS cap (matches Azure Premium SSD P30), flat at every queue depth (5,068 IOPS, 20.8 MB/s: a throttle), knee at QD 1; writes: knee at QD 1."), "{verdict}");
    // Reads at QD 1, 2, 4 and 16, in both panels: the sweep's line, measured together
    // (CrystalDiskMark's RND4K Q32T1 is not on it).
    let by_depth = part(&h, "id=\"by-depth\"", "</figure>");
    assert_eq!(count(by_depth, "<title>reads QD "), 8);
    assert_eq!(count(by_depth, "<title>writes QD "), 8);
    assert_eq!(count(by_depth, "<title>reads QD 32"), 0);
    for label in ["knee QD 1 (reads, writes)", "reads IOPS cap 5,000", "Azure Premium SSD P30: 5,000 IOPS"] {
        assert!(by_depth.contains(label), "{label} against queue depth");
    }
    assert!(by_depth.contains("reads: IOPS = QD ÷ 203 µs, the mean latency at QD 1"), "the latency-bound line");
    let by_size = part(&h, "id=\"by-size\"", "</figure>");
    assert_eq!(count(by_size, "<title>reads 4K: ") + count(by_size, "<title>reads 8K: "), 4);
    assert!(by_size.contains("reads IOPS cap 5,000"));
    // The sweep's 15 tests as one bar chart no more; percentiles and seconds stay.
    assert!(!h.contains("IOPS per test"));
    assert_eq!(count(&h, "<figure class=\"chart\""), 5);
    assert!(!h.contains("<script") && !h.contains("url("));
}

#[test]
fn the_verdict_names_the_row_both_caps_match() {
    use crate::result::analysis::{Axes, Explanation, Limit, Match, MatchOn, Walls};
    let w = Walls { iops_cap: Some(4971.0), mbps_cap: Some(198.9), knee_qd: Some(1), ..Walls::default() };
    let on = MatchOn { limit: Limit::Disk, axes: Axes::IopsAndMbps };
    let p30 = Match { name: "Azure Premium SSD P30".into(), iops: 5000.0, mbps: Some(200.0), on, source: None };
    let e = Explanation { walls: w.clone(), reads: Some(w), matches: vec![p30], ..Explanation::default() };
    assert_eq!(
        super::check::verdict(&e),
        "4,971 IOPS and 199 MB/s caps (both match Azure Premium SSD P30), knee at QD 1."
    );
    let e = Explanation { matches: Vec::new(), ..e };
    assert_eq!(super::check::verdict(&e), "4,971 IOPS cap, 199 MB/s cap, knee at QD 1.");
}

#[test]
fn a_comparison_of_checks_overlays_their_sweeps() {
    let (a, mut b) = (check_fixture(), check_fixture());
    for t in &mut b.tests {
        t.total.iops *= 0.46;
        t.read.iops *= 0.46;
        t.write.iops *= 0.46;
    }
    let both = [a, b];
    let c = crate::compare::compare(&both, &["before".into(), "after".into()], 0, 0.10);
    let h = super::compare(&c, &both);
    for id in ["by-depth", "by-size"] {
        let fig = part(&h, &format!("id=\"{id}\""), "</figure>");
        for who in ["before reads", "after reads"] {
            assert!(fig.contains(&format!("<title>{who} ")), "{who} on {id}");
        }
    }
    assert!(part(&h, "<table class=\"cdm\">", "</table>").contains("<span class=vd>&lt;&lt;</span>"), "0.46×");
    let verdicts = part(&h, "<ul class=\"verdicts\">", "</ul>");
    assert_eq!(count(verdicts, "Reads: 5,000 IOPS cap"), 2, "each result's verdict (its stored analysis)");
    assert_eq!(count(&h, "<figure class=\"chart\""), 2, "no bars: the curves");
}

/// The page's skeleton: one line per element (name, id, class), indented by depth; a chart
/// as one `svg` line with its element count, a table row as its cell count, a heading with
/// its text, and runs of equal lines as one line with a count. What a reader navigates by,
/// without the figures a changed fixture would move.
fn skeleton(h: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    let (mut depth, mut rest) = (0usize, h);
    while let Some(at) = rest.find('<') {
        rest = &rest[at..];
        let end = rest.find('>').expect("tag closes");
        let tag = &rest[1..end];
        let name: String = tag.trim_start_matches('/').chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        let attr = |key: &str| {
            let k = format!("{key}=");
            tag.find(&k)
                .map(|i| tag[i + k.len()..].trim_start_matches('"').split(['"', ' ']).next().unwrap_or("").to_string())
        };
        let pad = "  ".repeat(depth);
        let mut line = format!("{pad}{name}");
        line += &attr("id").map_or(String::new(), |v| format!(" #{v}"));
        line += &attr("class").map_or(String::new(), |v| format!(" .{v}"));
        let close_at = |what: &str| rest.find(&format!("</{what}>")).map(|i| i + what.len() + 3).expect("closed");
        if tag.starts_with('!') || tag.starts_with('/') {
            depth -= usize::from(tag.starts_with('/'));
            rest = &rest[end + 1..];
            continue;
        }
        if ["svg", "tr"].contains(&name.as_str()) {
            let stop = close_at(&name);
            let inner = &rest[end + 1..stop];
            line += &match name.as_str() {
                "svg" => format!(" ({} elements)", inner.matches('<').count() - inner.matches("</").count()),
                _ => format!(" ({} cells)", inner.matches("<td").count() + inner.matches("<th").count()),
            };
            lines.push(line);
            rest = &rest[stop..];
            continue;
        }
        if ["h1", "h2", "h3", "caption", "figcaption", "title"].contains(&name.as_str()) {
            let stop = close_at(&name);
            let text = &rest[end + 1..stop - name.len() - 3];
            line += &format!(": {}", text.split('<').next().unwrap_or(""));
            lines.push(line);
            rest = &rest[stop..];
            continue;
        }
        lines.push(line);
        let void = ["meta", "br", "hr", "img", "col", "input", "link"].contains(&name.as_str()) || tag.ends_with('/');
        depth += usize::from(!void);
        rest = &rest[end + 1..];
    }
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        if lines.get(i + 1) == Some(l) {
            continue;
        }
        let run = lines[..=i].iter().rev().take_while(|x| *x == l).count();
        out += &if run > 1 { format!("{l} ×{run}\n") } else { format!("{l}\n") };
    }
    out
}

#[test]
fn page_structure_snapshot() {
    insta::assert_snapshot!(skeleton(&super::render(&fixture())));
}

#[test]
fn check_page_structure_snapshot() {
    insta::assert_snapshot!(skeleton(&super::render(&check_fixture())));
}

#[test]
fn shifts_are_drawn_as_levels_on_the_per_second_charts_and_listed() {
    use crate::result::shifts::{Level, Metric, Shift};
    let mut r = fixture();
    let lvl = |start_s, end_s, mean| Level { start_s, end_s, mean, spread: 1.0 };
    let s = Shift {
        at_s: 15,
        metric: Metric::Iops,
        before: lvl(0, 15, 2000.0),
        after: lvl(15, 30, 1000.0),
        stayed: true,
        cause: Some("a cap & more".into()),
    };
    r.tests[0].shifts = vec![s];
    let h = super::render(&r);
    let name = format!("{}: levels", r.tests[0].name);
    assert_eq!(count(&h, &name), 1, "one step line, on the IOPS chart (none on p99: no p99 shift)");
    assert!(h.contains("<li>at 0:15 IOPS fell 2,000 → 1,000 (-50 %) and stayed <em>a cap &amp; more</em></li>"), "{h}");
}

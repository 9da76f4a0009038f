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

//! Snapshots of the text, CSV and Markdown reports over one fixed result (a 1 s randrw run), and
//! DiskSpd's XML read from it.

use crate::result::RunResult;

pub(super) fn fixture() -> RunResult {
    serde_json::from_str(include_str!("testdata/iolens_randrw_q4.json")).expect("fixture parses")
}

#[test]
fn text_snapshot() {
    insta::assert_snapshot!(super::text::render(&fixture()));
}

#[test]
fn csv_snapshot() {
    let csv = super::csv::render(&fixture());
    // Fixed columns: 23 before the latency figures, min, 23 percentiles, max, then a multi-host
    // run's rank and rank_host (empty here), then the test's mean queue depth.
    assert!(csv.lines().all(|l| l.split(',').count() == 51), "column count");
    assert!(csv.lines().skip(1).all(|l| l.ends_with(",,3.844")), "no rank in a single-host run; mean QD");
    assert_eq!(csv.lines().count(), 4);
    insta::assert_snapshot!(csv);
}

#[test]
fn markdown_snapshot() {
    insta::assert_snapshot!(super::markdown::render(&fixture()));
}

#[test]
fn json_round_trips() {
    let r = fixture();
    let back: RunResult = serde_json::from_str(&super::json::render(&r)).unwrap();
    assert_eq!(back, r);
}

/// The value of `<{leaf}>` in the `<Bucket>` whose `<Percentile>` is `pct`, if it has one.
fn bucket(xml: &str, pct: &str, leaf: &str) -> Option<String> {
    let at = xml.find(&format!("<Percentile>{pct}</Percentile>"))?;
    let rest = &xml[at..xml[at..].find("</Bucket>")? + at];
    let start = rest.find(&format!("<{leaf}>"))? + leaf.len() + 2;
    Some(rest[start..start + rest[start..].find('<')?].to_string())
}

#[test]
fn diskspd_xml_percentiles_come_from_the_histogram_or_the_summary() {
    let mut r = fixture();
    r.host.targets[0].path = "a<b&c.dat".into();
    let xml = super::render(&r, super::Format::DiskspdXml);
    assert!(xml.contains("<Path>a&lt;b&amp;c.dat</Path>"), "{xml}");
    let t = &r.tests[0];
    let ms = |us: f64| format!("{:.3}", us / 1000.0);
    // From the histogram: the summary's own percentiles, and any other DiskSpd lists.
    let p99 = t.total.lat_us.percentiles.get("99").unwrap();
    assert_eq!(bucket(&xml, "99", "TotalMilliseconds"), Some(ms(p99)));
    assert_eq!(bucket(&xml, "0", "ReadMilliseconds"), Some(ms(t.read.lat_us.min.unwrap())));
    assert_eq!(bucket(&xml, "100", "WriteMilliseconds"), Some(ms(t.write.lat_us.max.unwrap())));
    let p2 = bucket(&xml, "2", "ReadMilliseconds").unwrap();
    let p5 = bucket(&xml, "5", "ReadMilliseconds").unwrap();
    assert!(p2.parse::<f64>().unwrap() <= p5.parse::<f64>().unwrap(), "p2 {p2} > p5 {p5}");
    // A result imported without histograms keeps the percentiles its summary has, and only those.
    let hs = &mut r.tests[0].histograms;
    for h in [&mut hs.read, &mut hs.write] {
        h.count = 0;
        h.buckets.clear();
    }
    let xml = super::render(&r, super::Format::DiskspdXml);
    assert_eq!(bucket(&xml, "99", "TotalMilliseconds"), Some(ms(p99)));
    assert_eq!(bucket(&xml, "2", "ReadMilliseconds"), None);
    assert_eq!(xml.matches("<Bucket>").count(), 108);
}

#[test]
fn diskspd_xml_marks_an_interrupted_test_and_its_notices() {
    let mut r = fixture();
    let xml = super::render(&r, super::Format::DiskspdXml);
    assert!(!xml.contains("<Warning>"), "{xml}");
    r.interrupted = true;
    r.tests[0].interrupted = true;
    r.tests[0].notices = vec!["partial: 2 of 3 ranks <ran> it".into()];
    let xml = super::render(&r, super::Format::DiskspdXml);
    let span = &xml[xml.find("<TimeSpan>\n").unwrap()..];
    let warnings: Vec<&str> = span.lines().filter(|l| l.trim_start().starts_with("<Warning>")).map(str::trim).collect();
    assert_eq!(
        warnings,
        [
            "<Warning>Interrupted (Ctrl-C): the figures cover only the time measured before it.</Warning>",
            "<Warning>partial: 2 of 3 ranks &lt;ran&gt; it</Warning>"
        ]
    );
}

#[test]
fn cache_flags_are_named_as_the_measuring_os_names_them() {
    let mut r = fixture();
    assert!(super::text::render(&r).contains("O_DIRECT (page cache bypassed)"));
    r.host.os = "Windows Server 2022 Datacenter 21H2".into();
    let text = super::text::render(&r);
    assert!(text.contains("FILE_FLAG_NO_BUFFERING (system cache bypassed)"), "{text}");
    assert!(!text.contains("O_DIRECT"), "{text}");
    r.tests[0].spec.write_through = true;
    let text = super::text::render(&r);
    assert!(text.contains("FILE_FLAG_NO_BUFFERING + FILE_FLAG_WRITE_THROUGH (write-through)"), "{text}");
}

#[test]
fn percentiles_are_ordinals() {
    let o: Vec<String> = ["1", "2", "3", "5", "11", "12", "50", "99", "99.9", "99.99"]
        .iter()
        .map(|p| super::cells::ordinal(p))
        .collect();
    assert_eq!(o, ["1st", "2nd", "3rd", "5th", "11th", "12th", "50th", "99th", "99.9th", "99.99th"]);
}

use super::*;
use crate::result::RunResult;

fn template() -> TestResult {
    let r: RunResult =
        serde_json::from_str(include_str!("../../report/testdata/iolens_randrw_q4.json")).expect("fixture parses");
    r.tests.into_iter().next().expect("one test")
}

/// A rank's test whose I/Os are `lat_ns` (reads) over `secs` seconds, with its own row.
fn rank_test(rank: u32, lat_ns: &[u64], secs: f64) -> TestResult {
    let mut t = template();
    let (mut read, write) = (LatRec::default(), LatRec::default());
    for &ns in lat_ns {
        read.record(ns);
    }
    let bytes = lat_ns.len() as u64 * 4096;
    t.spec.targets = vec![format!("/data/file.{rank}")];
    t.spec.rate_iops = None;
    t.spec.rate_mbps = None;
    t.duration_s = secs;
    t.read = OpStats::new(&read, bytes, secs);
    t.write = OpStats::new(&write, 0, secs);
    t.total = OpStats::new(&read, bytes, secs);
    t.histograms = Histograms::service(read.dump(), write.dump(), None);
    let meta = RankMeta {
        rank,
        host: format!("node{rank}"),
        start_offset_ms: rank as f64,
        end_offset_ms: secs * 1000.0,
        clock_offset_ms: 0.5,
        clock_rtt_ms: 0.1,
        region: None,
        first_done: None,
    };
    t.ranks = vec![rank_row(&t, &meta)];
    t
}

#[test]
fn sums_throughput_and_merges_latency_exactly() {
    // Rank 1 is ten times slower: an average of the ranks' p99s would be far from the p99 of
    // all I/Os together.
    let fast: Vec<u64> = (0..9000).map(|i| 100_000 + i * 7 % 5000).collect();
    let slow: Vec<u64> = (0..1000).map(|i| 1_000_000 + i * 13 % 90_000).collect();
    let tests = [rank_test(0, &fast, 10.0), rank_test(1, &slow, 9.5)];
    let c = combine(&tests).unwrap();
    assert_eq!(c.total.ios, 10_000);
    assert!((c.total.iops - (900.0 + 1000.0 / 9.5)).abs() < 1e-9, "{}", c.total.iops);
    assert_eq!(c.total.bytes, 10_000 * 4096);
    let mut all = LatRec::default();
    for &ns in fast.iter().chain(&slow) {
        all.record(ns);
    }
    assert_eq!(c.total.lat_us, all.summary());
    assert_eq!(c.histograms.read, all.dump());
    let p99 = c.total.lat_us.percentiles.get("99").unwrap();
    let avg = (tests[0].ranks[0].p99_us.unwrap() + tests[1].ranks[0].p99_us.unwrap()) / 2.0;
    assert!(p99 > 1000.0 && (p99 - avg).abs() > 100.0, "p99 {p99} µs, average of p99s {avg} µs");
    assert_eq!(c.response.total, all.summary());
    assert_eq!(c.ranks.iter().map(|r| (r.rank, r.host.as_str())).collect::<Vec<_>>(), [(0, "node0"), (1, "node1")]);
    assert_eq!(c.spec.targets, ["/data/file.0", "/data/file.1"]);
    assert_eq!(c.duration_s, 10.0);
    let named: Vec<&String> = c.notices.iter().filter(|n| n.contains("outlier")).collect();
    assert_eq!(named.len(), 1, "{:?}", c.notices);
    assert!(named[0].starts_with("rank 1 (node1) is an outlier: p99 1"), "{}", named[0]);
}

#[test]
fn threads_point_at_their_rank_targets_and_seconds_add_up() {
    let a = rank_test(0, &[200_000; 50], 1.0);
    let b = rank_test(1, &[300_000; 70], 1.0);
    let c = combine(&[a.clone(), b.clone()]).unwrap();
    assert_eq!(c.threads.len(), a.threads.len() + b.threads.len());
    let last = c.threads.last().unwrap();
    assert_eq!(last.target, 1 + b.threads.last().unwrap().target);
    assert_eq!(c.seconds.len(), a.seconds.len().max(b.seconds.len()));
    assert!((c.seconds[0].iops - (a.seconds[0].iops + b.seconds[0].iops)).abs() < 1e-9);
    assert!(combine(&[]).is_none());
    // Within twice of each other: no rank is singled out.
    assert!(!c.notices.iter().any(|n| n.contains("outlier")), "{:?}", c.notices);
}

#[test]
fn text_report_has_a_row_per_rank_and_the_spread() {
    let tests =
        [rank_test(0, &[200_000; 50], 1.0), rank_test(1, &[300_000; 70], 1.0), rank_test(2, &[250_000; 60], 1.0)];
    let mut r: RunResult =
        serde_json::from_str(include_str!("../../report/testdata/iolens_randrw_q4.json")).expect("fixture parses");
    r.tests = vec![combine(&tests).unwrap()];
    let text = crate::report::render(&r, crate::report::Format::Text);
    assert!(text.contains("\nranks: 3 on 3 hosts (the host above is rank 0's)\n"), "{text}");
    let rows: Vec<&str> = text.lines().filter(|l| l.contains(" node")).collect();
    assert_eq!(rows.len(), 3, "{text}");
    let cells: Vec<&str> = rows[1].split_whitespace().collect();
    // rank, host, IOPS, MB/s, p99 µs, secs, start ms, end ms, clock ms
    assert_eq!(&cells[..4], ["1", "node1", "70.0", "0.29"], "{}", rows[1]);
    assert_eq!(cells[6], "1.000");
    assert!(text.contains("start spread 2.000 ms, first done 1000.0 ms, last done 1000.0 ms"), "{text}");
    assert!(text.contains("within ±0.050 ms"), "{text}");
}

/// A rank's second whose I/Os took `lat_ns`, with its buckets as a rank sends them.
fn second(k: u32, lat_ns: &[u64]) -> SecondStats {
    let mut h = SecondHist::default();
    for &ns in lat_ns {
        h.record(ns);
    }
    let n = lat_ns.len() as f64;
    SecondStats {
        second: k,
        read_iops: n,
        write_iops: 0.0,
        iops: n,
        mbps: n * 4096.0 / 1e6,
        mibps: n * 4096.0 / 1048576.0,
        p50_us: h.percentile_us(50.0),
        p99_us: h.percentile_us(99.0),
        latency_ns: h.buckets(),
    }
}

#[test]
fn each_second_is_the_exact_merge_of_the_ranks_seconds() {
    // Second 1: rank 0 has 990 fast I/Os, rank 1 has 10 slow ones, so the merged p99 is the
    // fast ones' edge, not the slow rank's p99; second 2 the other way round.
    let fast: Vec<u64> = (0..990).map(|i| 50_000 + i * 37 % 9_000).collect();
    let slow: Vec<u64> = (0..10).map(|i| 5_000_000 + i * 100_000).collect();
    let mut a = rank_test(0, &[100_000; 10], 2.0);
    let mut b = rank_test(1, &[100_000; 10], 2.0);
    a.seconds = vec![second(1, &fast), second(2, &slow)];
    b.seconds = vec![second(1, &slow), second(2, &fast[..100])];
    a.ranks = vec![rank_row(&a, &meta(0))];
    b.ranks = vec![rank_row(&b, &meta(1))];
    let c = combine(&[a.clone(), b.clone()]).unwrap();
    for (k, (x, y)) in [(&fast[..], &slow[..]), (&slow[..], &fast[..100])].iter().enumerate() {
        let mut all = SecondHist::default();
        for &ns in x.iter().chain(y.iter()) {
            all.record(ns);
        }
        let s = &c.seconds[k];
        assert_eq!((s.p50_us, s.p99_us), (all.percentile_us(50.0), all.percentile_us(99.0)), "second {}", k + 1);
        assert_eq!(s.iops, (x.len() + y.len()) as f64);
        assert!(s.latency_ns.is_empty(), "the combined seconds keep no buckets");
    }
    // The highest rank p99 of second 1 is the slow rank's: 5 ms and more, not the merge's.
    assert!(c.seconds[0].p99_us.unwrap() < 1000.0 && b.seconds[0].p99_us.unwrap() > 5000.0);
    // Each rank row keeps its seconds, buckets and all, to check the merge against.
    assert_eq!(c.ranks[1].seconds, b.seconds);
}

fn meta(rank: u32) -> RankMeta {
    RankMeta {
        rank,
        host: format!("node{rank}"),
        start_offset_ms: 0.0,
        end_offset_ms: 2000.0,
        clock_offset_ms: 0.0,
        clock_rtt_ms: 0.1,
        region: None,
        first_done: None,
    }
}

#[test]
fn markdown_csv_and_html_have_a_row_per_rank_and_mark_the_outlier() {
    // Rank 2's I/Os take ten times as long: it is the outlier.
    let tests =
        [rank_test(0, &[200_000; 50], 1.0), rank_test(1, &[300_000; 70], 1.0), rank_test(2, &[3_000_000; 60], 1.0)];
    let mut r: RunResult =
        serde_json::from_str(include_str!("../../report/testdata/iolens_randrw_q4.json")).expect("fixture parses");
    r.tests = vec![combine(&tests).unwrap()];
    let md = crate::report::render(&r, crate::report::Format::Markdown);
    let rows: Vec<&str> = md.lines().filter(|l| l.contains("| node")).collect();
    assert_eq!(rows.len(), 3, "{md}");
    assert!(rows[1].starts_with("| 1 | node1 | 70 | 0.29 |"), "{}", rows[1]);
    assert!(rows[2].starts_with("| **2** | node2 |"), "the outlier in bold: {}", rows[2]);
    assert!(md.contains("Start spread 2.000 ms, first done 1000.0 ms"), "{md}");
    let csv = crate::report::render(&r, crate::report::Format::Csv);
    let mut rd = ::csv::Reader::from_reader(csv.as_bytes());
    let head = rd.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let recs: Vec<::csv::StringRecord> = rd.records().map(Result::unwrap).collect();
    let ranked: Vec<&::csv::StringRecord> = recs.iter().filter(|x| !x[col("rank")].is_empty()).collect();
    assert_eq!(recs.len(), 3 + 3, "read, write and total, then a row per rank");
    assert_eq!(ranked.iter().map(|x| &x[col("rank_host")]).collect::<Vec<_>>(), ["node0", "node1", "node2"]);
    assert_eq!(&ranked[1][col("ios")], "70");
    // Every I/O of rank 2 took 3 ms: its p99 from its own histogram.
    let p99: f64 = ranked[2][col("p99_us")].parse().unwrap();
    assert!((p99 - 3000.0).abs() < 3000.0 * 0.001, "{p99}");
    let html = crate::report::render(&r, crate::report::Format::Html);
    let table = &html[html.find("<table class=\"ranks\">").expect("a rank table")..];
    let table = &table[..table.find("</table>").unwrap()];
    assert_eq!(table.matches("<tr").count(), 4, "a head and three ranks: {table}");
    assert_eq!(table.matches("<tr class=\"warn\"").count(), 1);
    assert!(table.contains("<tr class=\"warn\" title=\"p99 more than twice every other rank's\"><td class=n>2</td>"));
    assert!(html.contains("IOPS per rank: "), "the per-rank chart");
}

#[test]
fn ranks_on_one_shared_target_combine_into_its_whole_region() {
    let mut tests: Vec<TestResult> = (0..3).map(|r| rank_test(r, &[100_000; 10], 1.0)).collect();
    for (r, t) in tests.iter_mut().enumerate() {
        t.spec.targets = vec!["/data/shared".into()];
        t.ranks[0].region = Some(((1 << 20) + r as u64 * (4 << 20), 4 << 20));
    }
    let c = combine(&tests).unwrap();
    assert_eq!(c.spec.targets, ["/data/shared"]);
    assert_eq!((c.spec.offset, c.spec.range), (1 << 20, Some(12 << 20)));
    assert_eq!(c.ranks.iter().map(|r| r.region.unwrap().0).collect::<Vec<_>>(), [1 << 20, 5 << 20, 9 << 20]);
    // Without parts, the ranks' own targets are listed one after the other.
    tests[1].ranks[0].region = None;
    assert_eq!(combine(&tests).unwrap().spec.targets.len(), 3);
}

#[test]
fn first_and_last_done_figures_come_from_the_rows() {
    // Three ranks of 1 s, 2 s and 4 s with 1000, 2000 and 4000 I/Os; when the first was done
    // (1 s) they had done 1000, 1000 and 1000 (the others in 1.001 s, told a moment later).
    let mut tests = [rank_test(0, &[100_000; 1000], 1.0), rank_test(1, &[100_000; 2000], 2.0)];
    let mut third = rank_test(2, &[100_000; 4000], 4.0);
    for (t, s) in tests.iter_mut().chain([&mut third]).zip([1.0, 1.001, 1.001]) {
        t.ranks[0].first_done = Some(FirstDone { ios: 1000, bytes: 1000 * 4096, seconds: s });
    }
    let c = combine(&[tests[0].clone(), tests[1].clone(), third]).unwrap();
    let w = crate::result::ranks::common_window(&c.ranks).unwrap();
    let first = 1000.0 + 2.0 * 1000.0 / 1.001;
    assert!((w.iops - first).abs() < 1e-9 && (w.mbps - first * 4096.0 / 1e6).abs() < 1e-9, "{w:?}");
    assert_eq!((w.ios, w.seconds), (3000, 1.001));
    // Last done: 7000 I/Os by the end of the longest rank's 4 s, not the ranks' rates summed.
    assert_eq!((w.last_iops, c.total.iops), (1750.0, 3000.0));
    let mut r: RunResult =
        serde_json::from_str(include_str!("../../report/testdata/iolens_randrw_q4.json")).expect("fixture parses");
    r.tests = vec![c.clone()];
    let text = crate::report::render(&r, crate::report::Format::Text);
    assert!(
        text.contains(
            "first done: 2998.0 IOPS, 12.28 MB/s over the common window (3000 I/Os, 1.001 s, until the first"
        ),
        "{text}"
    );
    assert!(text.contains("last done: 1750.0 IOPS, 7.17 MB/s"), "{text}");
    // A rank without its share (stopped before the first was done): no common window.
    let mut partial = c;
    partial.ranks[1].first_done = None;
    assert!(crate::result::ranks::common_window(&partial.ranks).is_none());
}

#[test]
fn paced_response_and_fsync_latency_merge_exactly() {
    // Rank 0's responses all take 100 µs, rank 1's 99 of 100 take 10 ms: the merged p50 is
    // rank 0's, the merged p99 rank 1's; rank 0 alone would say 100 µs for both.
    let rec = |ns: &[(u64, usize)]| {
        let mut r = LatRec::default();
        for &(v, n) in ns {
            (0..n).for_each(|_| r.record(v));
        }
        r
    };
    let mut tests = [rank_test(0, &[50_000; 100], 1.0), rank_test(1, &[50_000; 100], 1.0)];
    let resp = [rec(&[(100_000, 100)]), rec(&[(100_000, 1), (10_000_000, 99)])];
    let syncs = [rec(&[(1_000_000, 10)]), rec(&[(2_000_000, 30)])];
    for (k, t) in tests.iter_mut().enumerate() {
        t.spec.rate_iops = Some(100.0);
        t.histograms.response_read = Some(resp[k].dump());
        t.histograms.response_write = Some(LatRec::default().dump());
        t.histograms.fsync = Some(syncs[k].dump());
        t.fsync.count = syncs[k].count();
        t.response.read = resp[k].summary();
    }
    let c = combine(&tests).unwrap();
    let (mut all, mut sync) = (resp[0].clone(), syncs[0].clone());
    all += &resp[1];
    sync += &syncs[1];
    assert_eq!(c.response.read, all.summary());
    assert_eq!(c.response.total.percentiles.get("99"), all.summary().percentiles.get("99"));
    assert!(c.response.read.percentiles.get("99").unwrap() > 9000.0);
    assert_eq!((c.fsync.count, &c.fsync.lat_us), (40, &sync.summary()));
    assert!(!c.notices.iter().any(|n| n.contains("response latency is rank 0's")), "{:?}", c.notices);
    // From ranks that kept no response histograms: rank 0's, said so.
    tests[1].histograms.response_read = None;
    let c = combine(&tests).unwrap();
    assert_eq!(c.response.read, resp[0].summary());
    assert!(c.notices.iter().any(|n| n.contains("response latency is rank 0's")));
}

#[test]
fn a_combined_test_counts_every_ranks_ios_in_flight() {
    // explain reads the combined test: its knee is where the ranks' I/Os in flight together stop
    // adding IOPS, so three ranks at depth 4 are 12 outstanding, on targets of their own or on
    // parts of one shared target alike.
    let lat: Vec<u64> = (0..1000).map(|i| 200_000 + i * 11 % 3000).collect();
    let mut tests: Vec<TestResult> = (0..3).map(|k| rank_test(k, &lat, 1.0)).collect();
    for t in &mut tests {
        t.spec.read_pct = 100;
    }
    let one = crate::analyze::infer::Point::of(&tests[0]).unwrap();
    assert_eq!(one.outstanding, tests[0].depth * tests[0].threads.len() as u32);
    for shared in [false, true] {
        for (r, t) in tests.iter_mut().enumerate().filter(|_| shared) {
            t.spec.targets = vec!["/data/shared".into()];
            t.ranks[0].region = Some((r as u64 * (4 << 20), 4 << 20));
        }
        let c = combine(&tests).unwrap();
        assert_eq!(c.spec.targets.len(), if shared { 1 } else { 3 });
        let all = crate::analyze::infer::Point::of(&c).unwrap();
        assert_eq!(all.outstanding, 3 * one.outstanding, "shared {shared}");
        assert!((all.iops - 3.0 * one.iops).abs() < 1e-6, "{} against {}", all.iops, one.iops);
    }
}

#[test]
fn a_comparison_says_how_many_ranks_and_hosts_ran_a_result() {
    let lat = [100_000; 10];
    let mut r: RunResult =
        serde_json::from_str(include_str!("../../report/testdata/iolens_randrw_q4.json")).expect("fixture parses");
    let single = r.clone();
    r.tests = vec![combine(&(0..3).map(|k| rank_test(k, &lat, 1.0)).collect::<Vec<_>>()).unwrap()];
    r.host.hostname = "node0".into();
    let mut one_host = r.clone();
    one_host.tests[0].ranks.iter_mut().for_each(|k| k.host = "vm".into());
    one_host.host.hostname = "vm".into();
    let names = ["a".to_string(), "b".into(), "c".into()];
    let results = [single.clone(), r, one_host];
    let c = crate::compare::compare(&results, &names, 0, 0.1);
    let hosts: Vec<&str> = c.results.iter().map(|s| s.host.as_str()).collect();
    assert_eq!(hosts, [single.host.hostname.as_str(), "node0 (rank 0), 3 ranks on 3 hosts", "vm, 3 ranks on 1 host"]);
    let text = crate::report::render_comparison(&c, &results, crate::report::Format::Text).unwrap();
    assert!(text.contains("\nb: node0 (rank 0), 3 ranks on 3 hosts"), "{text}");
}

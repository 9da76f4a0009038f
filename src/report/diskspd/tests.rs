//! The shape of the DiskSpd layouts over one fixed result, read as a `diskspd` line: sections in
//! DiskSpd 2.2's order, its column heads as -L and -D add them, its percentile rows, and the
//! XML element and attribute paths its readers look for.

use crate::result::{CpuPlace, RunResult};
use quick_xml::events::Event;
use std::collections::BTreeSet;

/// The report tests' fixed result, as if `iolens diskspd` had run it with `line`.
fn fixture(line: &str) -> RunResult {
    let mut r: RunResult =
        serde_json::from_str(include_str!("../testdata/iolens_randrw_q4.json")).expect("fixture parses");
    r.command = "diskspd".into();
    r.args = std::iter::once("diskspd").chain(line.split(' ')).map(String::from).collect();
    r
}

const FULL: &str = "-t1 -o4 -b4K -r -w25 -d1 -Sh -D -L -c16M x.dat";

/// Unindented lines that are not table rows or rules: the section heads.
fn sections(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with([' ', '\t']) && !l.contains('|') && !l.contains('\t'))
        .filter(|l| !l.chars().all(|c| c == '-' || c == '*') && !l.starts_with("total:"))
        .map(|l| l.split_once(": ").filter(|_| !l.ends_with(':')).map_or(l, |(head, _)| head))
        .collect()
}

/// The header row under each section head ("Total IO" → "thread | bytes | …").
fn header_after<'a>(text: &'a str, head: &str) -> &'a str {
    let at = text.find(&format!("\n{head}\n")).unwrap_or_else(|| panic!("no {head} in\n{text}"));
    text[at + head.len() + 2..].lines().next().unwrap()
}

fn columns(row: &str) -> Vec<&str> {
    row.split('|').map(str::trim).collect()
}

#[test]
fn text_sections_come_in_diskspd_order() {
    let text = super::render(&fixture(FULL));
    let want = [
        "Command Line",
        "Input parameters:",
        "System information:",
        "Results for timespan 1:",
        "effective affinity (cpu)",
        "Total IO",
        "Read IO",
        "Write IO",
        "Total latency distribution:",
    ];
    assert_eq!(sections(&text), want, "{text}");
}

#[test]
fn latency_and_iops_columns_follow_l_and_d() {
    let io = ["thread", "bytes", "I/Os", "MiB/s", "I/O per s"];
    for (line, extra) in [
        (FULL, &["AvgLat", "IopsStdDev", "LatStdDev"][..]),
        ("-t1 -o4 -b4K -r -w25 -d1 -L x.dat", &["AvgLat", "LatStdDev"][..]),
        ("-t1 -o4 -b4K -r -w25 -d1 -D x.dat", &["IopsStdDev"][..]),
        ("-t1 -o4 -b4K -r -w25 -d1 x.dat", &[][..]),
    ] {
        let text = super::render(&fixture(line));
        let want: Vec<&str> = io.iter().chain(extra).chain(&["file"]).copied().collect();
        for head in ["Total IO", "Read IO", "Write IO"] {
            assert_eq!(columns(header_after(&text, head)), want, "{line}: {head}");
        }
        assert_eq!(text.contains("Total latency distribution:"), line.contains("-L"), "{line}");
        assert_eq!(text.contains("\n    measuring latency"), line.contains("-L"), "{line}");
        assert_eq!(text.contains("\n    gathering IOPS at intervals of 1000ms"), line.contains("-D"), "{line}");
        // Every thread row has its header's cells; the total row has no thread and no file cell.
        for head in ["Total IO", "Read IO", "Write IO"] {
            let at = text.find(&format!("\n{head}\n")).unwrap();
            let mut rows = text[at..].lines().skip(4);
            let threads: Vec<&str> = rows.by_ref().take_while(|l| !l.starts_with("---")).collect();
            assert_eq!(threads.len(), 1, "{line}: {head}");
            assert!(threads.iter().all(|r| columns(r).len() == want.len()), "{line}: {threads:?}");
            assert_eq!(columns(rows.next().unwrap()).len(), want.len() - 2, "{line}: {head} total");
        }
    }
}

#[test]
fn percentile_rows_are_diskspds() {
    let text = super::render(&fixture(FULL));
    let at = text.find("  %-ile |").unwrap();
    let mut lines = text[at..].lines();
    assert_eq!(columns(lines.next().unwrap()), ["%-ile", "Read (ms)", "Write (ms)", "Total (ms)"]);
    assert!(lines.next().unwrap().chars().all(|c| c == '-'));
    let labels: Vec<&str> = lines.take_while(|l| l.contains('|')).map(|l| columns(l)[0]).collect();
    let nines = (3..=9).map(|n| format!("{n}-nines"));
    let want: Vec<String> = ["min", "25th", "50th", "75th", "90th", "95th", "99th"]
        .into_iter()
        .map(String::from)
        .chain(nines)
        .chain(["max".to_string()])
        .collect();
    assert_eq!(labels, want);
}

#[test]
fn text_snapshot() {
    insta::assert_snapshot!(super::render(&fixture(FULL)));
}

/// Every element and attribute path of an XML document ("Results/TimeSpan/Iops/Bucket/@Read").
fn paths(xml: &str) -> BTreeSet<String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let (mut stack, mut out) = (Vec::<String>::new(), BTreeSet::new());
    let mut enter = |stack: &mut Vec<String>, e: &quick_xml::events::BytesStart| {
        stack.push(e.name().0.to_string());
        let p = stack.join("/");
        for a in e.attributes().flatten() {
            out.insert(format!("{p}/@{}", a.key.0));
        }
        out.insert(p);
    };
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) => enter(&mut stack, &e),
            Event::Empty(e) => {
                enter(&mut stack, &e);
                stack.pop();
            }
            Event::End(_) => {
                stack.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    out
}

/// Paths DiskSpd 2.2 writes for a -L -D line, which iolens' XML must have too.
const XML_PATHS: [&str; 22] = [
    "Results/System/ComputerName",
    "Results/System/RunTime",
    "Results/System/PowerScheme/@Name",
    "Results/System/PowerScheme/@Guid",
    "Results/System/ProcessorTopology/@Heterogeneous",
    "Results/System/ProcessorTopology/Group/@ActiveProcessorMask",
    "Results/System/ProcessorTopology/Node/Group/@Mask",
    "Results/System/ProcessorTopology/Socket/Group/@Mask",
    "Results/System/ProcessorTopology/Core/@EfficiencyClass",
    "Results/Profile/TimeSpans/TimeSpan/Targets/Target/WriteRatio",
    "Results/TimeSpan/CpuUtilization/CPU/Socket",
    "Results/TimeSpan/CpuUtilization/CPU/Core",
    "Results/TimeSpan/CpuUtilization/Average/IdlePercent",
    "Results/TimeSpan/Latency/@TotalHistoBuckets",
    "Results/TimeSpan/Latency/Bucket/Percentile",
    "Results/TimeSpan/Latency/Bucket/TotalMilliseconds",
    "Results/TimeSpan/Iops/IopsStdDev",
    "Results/TimeSpan/Iops/Bucket/@SampleMillisecond",
    "Results/TimeSpan/Iops/Bucket/@Total",
    "Results/TimeSpan/Thread/Target/WriteCount",
    "Results/TimeSpan/Thread/Target/Iops/Bucket/@Read",
    "Results/TimeSpan/Thread/Target/Iops/Bucket/@Write",
];

fn with_topology_and_seconds(line: &str) -> RunResult {
    let mut r = fixture(line);
    r.host.cpus =
        vec![CpuPlace { cpu: 0, core: 0, socket: 0, node: 0 }, CpuPlace { cpu: 1, core: 1, socket: 0, node: 0 }];
    let th = &mut r.tests[0].threads[0];
    th.seconds = vec![[th.read.ios, th.write.ios]];
    r
}

#[test]
fn xml_has_the_paths_diskspd_writes() {
    let xml = super::xml::render(&with_topology_and_seconds(FULL));
    let have = paths(&xml);
    let missing: Vec<&str> = XML_PATHS.into_iter().filter(|p| !have.contains(*p)).collect();
    assert!(missing.is_empty(), "missing {missing:?} in\n{xml}");
    assert!(xml.contains(r#"<Core Group="0" Core="1" Mask="0x2" EfficiencyClass="0"/>"#), "{xml}");
}

#[test]
fn xml_latency_and_iops_follow_l_and_d() {
    for line in [FULL, "-t1 -o4 -b4K -r -w25 -d1 -L x.dat", "-t1 -o4 -b4K -r -w25 -d1 -D x.dat"] {
        let have = paths(&super::xml::render(&with_topology_and_seconds(line)));
        assert_eq!(have.contains("Results/TimeSpan/Latency"), line.contains("-L"), "{line}");
        assert_eq!(have.contains("Results/TimeSpan/Thread/Target/AverageReadLatencyMilliseconds"), line.contains("-L"));
        assert_eq!(have.contains("Results/TimeSpan/Iops"), line.contains("-D"), "{line}");
        assert_eq!(have.contains("Results/TimeSpan/Thread/Target/Iops"), line.contains("-D"), "{line}");
    }
}

#[test]
fn per_thread_buckets_carry_the_threads_own_seconds() {
    let mut r = with_topology_and_seconds(FULL);
    let mut read = crate::result::SecondLat::default();
    read.record(100_000);
    read.record(300_000);
    r.tests[0].threads[0].second_lat = vec![[read, Default::default()]];
    let th = &r.tests[0].threads[0];
    let xml = super::xml::render(&r);
    let thread = &xml[xml.find("<Thread>").unwrap()..];
    // Population deviation of 0.1 and 0.3 ms is 0.1 ms; a direction without I/O reads 0.
    let want = format!(
        r#"<Bucket SampleMillisecond="1000" Read="{}" Write="{}" Total="{}" ReadMinLatencyMilliseconds="0.100" ReadMaxLatencyMilliseconds="0.300" ReadAvgLatencyMilliseconds="0.200" ReadLatencyStdDev="0.100" WriteMinLatencyMilliseconds="0.000" WriteMaxLatencyMilliseconds="0.000" WriteAvgLatencyMilliseconds="0.000" WriteLatencyStdDev="0.000"/>"#,
        th.read.ios,
        th.write.ios,
        th.read.ios + th.write.ios
    );
    assert!(thread.contains(&want), "{want} not in\n{thread}");
    // The time span's buckets merge the threads' seconds: the one thread's figures again.
    let span = &xml[..xml.find("<Thread>").unwrap()];
    assert!(span.contains(r#"ReadMinLatencyMilliseconds="0.100" ReadMaxLatencyMilliseconds="0.300""#), "{span}");
}

#[test]
fn xml_snapshot() {
    insta::assert_snapshot!(super::xml::render(&fixture(FULL)));
}

#[test]
fn wait_statistics_follow_vs_in_23s_split() {
    use crate::result::waits::WaitStats;
    let with = |line: &str, w: WaitStats| {
        let mut r = fixture(line);
        for th in &mut r.tests[0].threads {
            th.waits = Some(w);
        }
        r
    };
    let w = WaitStats { wait: [0, 900, 2, 0, 0, 0, 0, 9], lookaside: [3, 1, 0, 0, 0, 0, 0, 0], ..Default::default() };
    let text = super::render(&with(&format!("-vs {FULL}"), w));
    let tail: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("Wait Statistics")).collect();
    assert_eq!(
        tail,
        [
            "Wait Statistics - Completion Wait",
            "thread |         wait | 0 - 7+ complete per wait",
            "------------------------------------------------",
            "     0 |          911 | 0 900 2 0 0 0 0 9",
            "",
            "Wait Statistics - Lookaside",
            "thread |    lookaside | 0 - 7+ complete per lookaside",
            "-----------------------------------------------------",
            "     0 |            4 | 3 1 0 0 0 0 0 0",
        ],
        "{text}"
    );
    // Without -L or -D DiskSpd never looks aside: no lookaside table. Without -vs, neither.
    let plain = super::render(&with("-vs -t1 -o4 -d1 -c16M x.dat", w));
    assert!(plain.contains("Completion Wait") && !plain.contains("Lookaside"), "{plain}");
    assert!(!super::render(&with(FULL, w)).contains("Wait Statistics"));
    // Throttled, the waits and sleeps the rate imposed get their columns (2.3's unit test
    // Test_PrintWaitStatsWithThrottle), "---" on a thread without a rate; "wait" leaves the
    // rate's waits out.
    let paced = WaitStats { throttled: true, throttle_wait: 5, throttle_sleep: 70, ..w };
    let mut r = with(&format!("-vs -g1000 {FULL}"), paced);
    let mut free = r.tests[0].threads[0].clone();
    (free.thread, free.waits) = (1, Some(w));
    r.tests[0].threads.push(free);
    let text = super::render(&r);
    let table: Vec<&str> = text.lines().skip_while(|l| !l.ends_with("Completion Wait")).skip(1).take(4).collect();
    assert_eq!(
        table,
        [
            "thread |         wait | throttle wait  -  sleep | 0 - 7+ complete per wait",
            "--------------------------------------------------------------------------",
            "     0 |          906 |             5  -     70 | 0 900 2 0 0 0 0 9",
            "     1 |          911 |               ---       | 0 900 2 0 0 0 0 9",
        ],
        "{text}"
    );

    let xml = super::xml::render(&with(&format!("-vs {FULL}"), w));
    let at = xml.find("<WaitStatistics>").expect("a thread's wait statistics");
    let block: Vec<&str> = xml[at..].lines().take(8).map(str::trim).collect();
    assert_eq!(
        block,
        [
            "<WaitStatistics>",
            "<CompletionWait>911</CompletionWait>",
            "<WaitCompletion>0 900 2 0 0 0 0 9</WaitCompletion>",
            "<ThrottleWait>0</ThrottleWait>",
            "<ThrottleSleep>0</ThrottleSleep>",
            "<Lookaside>4</Lookaside>",
            "<LookasideCompletion>3 1 0 0 0 0 0 0</LookasideCompletion>",
            "</WaitStatistics>",
        ]
    );
    assert!(xml.contains("<VerboseStats>true</VerboseStats>"));
    assert!(!super::xml::render(&with(FULL, w)).contains("WaitStatistics"));
}

#[test]
fn an_ioring_run_adds_23s_submission_table_and_submit_counts() {
    use crate::result::waits::WaitStats;
    let ring = |engine: &str| {
        let mut r = fixture(&format!("-u {FULL}"));
        let t = &mut r.tests[0];
        (t.engine, t.duration_s) = (engine.into(), 2.0);
        let mut second = t.threads[0].clone();
        second.thread = 1;
        t.threads.push(second);
        for (th, n) in t.threads.iter_mut().zip([1200, 301]) {
            th.waits = Some(WaitStats { submits: n, ..Default::default() });
        }
        r
    };
    let text = super::render(&ring("ioring"));
    let table: Vec<&str> = text.lines().skip_while(|l| *l != "IoRing Statistics").take(7).collect();
    assert_eq!(
        table,
        [
            "IoRing Statistics",
            "thread |  Submits/s ",
            "--------------------",
            "     0 |      600.00",
            "     1 |      150.50",
            "--------------------",
            "total: |      750.50",
        ],
        "{text}"
    );
    // After Write IO, two blank lines apart, as 2.3's ResultParser prints it.
    let write_io = text.find("\nWrite IO").unwrap();
    assert!(text[write_io..].contains("\n\n\nIoRing Statistics\n"), "{text}");
    assert!(text.contains("using IoRing (batch size: 25%) with registered buffers"));
    let xml = super::xml::render(&ring("ioring"));
    assert!(xml.contains("<Id>0</Id>\n      <SubmitCount>1200</SubmitCount>\n      <Target>"), "{xml}");
    // Where I/O Completion Ports stood in, neither appears.
    let iocp = ring("iocp");
    assert!(!super::render(&iocp).contains("IoRing Statistics"));
    assert!(!super::xml::render(&iocp).contains("SubmitCount"));
}

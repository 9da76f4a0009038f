//! DiskSpd's XML through the binary: `-Rxml` results parse and hold the same figures as the
//! text layout of the same run, the echoed profile reads back through `-X`, and a profile with
//! several time spans runs several tests.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use quick_xml::events::Event;
use quick_xml::Reader;
use std::collections::HashMap;

/// Every element with text, as ("Results/TimeSpan/Thread/Id", "0"), in document order; panics
/// on XML that does not parse.
fn leaves(xml: &str) -> Vec<(String, String)> {
    let mut r = Reader::from_str(xml);
    r.config_mut().trim_text(true);
    let (mut path, mut out) = (Vec::<String>::new(), Vec::<(String, String)>::new());
    // Text around an entity reference arrives in pieces, which make one value.
    let mut in_text = false;
    loop {
        let ev = r.read_event().unwrap_or_else(|e| panic!("XML does not parse: {e}\n{xml}"));
        let piece = match &ev {
            Event::Text(t) => Some(t.xml10_content().into_owned()),
            Event::GeneralRef(g) => {
                Some(quick_xml::escape::resolve_predefined_entity(&g.xml10_content()).unwrap().into())
            }
            _ => None,
        };
        let was_text = std::mem::replace(&mut in_text, piece.is_some());
        match (ev, piece) {
            (_, Some(p)) if was_text => out.last_mut().unwrap().1.push_str(&p),
            (_, Some(p)) => out.push((path.join("/"), p)),
            (Event::Start(e), _) => path.push(e.name().as_ref().to_string()),
            (Event::End(_), _) => {
                path.pop();
            }
            (Event::Eof, _) => break,
            _ => {}
        }
    }
    assert!(path.is_empty(), "unclosed elements {path:?}");
    out
}

fn num(s: &str) -> f64 {
    s.trim().parse().unwrap_or_else(|_| panic!("not a number: '{s}'"))
}

/// One table of the text layout: per thread (bytes, I/Os), and the total row's (bytes, I/Os,
/// MiB/s, IOPS).
type Table = (Vec<(u64, u64)>, [f64; 4]);

/// The text layout's Total/Read/Write tables.
fn text_tables(text: &str) -> HashMap<&'static str, Table> {
    let mut out = HashMap::new();
    for title in ["Total IO", "Read IO", "Write IO"] {
        let at = text.find(&format!("\n{title}\n")).unwrap_or_else(|| panic!("no {title} table:\n{text}"));
        let mut rows = Vec::new();
        for line in text[at..].lines().skip(2) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if let Some(first) = cells[0].strip_prefix("total:") {
                let total = [num(first), num(cells[1]), num(cells[2]), num(cells[3])];
                out.insert(title, (rows, total));
                break;
            }
            if cells.len() > 2 && cells[0].parse::<u32>().is_ok() {
                rows.push((num(cells[1]) as u64, num(cells[2]) as u64));
            }
        }
    }
    out
}

#[test]
fn rxml_holds_the_text_layouts_figures() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .current_dir(dir.path())
        .args(["diskspd", "-t2", "-o8", "-b4k", "-r", "-w30", "-d1", "-W0", "-L", "-c32M", "-Rxml"])
        .args(["--out", "r.txt", "--no-store", "a&b.dat"])
        .output()
        .unwrap();
    let (code, xml, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(dir.path().join("r.txt")).unwrap();
    // As DiskSpd, an empty line first.
    assert!(text.starts_with("\nCommand Line: diskspd "), "{text}");
    let x = leaves(&xml);
    let get = |p: &str| x.iter().filter(|(k, _)| k == p).map(|(_, v)| v.as_str()).collect::<Vec<_>>();
    let one = |p: &str| num(get(p).first().unwrap_or_else(|| panic!("no {p}")));
    // The path is escaped in the XML and comes back whole.
    assert!(get("Results/TimeSpan/Thread/Target/Path").iter().all(|p| *p == "a&b.dat"));
    assert!(xml.contains("<Path>a&amp;b.dat</Path>"));
    let tables = text_tables(&text);
    let secs = one("Results/TimeSpan/TestTimeSeconds");
    for (title, bytes, ios) in [
        ("Total IO", "BytesCount", "IOCount"),
        ("Read IO", "ReadBytes", "ReadCount"),
        ("Write IO", "WriteBytes", "WriteCount"),
    ] {
        let b: Vec<u64> =
            get(&format!("Results/TimeSpan/Thread/Target/{bytes}")).iter().map(|v| num(v) as u64).collect();
        let n: Vec<u64> = get(&format!("Results/TimeSpan/Thread/Target/{ios}")).iter().map(|v| num(v) as u64).collect();
        let (rows, total) = &tables[title];
        let xml_rows: Vec<(u64, u64)> = b.iter().cloned().zip(n.iter().cloned()).collect();
        assert_eq!(&xml_rows, rows, "{title} per thread");
        assert_eq!(rows.len(), 2, "{title}");
        let (sb, sn) = (b.iter().sum::<u64>(), n.iter().sum::<u64>());
        assert_eq!((sb as f64, sn as f64), (total[0], total[1]), "{title} totals");
        assert!(sn > 0, "{title}: no I/Os");
        // DiskSpd's readers derive rates from counts and the test time (printed to 10 ms).
        let close = |a: f64, b: f64| (a - b).abs() <= 0.01 * b.max(1.0);
        assert!(close(sn as f64 / secs, total[3]), "{title} IOPS {} vs {}", sn as f64 / secs, total[3]);
        assert!(close(sb as f64 / secs / 1048576.0, total[2]), "{title} MiB/s");
    }
    assert_eq!(get("Results/TimeSpan/Thread/Id"), ["0", "1"]);
    // The latency table's rows are the XML's buckets, to the printed microsecond.
    let buckets: Vec<&str> = get("Results/TimeSpan/Latency/Bucket/Percentile");
    assert_eq!(buckets.len(), 108, "0, 1 … 99, seven nines, 100");
    let column = |c: &str| get(&format!("Results/TimeSpan/Latency/Bucket/{c}Milliseconds"));
    let (rd, wr, tt) = (column("Read"), column("Write"), column("Total"));
    assert_eq!((rd.len(), wr.len(), tt.len()), (108, 108, 108));
    let table = &text[text.find("  %-ile |  Read (ms)").unwrap()..];
    for (label, pct) in [("min", "0"), ("25th", "25"), ("99th", "99"), ("3-nines", "99.9"), ("max", "100")] {
        let row = table.lines().find(|l| l.trim_start().starts_with(&format!("{label} |"))).unwrap();
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let i = buckets.iter().position(|b| *b == pct).unwrap();
        assert_eq!(cells[1..], [rd[i], wr[i], tt[i]], "{label}");
    }
    assert!(one("Results/TimeSpan/CpuUtilization/Average/UsagePercent") >= 0.0);
    // The echoed profile, read back by -X, is printed the same.
    std::fs::write(dir.path().join("r.xml"), &xml).unwrap();
    let out = bin().current_dir(dir.path()).args(["diskspd", "-Xr.xml", "-Rpxml"]).output().unwrap();
    let (code, profile, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let echoed = x.iter().filter_map(|(k, v)| Some((k.strip_prefix("Results/")?.to_string(), v.clone())));
    let echoed: Vec<_> = echoed.filter(|(k, _)| k.starts_with("Profile/")).collect();
    assert_eq!(leaves(&profile), echoed);
    let mut left = entries(dir.path());
    left.sort();
    assert_eq!(left, ["r.txt", "r.xml"]);
}

#[test]
fn a_profile_with_two_time_spans_runs_two_tests() {
    let dir = tempfile::tempdir().unwrap();
    let span = |bs: u32, access: &str| {
        format!(
            "<TimeSpan><Duration>1</Duration><Warmup>0</Warmup><Targets><Target><Path>*1</Path>\
             <BlockSize>{bs}</BlockSize>{access}<FileSize>16777216</FileSize><RequestCount>4</RequestCount>\
             </Target></Targets></TimeSpan>"
        )
    };
    let xml = format!(
        "<Profile><TimeSpans>{}{}</TimeSpans></Profile>",
        span(4096, "<Random>4096</Random>"),
        span(65536, "<StrideSize>65536</StrideSize>")
    );
    std::fs::write(dir.path().join("p.xml"), xml).unwrap();
    let out = bin()
        .current_dir(dir.path())
        .args(["diskspd", "-Xp.xml", "-Rxml", "--out", "r.json", "--no-store", "t.dat"])
        .output()
        .unwrap();
    let (code, xml, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    let tests = v["tests"].as_array().unwrap();
    let specs: Vec<(String, u64)> = tests
        .iter()
        .map(|t| (t["spec"]["pattern"].as_str().unwrap().into(), u(&t["spec"]["blocks"][0]["size"])))
        .collect();
    assert_eq!(specs, [("random".into(), 4096), ("sequential".into(), 65536)]);
    // One <TimeSpan> per test, each holding that test's I/Os.
    let x = leaves(&xml);
    let mut per_span = Vec::new();
    for (k, val) in &x {
        match k.as_str() {
            "Results/TimeSpan/TestTimeSeconds" => per_span.push(0u64),
            "Results/TimeSpan/Thread/Target/IOCount" => *per_span.last_mut().unwrap() += num(val) as u64,
            _ => {}
        }
    }
    let json: Vec<u64> = tests.iter().map(|t| u(&t["total"]["ios"])).collect();
    assert_eq!(per_span, json);
    assert!(json.iter().all(|&n| n > 0), "{json:?}");
    assert_eq!(x.iter().filter(|(k, _)| k == "Results/Profile/TimeSpans/TimeSpan/Duration").count(), 2);
}

#[test]
fn xml_options_fail_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.xml"), "<Profile><TimeSpans></Profile>").unwrap();
    for (args, want) in [
        (vec!["-Xbad.xml", "f.dat"], "error: -X: bad.xml: not well-formed XML: "),
        (vec!["-Xbad.xml", "-b4k", "f.dat"], "ERROR: -b is not compatible with -X XML profile specification"),
        (vec!["--format", "json", "-Rxml", "-c1M", "f.dat"], "error: -Rxml: conflicts with --format json"),
        (vec!["-Rjson", "f.dat"], "ERROR: invalid results format (-R): 'json'"),
    ] {
        let out = bin().current_dir(dir.path()).arg("diskspd").args(&args).output().unwrap();
        let (code, stdout, stderr) = parts(&out);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with(want), "{args:?}: {stderr}");
    }
    assert_eq!(entries(dir.path()), ["bad.xml"]);
}

/// `-vs`: per thread, the calls that took completions account for every I/O it counted
/// (Σ k × calls taking k, iolens taking one per call); paced by `-g`, the rate's waits and
/// sleeps are counted, and unpaced none are.
#[test]
fn wait_statistics_account_for_every_io() {
    let dir = tempfile::tempdir().unwrap();
    for (rate, throttled) in [(None, false), (Some("-g4000"), true)] {
        let out = bin()
            .current_dir(dir.path())
            .args(["diskspd", "-vs", "-t2", "-o4", "-b4k", "-r", "-d1", "-W0", "-L", "-c16M", "-Rxml", "--no-store"])
            .args(rate)
            .arg("w.dat")
            .output()
            .unwrap();
        let (code, xml, stderr) = parts(&out);
        assert_eq!(code, 0, "{stderr}");
        let x = leaves(&xml);
        let get = |p: &str| x.iter().filter(|(k, _)| k == p).map(|(_, v)| v.clone()).collect::<Vec<_>>();
        let ios = get("Results/TimeSpan/Thread/Target/IOCount");
        let w = |e: &str| get(&format!("Results/TimeSpan/Thread/WaitStatistics/{e}"));
        let hist = |v: &str| v.split(' ').map(|n| n.parse::<u64>().unwrap()).collect::<Vec<_>>();
        let (waits, per_wait, looks, per_look) =
            (w("CompletionWait"), w("WaitCompletion"), w("Lookaside"), w("LookasideCompletion"));
        assert_eq!((ios.len(), waits.len(), per_look.len()), (2, 2, 2), "{xml}");
        for t in 0..2 {
            let (hw, hl) = (hist(&per_wait[t]), hist(&per_look[t]));
            let throttle = num(&w("ThrottleWait")[t]) as u64;
            // The histogram counts every wait; CompletionWait leaves the rate's out.
            assert_eq!(
                (hw.len(), hw.iter().sum::<u64>()),
                (8, num(&waits[t]) as u64 + throttle),
                "{rate:?} thread {t}"
            );
            assert_eq!(hl.iter().sum::<u64>(), num(&looks[t]) as u64, "{rate:?} thread {t}");
            let taken: u64 = (0..8).map(|k| k as u64 * (hw[k] + hl[k])).sum();
            assert_eq!(taken, num(&ios[t]) as u64, "{rate:?} thread {t}: completions taken vs I/Os counted");
            assert!(hw[2..].iter().chain(&hl[2..]).all(|&n| n == 0), "one completion per call: {hw:?} {hl:?}");
            let paced = num(&w("ThrottleWait")[t]) + num(&w("ThrottleSleep")[t]);
            assert_eq!(paced > 0.0, throttled, "{rate:?} thread {t}: {paced} throttle waits and sleeps");
        }
    }
}

//! fio's JSON output from fio 3.33 on this project's lab machine, read into results.

use super::from_fio_json;
use crate::compare::test_key;
use serde_json::Value;

fn doc(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn sum(entries: &[&Value], dir: &str, key: &str) -> u64 {
    entries.iter().map(|e| e[dir][key].as_u64().unwrap()).sum()
}

#[test]
fn groups_and_jobs_become_tests_matched_by_what_they_ran() {
    let d = doc(include_str!("../testdata/fio-3.33-three-groups.json"));
    let r = from_fio_json(&d, "out.json", Some("vm2")).unwrap();
    assert_eq!(r.host.hostname, "vm2");
    assert_eq!(r.source.as_deref(), Some("fio-3.33 JSON output (out.json)"));
    assert_eq!(r.host.targets[0].path, "/tmp/fioj/f.dat");
    let keys: Vec<String> = r.tests.iter().map(|t| test_key(&t.spec)).collect();
    assert_eq!(keys, ["RND4K Q16T2 Read", "SEQ1M Q8T1 Read", "RND8K Q4T2 Mix70"]);
    assert_eq!(r.tests.iter().map(|t| t.group).collect::<Vec<_>>(), [0, 1, 2]);

    // group_reporting: one entry, fio's figures as they are.
    let jobs: Vec<&Value> = d["jobs"].as_array().unwrap().iter().collect();
    let t = &r.tests[0];
    assert_eq!(t.read.ios, sum(&jobs[..1], "read", "total_ios"));
    assert_eq!(t.read.bytes, sum(&jobs[..1], "read", "io_bytes"));
    let p50_ns = jobs[0]["read"]["clat_ns"]["percentile"]["50.000000"].as_f64().unwrap();
    assert_eq!(t.read.lat_us.percentiles.get("50"), Some(p50_ns / 1000.0));
    assert_eq!(t.read.lat_us.percentiles.get("25"), None, "fio does not report the 25th");
    assert_eq!(t.engine, "io_uring");
    assert_eq!(t.depth, 16);
    assert!((t.duration_s - jobs[0]["read"]["runtime"].as_f64().unwrap() / 1000.0).abs() < 1e-9);

    // numjobs=2 without group_reporting: two entries, one test with two threads.
    let mix = &r.tests[2];
    assert_eq!(mix.threads.len(), 2);
    assert_eq!(mix.read.ios, sum(&jobs[2..], "read", "total_ios"));
    assert_eq!(mix.write.bytes, sum(&jobs[2..], "write", "io_bytes"));
    assert_eq!(mix.total.ios, mix.read.ios + mix.write.ios);
    assert_eq!(mix.read.lat_us.percentiles.get("50"), None, "percentiles do not add up without bins");
    assert!(mix.notices.iter().any(|n| n.contains("2 fio entries merged without histogram bins")));
    let (m0, m1) =
        (jobs[2]["read"]["clat_ns"]["max"].as_f64().unwrap(), jobs[3]["read"]["clat_ns"]["max"].as_f64().unwrap());
    assert_eq!(mix.read.lat_us.max, Some(m0.max(m1) / 1000.0));
}

#[test]
fn json_plus_bins_merge_into_exact_percentiles() {
    let d = doc(include_str!("../testdata/fio-3.33-mix-jsonplus.json"));
    let r = from_fio_json(&d, "plus.json", None).unwrap();
    assert_eq!(r.host.hostname, "unknown");
    let jobs: Vec<&Value> = d["jobs"].as_array().unwrap().iter().collect();
    assert_eq!(jobs.len(), 2);
    let t = &r.tests[0];
    assert_eq!(r.tests.len(), 1);
    assert_eq!(t.histograms.read.count, t.read.ios, "every read is in the merged histogram");
    let bins: u64 = jobs
        .iter()
        .flat_map(|j| j["read"]["clat_ns"]["bins"].as_object().unwrap().values())
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(t.histograms.read.buckets.iter().map(|b| b.1).sum::<u64>(), bins);
    // The merged median lies between the two jobs' own medians (within the histogram's 0.1 %).
    let own: Vec<f64> =
        jobs.iter().map(|j| j["read"]["clat_ns"]["percentile"]["50.000000"].as_f64().unwrap() / 1000.0).collect();
    let p50 = t.read.lat_us.percentiles.get("50").unwrap();
    let (lo, hi) = (own[0].min(own[1]), own[0].max(own[1]));
    assert!(p50 >= lo * 0.99 && p50 <= hi * 1.01, "{p50} not within {lo}..{hi}");
    assert!(t.read.lat_us.percentiles.get("99.9").is_some());
}

#[test]
fn iolens_results_in_fios_layout_read_back() {
    let r: crate::result::RunResult =
        serde_json::from_str(include_str!("../../../report/testdata/iolens_randrw_q4.json")).unwrap();
    let fio = crate::report::render(&r, crate::report::Format::Fio(crate::report::FioOut::JSON));
    let back = from_fio_json(&doc(&fio), "x.json", None).unwrap();
    assert_eq!(back.tests.len(), r.tests.len(), "{:?}", back.tests[0].notices);
    assert!(back.tests[0].notices.iter().all(|n| !n.contains("do not make")), "{:?}", back.tests[0].notices);
    let (a, b) = (&r.tests[0], &back.tests[0]);
    assert_eq!(test_key(&b.spec), test_key(&a.spec));
    assert_eq!((b.read.ios, b.write.ios, b.read.bytes), (a.read.ios, a.write.ios, a.read.bytes));
    assert!((b.total.iops - a.total.iops).abs() / a.total.iops < 0.001, "{} vs {}", b.total.iops, a.total.iops);
}

#[test]
fn other_json_is_refused_by_name() {
    let e = from_fio_json(&doc("{\"fio version\": \"fio-3.33\"}"), "odd.json", None).unwrap_err();
    assert_eq!(e.to_string(), "odd.json: is not fio's JSON output: no \"jobs\" list");
}

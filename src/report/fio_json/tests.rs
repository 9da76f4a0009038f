//! Tests of the fio JSON layout: figures against the model, structure against real fio.

use super::*;
use serde_json::Value;

/// `iolens run --size 16M -d 1 --rw randrw --qd 4 --format json` on a virtio disk.
fn fixture() -> RunResult {
    serde_json::from_str(include_str!("../testdata/iolens_randrw_q4.json")).expect("fixture parses")
}

fn near(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1.0)
}

#[test]
fn figures_match_the_model() {
    let r = fixture();
    let t = &r.tests[0];
    let j: Value = serde_json::from_str(&render_as(&r, false)).expect("valid JSON");
    assert_eq!(j["timestamp"], 1_795_362_179u64, "2026-11-22T15:42:59Z");
    let job = &j["jobs"][0];
    assert_eq!(job["jobname"], t.name.as_str());
    assert_eq!(job["job options"]["rw"], "randrw");
    assert_eq!(job["job options"]["iodepth"], "4");
    for (dir, op, hist) in [("read", &t.read, &t.histograms.read), ("write", &t.write, &t.histograms.write)] {
        let d = &job[dir];
        assert_eq!(d["iops"].as_f64().unwrap(), (op.iops * 1e6).round() / 1e6, "{dir}");
        assert_eq!(d["total_ios"], op.ios);
        let bw = op.bytes as f64 / t.duration_s / 1024.0;
        assert!((d["bw"].as_f64().unwrap() - bw).abs() <= 1.0, "{dir} bw {} vs {bw}", d["bw"]);
        let p50 = d["clat_ns"]["percentile"]["50.000000"].as_f64().unwrap();
        assert!(near(p50, op.lat_us.percentiles.get("50").unwrap() * 1000.0, 0.001), "{dir} p50 {p50}");
        let pcts = d["clat_ns"]["percentile"].as_object().unwrap();
        assert_eq!(pcts.len(), 17);
        assert_eq!(pcts["99.950000"].as_u64(), hist.percentile_ns(99.95));
        assert!(near(d["lat_ns"]["mean"].as_f64().unwrap(), op.lat_us.mean.unwrap() * 1000.0, 1e-6));
        assert_eq!(d["clat_ns"]["min"], hist.min_ns);
        assert_eq!(d["clat_ns"]["max"], hist.max_ns);
        assert_eq!(d["iops_samples"], t.seconds.len() as u64);
        // fio-plot's keys.
        for k in ["bw", "iops", "iops_stddev"] {
            assert!(d[k].is_number(), "{dir}.{k}");
        }
        assert!(d["lat_ns"]["stddev"].is_number());
    }
    assert_eq!(job["trim"]["total_ios"], 0);
    assert!(job["trim"]["clat_ns"].get("percentile").is_none());
    let cores = f64::from(t.cpu.cores);
    assert!(near(job["usr_cpu"].as_f64().unwrap(), t.cpu.user_pct * cores, 1e-6));
    assert!(near(job["sys_cpu"].as_f64().unwrap(), t.cpu.system_pct * cores, 1e-6));
    assert_eq!(job["iodepth_level"]["4"], 100.0);
    for k in ["latency_ns", "latency_us", "latency_ms", "usr_cpu", "sys_cpu"] {
        assert!(!job[k].is_null(), "{k}");
    }
    let sum: f64 = ["latency_ns", "latency_us", "latency_ms"]
        .iter()
        .flat_map(|k| job[*k].as_object().unwrap().values().map(|v| v.as_f64().unwrap()))
        .sum();
    assert!((sum - 100.0).abs() < 0.2, "latency buckets sum to {sum}");
    let disk = &j["disk_util"][0];
    assert_eq!(disk["name"], t.disks[0].device.as_str());
    assert_eq!(disk["read_ios"], t.disks[0].read_requests);
}

#[test]
fn given_options_and_groups_and_an_idle_direction() {
    let mut r = fixture();
    let t = &mut r.tests[0];
    t.options = vec![("readwrite".into(), "randread".into()), ("time_based".into(), String::new())];
    t.group = 3;
    t.write.ios = 0;
    t.write.bytes = 0;
    let j: Value = serde_json::from_str(&render_as(&r, false)).unwrap();
    let job = &j["jobs"][0];
    let opts = job["job options"].as_object().unwrap();
    let keys: Vec<&str> = opts.keys().map(|k| k.as_str()).collect();
    // Flags are left out as fio does; fio-plot's bs/iodepth/numjobs come from the spec.
    assert_eq!(keys, ["bs", "iodepth", "numjobs", "readwrite"], "{opts:?}");
    assert_eq!(job["groupid"], 3);
    assert_eq!((&job["write"]["runtime"], &job["write"]["bw_samples"]), (&Value::from(0), &Value::from(0)));
    assert_eq!(job["write"]["clat_ns"]["N"], 0);
    assert!(job["write"]["clat_ns"].get("percentile").is_none());
    // fio_jsonplus_clat2csv reads any `bins` as holding at least one bin.
    let plus: Value = serde_json::from_str(&render_as(&r, true)).unwrap();
    assert!(plus["jobs"][0]["write"]["clat_ns"].get("bins").is_none());
    assert!(!plus["jobs"][0]["read"]["clat_ns"]["bins"].as_object().unwrap().is_empty());
    assert_eq!(job["read"]["bw_agg"].as_f64().unwrap().round(), 100.0);
}

#[test]
fn writes_own_block_sizes_follow_the_reads_as_fio_writes_them() {
    let mut r = fixture();
    let share = |size, pct| crate::workload::BlockShare { size, pct };
    let opts = |r: &RunResult| {
        let j: Value = serde_json::from_str(&render_as(r, false)).unwrap();
        let o = &j["jobs"][0]["job options"];
        (o["bs"].as_str().map(String::from), o["bssplit"].as_str().map(String::from))
    };
    r.tests[0].spec.blocks = vec![share(4096, 100)];
    r.tests[0].spec.write_blocks = Some(vec![share(65536, 100)]);
    assert_eq!(opts(&r), (Some("4k,64k".into()), None));
    r.tests[0].spec.write_blocks = Some(vec![share(8192, 50), share(65536, 50)]);
    assert_eq!(opts(&r), (None, Some("4k/100,8k/50:64k/50".into())));
    let csv = crate::report::render(&r, crate::report::Format::Csv);
    assert!(csv.lines().nth(1).unwrap().contains(",\"4096/100,8192/50:65536/50\","), "{csv}");
}

#[test]
fn series_use_the_sample_stddev_as_fio() {
    let (min, max, mean, dev) = ddir::series(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
    assert_eq!((min, max, mean), (2.0, 9.0, 5.0));
    assert!(near(dev, 2.0 * (8.0f64 / 7.0).sqrt(), 1e-12));
}

#[test]
fn ctime_layout() {
    assert_eq!(ctime(1_795_362_069), "Sun Nov 22 15:41:09 2026");
    assert_eq!(ctime(0), "Thu Jan  1 00:00:00 1970");
    assert_eq!(ctime(951_825_600), "Tue Feb 29 12:00:00 2000");
}

/// Every key (and its JSON kind) that fio 3.x writes for a job exists in ours. (Against the
/// Linux fio the CI machine installs: the Windows build is checked on Linux.)
#[cfg(unix)]
#[test]
fn same_keys_as_real_fio() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fio.json");
    let run = std::process::Command::new("fio")
        .args(["--name=t", "--size=4m", "--rw=randrw", "--bs=4k", "--iodepth=4", "--runtime=1", "--time_based"])
        .arg(format!("--filename={}", dir.path().join("x").display()))
        .args(["--output-format=json", &format!("--output={}", out.display())])
        .output();
    let privileged = crate::testing::Privileged::new();
    let Some(o) = privileged.need("fio", run) else { return };
    assert!(o.status.success(), "fio failed: {}", String::from_utf8_lossy(&o.stderr));
    let fio: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    same_shape("", &fio, &serde_json::from_str(&render_as(&fixture(), false)).unwrap());
}

/// Every key path of fio's (first array elements only, job options' own keys excepted)
/// exists in ours with the same JSON kind; integer and float count as different kinds.
#[cfg(unix)]
fn same_shape(at: &str, fio: &Value, ours: &Value) {
    let kind = |v: &Value| match v {
        Value::Number(n) => ["integer", "float"][usize::from(n.is_f64())],
        Value::String(_) => "string",
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        _ => "other",
    };
    match (fio, ours) {
        (Value::Object(f), Value::Object(o)) if !at.ends_with("options") => {
            for (k, v) in f {
                same_shape(&format!("{at}.{k}"), v, o.get(k).unwrap_or_else(|| panic!("{at}.{k} missing")));
            }
        }
        (Value::Array(f), Value::Array(o)) if !f.is_empty() && !o.is_empty() => {
            same_shape(&format!("{at}[0]"), &f[0], &o[0])
        }
        _ => assert_eq!(kind(fio), kind(ours), "{at}: fio {fio}, ours {ours}"),
    }
}

#[test]
fn json_plus_bins_hold_every_io_and_read_back_to_the_same_percentiles() {
    let r = fixture();
    assert!(!render_as(&r, false).contains("\"bins\""), "plain json has no bins");
    let text = render_as(&r, true);
    let j: Value = serde_json::from_str(&text).expect("valid JSON");
    for (dir, op) in [("read", &r.tests[0].read), ("write", &r.tests[0].write)] {
        let clat = &j["jobs"][0][dir]["clat_ns"];
        let bins = clat["bins"].as_object().unwrap();
        assert_eq!(bins.values().map(|n| n.as_u64().unwrap()).sum::<u64>(), op.ios, "{dir}");
        // fio's own reader of json+ (iolens' import) finds the percentiles json printed.
        let back = crate::frontends::fio::from_fio_json(&j, "plus.json", None).expect("json+ reads back");
        let p99 = clat["percentile"]["99.000000"].as_u64().unwrap() as f64 / 1000.0;
        let op_back = if dir == "read" { &back.tests[0].read } else { &back.tests[0].write };
        assert_eq!(op_back.lat_us.percentiles.get("99"), Some(p99), "{dir}");
    }
}

#[test]
fn json_snapshot() {
    // "time" is in the machine's time zone, as fio prints it: the rest is the machine's own.
    let text = render_as(&fixture(), false);
    let shown: Vec<&str> = text
        .lines()
        .map(|l| if l.trim_start().starts_with("\"time\" :") { "  \"time\" : LOCAL TIME," } else { l })
        .collect();
    insta::assert_snapshot!(shown.join("\n"));
}

#[test]
fn what_iolens_ran_differently_is_in_the_job_entry() {
    let mut r = fixture();
    r.tests[0].notices = vec!["ioengine=libaio: iolens runs it on io_uring".into()];
    let v: serde_json::Value = serde_json::from_str(&render_as(&r, false)).unwrap();
    assert_eq!(v["jobs"][0]["iolens_notices"], serde_json::json!(["ioengine=libaio: iolens runs it on io_uring"]));
    r.tests[0].notices.clear();
    let v: serde_json::Value = serde_json::from_str(&render_as(&r, false)).unwrap();
    assert!(v["jobs"][0].get("iolens_notices").is_none(), "absent when nothing was run differently");
}

#[test]
fn a_job_with_group_reporting_joins_the_entry_before_it_in_its_group() {
    let mut r = fixture();
    let mut a = r.tests[0].clone();
    a.name = "a".into();
    a.notices = vec!["one".into()];
    let mut b = a.clone();
    b.name = "b".into();
    b.options.push(("group_reporting".into(), String::new()));
    b.notices = vec!["one".into(), "two".into()];
    let mut c = b.clone();
    c.name = "c".into();
    c.group = a.group + 1;
    r.tests = vec![a.clone(), b, c];
    let v: Value = serde_json::from_str(&render_as(&r, false)).unwrap();
    let jobs = v["jobs"].as_array().unwrap();
    // a and b: one entry under a's name; c opens a group of its own.
    let names: Vec<&str> = jobs.iter().map(|j| j["jobname"].as_str().unwrap()).collect();
    assert_eq!(names, ["a", "c"]);
    assert_eq!(jobs[0]["read"]["total_ios"], 2 * a.read.ios);
    assert_eq!(jobs[0]["write"]["io_bytes"], 2 * a.write.bytes);
    assert_eq!(jobs[1]["read"]["total_ios"], a.read.ios);
    assert_eq!(jobs[0]["iolens_notices"], serde_json::json!(["one", "two"]));
    // Without the option, every job is an entry.
    r.tests[1].options.retain(|(k, _)| k != "group_reporting");
    let v: Value = serde_json::from_str(&render_as(&r, false)).unwrap();
    assert_eq!(v["jobs"].as_array().unwrap().len(), 3);
}

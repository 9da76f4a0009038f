//! `iolens explain` on loop devices throttled to caps the test chooses: it must find them
//! (within 5 %) and say which binds at 4K and at 1M; with only a bandwidth throttle it must
//! report no IOPS cap. Needs root, losetup and cgroup v1 blkio; skipped with the reason elsewhere,
//! failed under IOLENS_REQUIRE_PRIVILEGED=1.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::throttled::Throttled;
use common::*;

fn explain(t: &Throttled) -> serde_json::Value {
    let cmd = format!("{} explain {} --budget 30s --format json --quiet", env!("CARGO_BIN_EXE_iolens"), t.dev);
    let (code, out, err) = parts(&t.run(&cmd));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    eprintln!("{}", serde_json::to_string_pretty(&v["analysis"]).unwrap());
    v["analysis"].clone()
}

fn within(v: &serde_json::Value, set: f64, tol: f64) -> bool {
    v.as_f64().is_some_and(|m| (m / set - 1.0).abs() <= tol)
}

#[test]
fn iops_and_bandwidth_caps_are_found_and_named_per_block_size() {
    let Some(t) = Throttled::new("explain-both") else { return };
    t.set("read_iops_device", 1000);
    t.set("read_bps_device", 20_000_000);
    let a = explain(&t);
    assert!(within(&a["iops_cap"], 1000.0, 0.05), "iops_cap {}", a["iops_cap"]);
    assert!(within(&a["mbps_cap"], 20.0, 0.05), "mbps_cap {}", a["mbps_cap"]);
    assert_eq!(a["binding"]["4K"], "iops");
    assert_eq!(a["binding"]["1M"], "mbps");
    // 20 MB/s ÷ 1,000 IOPS: 20 kB, where one wall hands over to the other.
    assert!(within(&a["crossover_bs"], 20_000.0, 0.10), "crossover {}", a["crossover_bs"]);
}

#[test]
fn a_bandwidth_throttle_alone_has_no_iops_cap() {
    let Some(t) = Throttled::new("explain-bw") else { return };
    t.set("read_bps_device", 20_000_000);
    let a = explain(&t);
    assert!(a.get("iops_cap").is_none(), "no IOPS cap: {}", a["iops_cap"]);
    assert!(within(&a["mbps_cap"], 20.0, 0.05), "mbps_cap {}", a["mbps_cap"]);
    assert_eq!(a["binding"]["1M"], "mbps");
}

/// `check` (`--quick` or not) on a loop device throttled to 2,000 IOPS and 40 MB/s: a block
/// device, so reads only. Its sweep must measure five block sizes or more from 4K to 1M, find
/// both caps within 3 %, and say of each step how long it measured and why it stopped.
fn check_throttled(name: &str, quick: &str) {
    let Some(t) = Throttled::new(name) else { return };
    t.set("read_iops_device", 2000);
    t.set("read_bps_device", 40_000_000);
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("check.html");
    let bin = env!("CARGO_BIN_EXE_iolens");
    let cmd = format!("{bin} check {} {quick} --format json --quiet --html {}", t.dev, page.display());
    let (code, out, err) = parts(&t.run(&cmd));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sweep: Vec<&serde_json::Value> =
        v["tests"].as_array().unwrap().iter().filter(|t| t["name"].as_str().unwrap().starts_with("sweep ")).collect();
    let mut sizes: Vec<u64> = sweep.iter().map(|t| t["spec"]["blocks"][0]["size"].as_u64().unwrap()).collect();
    sizes.sort();
    sizes.dedup();
    assert!(sizes.len() >= 5 && sizes[0] == 4096 && sizes.last() == Some(&(1 << 20)), "block sizes {sizes:?}");
    for t in &sweep {
        let (name, secs, full) =
            (&t["name"], t["duration_s"].as_f64().unwrap(), t["spec"]["duration"].as_f64().unwrap());
        assert_eq!(t["spec"]["read_pct"], 100, "{name}: a device without --force-device is only read");
        match t["steady"]["stop"].as_str() {
            // Steady over one second of 250 ms samples at least, before the step's full length.
            Some("steady") => assert!((1.0..=full + 0.05).contains(&secs), "{name}: steady after {secs} s of {full}"),
            Some("cap") => assert!((secs - full).abs() <= 0.05 * full, "{name}: capped after {secs} s of {full}"),
            other => panic!("{name}: stopped by {other:?}"),
        }
    }
    let a = &v["analysis"]["reads"];
    eprintln!("{}", serde_json::to_string_pretty(a).unwrap());
    assert!(within(&a["iops_cap"], 2000.0, 0.03), "iops_cap {}", a["iops_cap"]);
    assert!(within(&a["mbps_cap"], 40.0, 0.03), "mbps_cap {}", a["mbps_cap"]);
    assert_eq!((a["binding"]["4K"].as_str(), a["binding"]["1M"].as_str()), (Some("iops"), Some("mbps")));
    // The page's table of every test has the two columns.
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<th>s</th><th>stop</th>"), "no stop column on the page");
}

#[test]
fn check_quick_on_a_throttle_finds_both_caps_over_five_block_sizes() {
    check_throttled("check-quick", "--quick");
}

#[test]
fn check_on_a_throttle_finds_both_caps_over_five_block_sizes() {
    check_throttled("check-full", "");
}

#[test]
fn check_quick_tables_walls_and_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("check.html");
    let out = bin()
        .current_dir(dir.path())
        .args(["check", "--quick", "--quiet", "--html", page.to_str().unwrap()])
        .output()
        .unwrap();
    let (code, text, err) = parts(&out);
    assert_eq!(code, 0, "{err}");
    let steady = "s: measured seconds; stop: steady (IOPS of each 250 ms within ±5 % of their mean over 1 s), cap";
    for part in [
        "SEQ1M Q8T1",
        "RND4K Q1T1",
        "sweep RND4K Q1T1 Read",
        "| mean QD |      s | stop",
        steady,
        "\nWalls\n",
        "reads:",
        "Catalog matches",
        "\nAdvice\n",
    ] {
        assert!(text.contains(part), "{part:?} missing:\n{text}");
    }
    // The page's verdict sentence, word for word, above the walls in the terminal too.
    let html = std::fs::read_to_string(&page).unwrap();
    let said = &html[html.find("<p class=\"verdict\">").expect("a verdict on the page") + 19..];
    let said = said[..said.find("</p>").unwrap()].replace("&amp;", "&");
    let at = text.find(&format!("\nVerdict: {said}\n")).unwrap_or_else(|| panic!("{said:?} not in:\n{text}"));
    assert!(at < text.find("\nWalls\n").unwrap(), "the verdict before the walls");
    assert!(html.contains("<h2>Walls and advice</h2>"));
    assert!(err.contains("report: ") && err.contains("saved as result "), "{err}");
    // Nothing left behind but the page.
    assert_eq!(entries(dir.path()), ["check.html"]);
    // The stored result explains again, the same way.
    let id = err.split("saved as result ").nth(1).and_then(|s| s.split_whitespace().next()).unwrap().to_string();
    let (code, json, err) = parts(&bin().args(["explain", &id, "--format", "json"]).output().unwrap());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["results"][0].to_string(), id);
    assert!(v["analysis"]["reads"].is_object(), "{v}");
}

#[test]
fn plan_states_sustained_and_burst_limits_and_what_binds_each() {
    let plan = |vm: &str, format: &str| {
        let out = bin().args(["plan", "--vm", vm, "--disk", "P30", "--count", "3", "--format", format]).output();
        let (code, out, err) = parts(&out.unwrap());
        assert_eq!(code, 0, "{err}");
        out
    };
    let text = plan("D2s_v4", "text");
    assert!(text.contains("IOPS 3,200 sustained: VM D2s_v4 uncached binds (the disks give 15,000)"), "{text}");
    assert!(text.contains("IOPS 4,000 burst: VM D2s_v4 uncached burst binds"), "{text}");
    assert!(text.contains("VM D2s_v4 uncached: credit-based") && text.contains("[catalog: credit, 30 min]"), "{text}");
    assert!(text.contains("P30 can also burst on demand to 30,000 IOPS"), "{text}");
    let v: serde_json::Value = serde_json::from_str(&plan("D2s_v4", "json")).unwrap();
    let x = &v["expected"];
    assert_eq!((x["iops"].as_f64(), x["burst_iops"].as_f64()), (Some(3200.0), Some(4000.0)));
    assert_eq!((x["mbps"].as_f64(), x["burst_mbps"].as_f64()), (Some(48.0), Some(200.0)));
    assert_eq!(x["bursts"][0]["model"], "credit");
    assert_eq!(v["at_block_size_burst"][0]["iops"].as_f64(), Some(4000.0));
    // A larger VM: the disks bind while the VM bursts.
    let text = plan("D8s_v4", "text");
    assert!(text.contains("IOPS 12,800 sustained: VM D8s_v4 uncached binds"), "{text}");
    assert!(text.contains("IOPS 15,000 burst: 3 × P30 binds"), "{text}");
}

#[test]
fn plan_predicts_a_named_configuration_and_refuses_unknown_names() {
    let (code, out, err) = parts(
        &bin().args(["plan", "--vm", "D8s_v3", "--disk", "P30", "--count", "4", "--format", "json"]).output().unwrap(),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["expected"]["iops"].as_f64(), v["expected"]["iops_by"].as_str()),
        (Some(12800.0), Some("VM D8s_v3 uncached"))
    );
    assert_eq!(v["expected"]["disks_iops"].as_f64(), Some(20000.0));
    assert_eq!(v["at_block_size"][0]["binds"], "iops");
    let (code, _, err) = parts(&bin().args(["plan", "--disk", "P99"]).output().unwrap());
    assert_eq!((code, err.trim()), (2, "error: --disk: 'P99' is not in the catalog; `iolens catalog` lists it"));
    let (code, out, _) = parts(
        &bin()
            .args(["plan", "--iops", "16000", "--cloud", "aws", "--max-disks", "1", "--format", "json"])
            .output()
            .unwrap(),
    );
    assert_eq!(code, 0);
    let plans: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    let gp3 = plans.iter().find(|p| p["disk"] == "gp3").expect("gp3 among the plans");
    assert_eq!(gp3["disk_gib"].as_f64(), Some(32.0));
    let (code, out, _) = parts(&bin().args(["catalog", "--search", "P30"]).output().unwrap());
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.contains("P30") && l.contains("5000") && l.contains("200")), "{out}");
}

#[test]
fn explain_takes_labels_and_result_files_and_never_makes_a_file_of_a_word() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.db");
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let iolens = || {
        let mut c = bin();
        c.current_dir(&work).env("IOLENS_STORE", &store);
        c
    };
    let out = iolens()
        .args(["run", "--size", "4M", "-d", "0.3", "--rw", "randread", "--label", "vm2", "--quiet", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(dir.path().join("r.json"), &out.stdout).unwrap();
    // By label and by file, as compare takes them: explained, nothing created.
    for what in ["vm2", "../r.json"] {
        let out = iolens().args(["explain", "--format", "json", what]).output().unwrap();
        assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v["analysis"].is_object(), "{what}: {v}");
    }
    // A word that names nothing is refused in one line, and no file appears.
    let out = iolens().args(["explain", "vm3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'vm3' is no file, directory, result id or label"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let out = iolens().args(["check", "--quick", "vm3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_dir(&work).unwrap().count(), 0, "a file was made in the working directory");
}

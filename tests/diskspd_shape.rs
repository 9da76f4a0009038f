//! `iolens diskspd` has the shape of the real DiskSpd 2.3's output for the same lines: the
//! samples in tests/data/diskspd-2.3 (DiskSpd under wine) against iolens on Linux. Sections and
//! their order, table columns and rules, percentile rows, every indented label with its
//! indentation and value column, every XML element and attribute path, and the share of
//! writes; other figures never. tests/windows_diskspd.rs compares iolens.exe with the same
//! samples under wine.
#![cfg(unix)]

mod common;
#[path = "common/diskspd_shape.rs"]
mod diskspd_shape;
use common::*;
use diskspd_shape::*;
use std::path::{Path, PathBuf};

fn scratch(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("diskspd-shape-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// iolens' stdout for a sample's DiskSpd line, shortened to one measured second and no
/// warm-up (times are figures, not shape), on a file of its own.
fn iolens(line: &str, file: &Path) -> String {
    let line = shortened(line);
    let out = bin().arg("diskspd").args(line.split_whitespace()).arg(file).output().expect("running iolens");
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{line}: {stderr}");
    stdout
}

#[test]
fn text_has_the_samples_sections_columns_and_percentile_rows() {
    let d = scratch("text");
    for (name, line, file) in SAMPLES.into_iter().filter(|(name, ..)| name.ends_with(".txt")) {
        let (want_text, have_text) = (sample(name), iolens(line, &d.join(file)));
        let (want, mut have) = (text_shape(&want_text), text_shape(&have_text));
        have.labels = labels_as_diskspd(&have.labels, &want.labels);
        assert_eq!(have, want, "{name}: {line}\n{have_text}");
        let (wi, wd) = (text_write_share(&have_text), text_write_share(&want_text));
        assert!((wi - wd).abs() <= 2.0, "{name}: write share: iolens {wi:.2} %, DiskSpd {wd:.2} %");
        if name == "a.txt" {
            let sections = [
                "Command Line:",
                "Input parameters:",
                "System information:",
                "Results for timespan 1:",
                "actual test time:",
                "thread count:",
                "effective affinity (cpu):",
                "Total IO",
                "Read IO",
                "Write IO",
                "Total latency distribution:",
            ];
            assert_eq!(want.headings, sections);
            // CPU, then Total, Read and Write IO with -D's IopsStdDev column, then the percentiles.
            assert_eq!(want.tables.iter().filter(|t| t.contains("IopsStdDev")).count(), 3, "{:?}", want.tables);
        }
        // The sample lines with -L have DiskSpd's 15 rows, min to max; without it, none.
        assert_eq!(want.percentiles.len(), if line.contains("-L") { 15 } else { 0 }, "{name}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn xml_has_the_samples_elements_and_attributes() {
    let d = scratch("xml");
    let (_, line, file) = SAMPLES.into_iter().find(|(name, ..)| *name == "b.xml").unwrap();
    let (want_xml, have_xml) = (sample("b.xml"), iolens(line, &d.join(file)));
    let (want, have) = (xml_paths(&want_xml), xml_paths(&have_xml));
    let (mut extra, missing) = path_diff(&have, &want);
    extra.retain(|p| !IOLENS_ONLY.iter().any(|(only, _)| only == p));
    assert!(missing.is_empty() && extra.is_empty(), "missing {missing:#?}\nnot in DiskSpd's {extra:#?}");
    let (wi, wd) = (write_share(&have_xml), write_share(&want_xml));
    assert!((wi - wd).abs() <= 2.0, "b.xml: write share: iolens {wi:.2} %, DiskSpd {wd:.2} %");
    // The per-second buckets carry DiskSpd's 8 latency attributes, per time span and per thread.
    for at in ["Results/TimeSpan/Iops/Bucket", "Results/TimeSpan/Thread/Target/Iops/Bucket"] {
        let lat = have.iter().filter(|p| p.starts_with(&format!("{at}/@")) && p.contains("Latency")).count();
        assert_eq!(lat, 8, "{at}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn profiles_and_system_information_have_the_samples_shape() {
    let d = scratch("unrun");
    for (name, line, file) in UNRUN {
        let mut args: Vec<String> = line.split_whitespace().map(String::from).collect();
        if !file.is_empty() {
            args.push(d.join(file).display().to_string());
        }
        let out = bin().arg("diskspd").args(&args).output().expect("running iolens");
        let (code, have, stderr) = parts(&out);
        assert_eq!(code, 0, "{line}: {stderr}");
        let want = sample(name);
        if name.ends_with(".xml") {
            let (mut extra, missing) = path_diff(&xml_paths(&have), &xml_paths(&want));
            extra.retain(|p| !IOLENS_ONLY.iter().any(|(only, _)| p.ends_with(only.trim_start_matches("Results/"))));
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{name}: missing {missing:#?}\nnot in DiskSpd's {extra:#?}"
            );
        } else {
            let (want, mut have_shape) = (text_shape(&want), text_shape(&have));
            have_shape.labels = labels_as_diskspd(&have_shape.labels, &want.labels);
            assert_eq!(have_shape, want, "{name}: {line}\n{have}");
        }
        assert!(!d.join(file).exists() || file.is_empty(), "{line} ran nothing, so created nothing");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// The lines of `text` that hold any of `keys`, trimmed.
fn lines_with<'a>(text: &'a str, keys: &[&str]) -> Vec<&'a str> {
    text.lines().map(str::trim).filter(|l| keys.iter().any(|k| l.contains(k))).collect()
}

#[test]
fn an_end_past_the_file_is_cut_back_and_still_shown_as_typed() {
    let d = scratch("cut");
    let file = d.join("t.dat");
    std::fs::write(&file, vec![7u8; 1 << 20]).unwrap();
    let warning = "WARNING: file size 1048576 is less than MaxFileSize 2097152\n";
    let keys = ["base file offset:", "max file size:", "<BaseFileOffset>", "<MaxFileSize>"];
    for (name, line) in [("e.txt", "-b4K -d1 -W0 -f2M -B64K"), ("e.xml", "-b4K -d1 -W0 -f2M -B64K -Rxml")] {
        let out = bin().arg("diskspd").args(line.split_whitespace()).arg(&file).output().unwrap();
        let (code, stdout, stderr) = parts(&out);
        assert_eq!(code, 0, "{line}: {stderr}");
        assert!(stderr.starts_with(warning), "{line}: {stderr}");
        let want = sample(name);
        assert_eq!(lines_with(&stdout, &keys), lines_with(&want, &keys), "{name}: {line}");
        assert_eq!(lines_with(&want, &keys).len(), 2, "{name}");
    }
    // The run kept to the file: 1 MiB it was, 1 MiB it stays.
    assert_eq!(std::fs::metadata(&file).unwrap().len(), 1 << 20);
    std::fs::remove_dir_all(&d).unwrap();
}

/// The CPUs each worker thread of `pid` may run on, by thread name, read from /proc while it runs.
fn worker_cpus(pid: u32) -> Vec<String> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    let mut out = Vec::new();
    for t in tasks.flatten() {
        let status = std::fs::read_to_string(t.path().join("status")).unwrap_or_default();
        let field = |k: &str| status.lines().find_map(|l| l.strip_prefix(k)).map(|v| v.trim().to_string());
        if field("Name:").is_some_and(|n| n.starts_with("iolens-w")) {
            out.extend(field("Cpus_allowed_list:"));
        }
    }
    out.sort();
    out
}

#[test]
fn threads_run_held_to_the_cpus_affinity_assigns() {
    let d = scratch("affinity");
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let allowed = status.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")).unwrap().trim().to_string();
    let last: u32 = allowed.trim().rsplit([',', '-']).next().unwrap().parse().unwrap();
    for (line, want) in
        [(format!("-a{last}"), vec![last.to_string(), last.to_string()]), ("-n".to_string(), Vec::new())]
    {
        let mut child = bin()
            .args(["diskspd", "--no-store", "-t2", "-o1", "-d2", "-W0", "-c1M", &line])
            .arg(d.join("a.dat"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut seen = Vec::new();
        let start = std::time::Instant::now();
        while seen.len() < 2 && start.elapsed() < std::time::Duration::from_secs(2) {
            seen = worker_cpus(child.id());
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(child.wait().unwrap().success(), "{line}");
        assert_eq!(seen.len(), 2, "{line}: two worker threads seen");
        if want.is_empty() {
            // -n: each thread may run anywhere the process may.
            assert!(seen.iter().all(|c| *c == allowed), "{line}: {seen:?}");
        } else {
            assert_eq!(seen, want, "{line}");
        }
    }
    std::fs::remove_dir_all(&d).unwrap();
}

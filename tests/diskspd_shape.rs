//! `iolens diskspd` has the shape of the real DiskSpd 2.2's output for the same lines: the
//! samples in tests/data/diskspd-2.2 (DiskSpd under wine) against iolens on Linux. Sections and
//! their order, table columns and rules, percentile rows and every XML element and attribute
//! path, and the share of writes; other figures never. tests/windows_diskspd.rs compares iolens.exe
//! with the same samples under wine.
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
        let (want, have) = (text_shape(&want_text), text_shape(&have_text));
        assert_eq!(have, want, "{name}: {line}");
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

//! `iolens diskspd` has the shape of the real DiskSpd 2.2's output for the same lines: the
//! samples in tests/data/diskspd-2.2 (DiskSpd under wine) against iolens on Linux. Sections and
//! their order, table columns and rules, percentile rows and every XML element and attribute
//! path; figures never. tests/windows.rs compares iolens.exe with DiskSpd itself, run side by side.
#![cfg(unix)]

mod common;
#[path = "common/diskspd_shape.rs"]
mod diskspd_shape;
use common::*;
use diskspd_shape::*;
use std::path::{Path, PathBuf};

/// Paths iolens writes that DiskSpd leaves out for the sample's line, each for a reason.
const IOLENS_ONLY: [(&str, &str); 1] = [(
    "Results/Profile/TimeSpans/TimeSpan/RandomWriteData",
    "iolens writes fresh random data by default, which DiskSpd spells -Zr and records so",
)];

fn sample(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/diskspd-2.2").join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn scratch(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("diskspd-shape-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// iolens' stdout for a sample's DiskSpd line, shortened to one measured second and no
/// warm-up (times are figures, not shape), on a file of its own.
fn iolens(line: &str, file: &Path) -> String {
    let line = line.replace("-d5", "-d1 -W0");
    let out = bin().arg("diskspd").args(line.split_whitespace()).arg(file).output().expect("running iolens");
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{line}: {stderr}");
    stdout
}

#[test]
fn text_has_the_samples_sections_columns_and_percentile_rows() {
    let d = scratch("text");
    for (name, line, file) in [
        ("a.txt", "-t2 -o32 -b4k -r4k -w25 -d5 -Sh -D -L -c64M", "IO.dat"),
        ("c.txt", "-b8K -d5 -o8 -t4 -h -r -w30 -L -c64M", "test.dat"),
        ("d.txt", "-b64K -d5 -o4 -t1 -si -w100 -c64M", "seq.dat"),
    ] {
        let want = text_shape(&sample(name));
        let have = text_shape(&iolens(line, &d.join(file)));
        assert_eq!(have, want, "{name}: {line}");
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
    let want = xml_paths(&sample("b.xml"));
    let have = xml_paths(&iolens("-t2 -o32 -b4k -r4k -w25 -d5 -Sh -D -L -c64M -Rxml", &d.join("IO.dat")));
    let (mut extra, missing) = path_diff(&have, &want);
    extra.retain(|p| !IOLENS_ONLY.iter().any(|(only, _)| only == p));
    assert!(missing.is_empty() && extra.is_empty(), "missing {missing:#?}\nnot in DiskSpd's {extra:#?}");
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

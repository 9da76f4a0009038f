//! iolens.exe beside the real DiskSpd 2.2 (tests/data/diskspd-2.2/tool/diskspd.exe), the same
//! lines on the same drive, under wine here: the same text sections, table columns and
//! percentile rows, the same `-Rxml` element and attribute paths, and the same share of writes.
//! Wine proves behaviour, not speed: no figure is compared but that share.
#![cfg(windows)]

#[path = "common/diskspd_shape.rs"]
mod diskspd_shape;
#[path = "../src/testing.rs"]
mod testing;
use diskspd_shape::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Paths one side writes and the other does not, each for a reason; anything else fails.
const ONE_SIDE_ONLY: [(&str, &str); 1] = [(
    "Results/Profile/TimeSpans/TimeSpan/RandomWriteData",
    "iolens writes fresh random data by default, which DiskSpd spells -Zr and records so",
)];

/// DiskSpd's executable: IOLENS_DISKSPD_EXE, else the build checked in under tests/data
/// (wine's Z: is the Linux root the build ran in).
fn diskspd_exe() -> Result<PathBuf, String> {
    let p = std::env::var_os("IOLENS_DISKSPD_EXE").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(format!("Z:{}/tests/data/diskspd-2.2/tool/diskspd.exe", env!("CARGO_MANIFEST_DIR")))
    });
    if p.is_file() {
        Ok(p)
    } else {
        Err(format!("{} is not there (set IOLENS_DISKSPD_EXE)", p.display()))
    }
}

fn dir() -> PathBuf {
    let base = if Path::new(r"F:\").is_dir() { PathBuf::from(r"F:\") } else { std::env::temp_dir() };
    let d = base.join(format!("iolens-diskspd-shape-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Stdout of `program LINE FILE`, which must succeed.
fn run(program: &Path, d: &Path, line: &str, file: &Path) -> String {
    let out = Command::new(program)
        .args(line.split_whitespace())
        .arg(file)
        .env("IOLENS_STORE", d.join("store.db"))
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("starting {}: {e}", program.display()));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{} {line}: {:?}\n{stderr}\n{stdout}", program.display(), out.status.code());
    stdout.replace("\r\n", "\n")
}

#[test]
fn iolens_and_diskspd_have_one_shape() {
    let p = testing::Privileged::new();
    let Some(diskspd) = p.need("DiskSpd 2.2 for Windows", diskspd_exe()) else { return };
    let iolens = PathBuf::from(env!("CARGO_BIN_EXE_iolens"));
    let d = dir();
    // The field notes' -w30 line, shortened; each side makes its own file of the same size.
    let line = "-b8K -d2 -W0 -o8 -t4 -h -r -w30 -L -D -c16M";
    let mine = |tool: &Path, extra: &str, name: &str| {
        let sub = if tool == iolens.as_path() { "diskspd" } else { "" };
        run(tool, &d, &format!("{sub} {line} {extra}"), &d.join(name))
    };
    let (ti, td) = (mine(&iolens, "", "i.dat"), mine(&diskspd, "", "d.dat"));
    let (si, sd) = (text_shape(&ti), text_shape(&td));
    assert_eq!(si.headings, sd.headings, "iolens:\n{ti}\nDiskSpd:\n{td}");
    assert_eq!(si.tables, sd.tables, "iolens:\n{ti}\nDiskSpd:\n{td}");
    assert_eq!(si.percentiles, sd.percentiles, "iolens:\n{ti}\nDiskSpd:\n{td}");
    assert_eq!(sd.percentiles.len(), 15, "{td}");

    let (xi, xd) = (mine(&iolens, "-Rxml", "i.dat"), mine(&diskspd, "-Rxml", "d.dat"));
    let (mut only_iolens, mut only_diskspd) = path_diff(&xml_paths(&xi), &xml_paths(&xd));
    let known = |p: &String| !ONE_SIDE_ONLY.iter().any(|(k, _)| k == p);
    only_iolens.retain(known);
    only_diskspd.retain(known);
    assert!(
        only_iolens.is_empty() && only_diskspd.is_empty(),
        "iolens only: {only_iolens:#?}\nDiskSpd only: {only_diskspd:#?}"
    );
    let (wi, wd) = (write_share(&xi), write_share(&xd));
    eprintln!("-w30: iolens {wi:.2} % writes, DiskSpd {wd:.2} %");
    assert!((wi - wd).abs() <= 2.0, "write share: iolens {wi:.2} %, DiskSpd {wd:.2} %");
    let _ = std::fs::remove_dir_all(&d);
}

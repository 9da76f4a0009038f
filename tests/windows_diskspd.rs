//! iolens.exe against the real DiskSpd 2.3, under wine: the recorded outputs in
//! tests/data/diskspd-2.3 (what DiskSpd printed for each line) against iolens.exe's for the same
//! lines, on drive F:. The same text sections, table columns, percentile rows and indented
//! labels, the same `-Rxml` element and attribute paths, and the same share of writes within 2
//! points; the `-Rp` and `-Rs` samples too. Wine proves behaviour, not speed: no other figure is
//! compared.
//!
//! With IOLENS_DISKSPD_EXE naming a DiskSpd executable, `side_by_side_with_a_diskspd_you_point_at`
//! also runs both on one more line (run it with `-- --ignored`); none is shipped here.
#![cfg(windows)]

#[path = "common/diskspd_shape.rs"]
mod diskspd_shape;
use diskspd_shape::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn dir(test: &str) -> PathBuf {
    let base = if Path::new(r"F:\").is_dir() { PathBuf::from(r"F:\") } else { std::env::temp_dir() };
    let d = base.join(format!("iolens-diskspd-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Stdout of `program LINE FILE` (no FILE when empty), which must succeed.
fn run(program: &Path, d: &Path, line: &str, file: &Path) -> String {
    let out = Command::new(program)
        .args(line.split_whitespace())
        .args((!file.as_os_str().is_empty()).then_some(file))
        .env("IOLENS_STORE", d.join("store.db"))
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("starting {}: {e}", program.display()));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{} {line}: {:?}\n{stderr}\n{stdout}", program.display(), out.status.code());
    stdout.replace("\r\n", "\n")
}

fn iolens() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_iolens"))
}

/// Both outputs of one line have one shape: text or XML as the line asks, and the write share.
fn assert_one_shape(what: &str, line: &str, have: &str, want: &str) {
    if line.contains("xml") {
        let (mut only_iolens, only_diskspd) = path_diff(&xml_paths(have), &xml_paths(want));
        only_iolens.retain(|p| !IOLENS_ONLY.iter().any(|(k, _)| p.ends_with(k.trim_start_matches("Results/"))));
        assert!(
            only_iolens.is_empty() && only_diskspd.is_empty(),
            "{what}: iolens only: {only_iolens:#?}\nDiskSpd only: {only_diskspd:#?}"
        );
        if !line.contains("-R") || line.contains("-Rxml") {
            let (wi, wd) = (write_share(have), write_share(want));
            eprintln!("{what} {line}: iolens {wi:.2} % writes, DiskSpd {wd:.2} %");
            assert!((wi - wd).abs() <= 2.0, "{what}: write share: iolens {wi:.2} %, DiskSpd {wd:.2} %");
        }
    } else if line.contains("-R") {
        let (si, sd) = (text_shape(have), text_shape(want));
        assert_eq!((&si.headings, &si.tables), (&sd.headings, &sd.tables), "{what}: iolens:\n{have}\nDiskSpd:\n{want}");
        assert_eq!(labels_as_diskspd(&si.labels, &sd.labels), sd.labels, "{what}: iolens:\n{have}\nDiskSpd:\n{want}");
    } else {
        let (si, sd) = (text_shape(have), text_shape(want));
        assert_eq!(si.headings, sd.headings, "{what}: iolens:\n{have}\nDiskSpd:\n{want}");
        assert_eq!(si.tables, sd.tables, "{what}: iolens:\n{have}\nDiskSpd:\n{want}");
        assert_eq!(si.percentiles, sd.percentiles, "{what}: iolens:\n{have}\nDiskSpd:\n{want}");
        assert_eq!(labels_as_diskspd(&si.labels, &sd.labels), sd.labels, "{what}: iolens:\n{have}\nDiskSpd:\n{want}");
        assert_eq!(sd.percentiles.len(), if line.contains("-L") { 15 } else { 0 }, "{what}: {want}");
        let (wi, wd) = (text_write_share(have), text_write_share(want));
        eprintln!("{what} {line}: iolens {wi:.2} % writes, DiskSpd {wd:.2} %");
        assert!((wi - wd).abs() <= 2.0, "{what}: write share: iolens {wi:.2} %, DiskSpd {wd:.2} %");
    }
}

#[test]
fn iolens_exe_has_the_shape_of_diskspds_recorded_outputs() {
    let d = dir("recorded");
    for (name, line, file) in SAMPLES {
        let line = shortened(line);
        let have = run(&iolens(), &d, &format!("diskspd {line}"), &d.join(file));
        assert_one_shape(name, &line, &have, &sample(name));
        let _ = std::fs::remove_file(d.join(file));
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn iolens_exe_prints_profiles_and_system_information_as_diskspd() {
    let d = dir("unrun");
    for (name, line, file) in UNRUN {
        let target = if file.is_empty() { PathBuf::new() } else { d.join(file) };
        let have = run(&iolens(), &d, &format!("diskspd {line}"), &target);
        assert_one_shape(name, line, &have, &sample(name));
        assert!(file.is_empty() || !d.join(file).exists(), "{line} ran nothing, so created nothing");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Exit code, stdout and stderr of `iolens diskspd LINE FILE`.
fn attempt(d: &Path, line: &str, file: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(iolens())
        .arg("diskspd")
        .args(line.split_whitespace())
        .arg(file)
        .env("IOLENS_STORE", d.join("store.db"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).replace("\r\n", "\n");
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// Wine's ntdll exports its version; Windows's does not.
fn under_wine() -> bool {
    use windows_sys::Win32::System::LibraryLoader::{GetModuleHandleA, GetProcAddress};
    // SAFETY: NUL-terminated names; ntdll is loaded in every process.
    unsafe { GetProcAddress(GetModuleHandleA(c"ntdll.dll".as_ptr().cast()), c"wine_get_version".as_ptr().cast()) }
        .is_some()
}

#[test]
fn bypass_io_is_asked_of_each_handle_and_fails_as_diskspd_fails_where_windows_refuses() {
    let d = dir("bypass");
    let file = d.join("d.dat");
    for (sw, name) in [("-Sy", "d-Sy-Su.stderr.txt"), ("-SY", "d-SY-Su.stderr.txt")] {
        let (code, _, stderr) = attempt(&d, &format!("{sw} -Su -d1 -W0 -c8M"), &file);
        // DiskSpd's first line, its path swapped for this run's.
        let want = sample(name).lines().next().unwrap().replace(r"F:\d.dat", &file.display().to_string());
        if under_wine() || stderr.contains("error 1:") {
            // Wine (and file systems without BypassIO): the run stops at the handle, exit code 1.
            assert_eq!(code, Some(1), "{sw}: {stderr}");
            assert!(stderr.contains(&want), "{sw}: iolens said:\n{stderr}\nDiskSpd said:\n{want}");
        } else {
            assert_eq!(code, Some(0), "{sw} on a Windows with BypassIO: {stderr}");
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn ioring_runs_where_windows_has_it_and_iocp_with_a_notice_where_not() {
    let d = dir("ioring");
    let (code, stdout, stderr) = attempt(&d, "-u -o4 -t2 -d1 -W0 -c8M", &d.join("d.dat"));
    assert_eq!(code, Some(0), "{stderr}");
    if under_wine() || stderr.contains("IoRing is unavailable") {
        assert!(stderr.contains("using I/O Completion Ports (iocp)"), "{stderr}");
        assert!(stdout.contains("      using I/O Completion Ports"), "the parameters say what ran:\n{stdout}");
        assert!(!stdout.contains("IoRing"), "{stdout}");
    } else {
        assert!(stdout.contains("using IoRing (batch size: 25%) with registered buffers"), "{stdout}");
        let table = stdout.split("IoRing Statistics\n").nth(1).expect("the ring's table");
        let rows: Vec<f64> =
            table.lines().skip(2).take(2).map(|l| l.rsplit(' ').next().unwrap().parse().unwrap()).collect();
        assert!(rows.iter().all(|&r| r > 0.0), "each thread submitted: {table}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
#[ignore = "needs IOLENS_DISKSPD_EXE, a DiskSpd executable to run side by side"]
fn side_by_side_with_a_diskspd_you_point_at() {
    let diskspd = std::env::var_os("IOLENS_DISKSPD_EXE")
        .map(PathBuf::from)
        .expect("IOLENS_DISKSPD_EXE: the path of a DiskSpd executable (wine's Z: is the Linux root)");
    assert!(diskspd.is_file(), "IOLENS_DISKSPD_EXE: {} is not a file", diskspd.display());
    let d = dir("live");
    // The field notes' -w30 line, shortened, with -D; each side makes its own file of the same size.
    let line = "-b8K -d2 -W0 -o8 -t4 -h -r -w30 -L -D -c16M";
    for extra in ["", " -Rxml"] {
        let line = format!("{line}{extra}");
        let have = run(&iolens(), &d, &format!("diskspd {line}"), &d.join("i.dat"));
        let want = run(&diskspd, &d, &line, &d.join("d.dat"));
        assert_one_shape("side by side", &line, &have, &want);
    }
    let _ = std::fs::remove_dir_all(&d);
}

//! iolens.exe on Windows, driven as a DBA drives it on a Windows Server VM: drive letters, the
//! iocp and sync engines, a field note's DiskSpd line as typed, unbuffered I/O refused where
//! misaligned, simdb and the page checks, disks refused, the store under %LOCALAPPDATA%, and
//! every command once. Run under wine here (scripts/wine-run maps F: to a scratch directory);
//! wine proves behaviour, not speed, so no figure is compared with a speed.
#![cfg(windows)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A directory of this test's own on F: (the field notes' test drive), else in %TEMP%.
fn dir(test: &str) -> PathBuf {
    let base = if Path::new(r"F:\").is_dir() { PathBuf::from(r"F:\") } else { std::env::temp_dir() };
    let d = base.join(format!("iolens-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn entries(d: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// iolens.exe with its results in a store of `d`, never the user's.
fn iolens(d: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_iolens"));
    c.env("IOLENS_STORE", d.join("store.db"));
    c
}

/// Held (shared) while a test starts iolens.exe, and alone while the Ctrl-C test has left its
/// console: a child started then would be in the console that gets the Ctrl-C.
static CONSOLE: std::sync::RwLock<()> = std::sync::RwLock::new(());

fn spawn(c: &mut Command) -> std::process::Child {
    let _starting = CONSOLE.read().unwrap_or_else(|e| e.into_inner());
    c.spawn().expect("starting iolens.exe")
}

fn parts(c: &mut Command) -> (i32, String, String) {
    let child = spawn(c.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()));
    let out = child.wait_with_output().expect("running iolens.exe");
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), s(&out.stdout), s(&out.stderr))
}

fn json(c: &mut Command) -> (i32, Value, String) {
    let (code, out, err) = parts(c.args(["--format", "json", "--quiet"]));
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}\n{err}"));
    (code, v, err)
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn iocp_keeps_its_queue_depth_in_flight_and_sync_one() {
    let d = dir("engines");
    let file = d.join("IO.dat");
    let (code, v, err) = json(iolens(&d).args(["run", "--qd", "32", "--duration", "3", "--size", "64M"]).arg(&file));
    assert_eq!(code, 0, "{err}");
    let t = &v["tests"][0];
    let (qd, iops) = (f(&t["mean_qd"]), f(&t["total"]["iops"]));
    eprintln!("iocp: mean queue depth {qd:.1} of 32, {iops:.0} IOPS");
    assert_eq!((t["engine"].as_str(), t["depth"].as_u64()), (Some("iocp"), Some(32)));
    // The worker's own count of I/Os issued and not yet reaped, over time: each completion taken
    // from the port has its slot issued again before the next is taken, so all 32 stay in
    // flight (taking every completion that is ready first kept fewer).
    assert!((0.98 * 32.0..=32.01).contains(&qd) && iops > 0.0, "mean queue depth {qd}, {iops} IOPS");
    let notices = t["notices"].as_array().expect("notices");
    assert!(!notices.iter().any(|n| n.as_str().is_some_and(|n| n.contains("in flight"))), "{notices:?}");
    assert!(!file.exists(), "the test file is removed");
    let (code, v, err) =
        json(iolens(&d).args(["run", "--engine", "sync", "--qd", "32", "--duration", "1", "--size", "64M"]).arg(&file));
    assert_eq!(code, 0, "{err}");
    let t = &v["tests"][0];
    assert_eq!((t["engine"].as_str(), t["depth"].as_u64()), (Some("sync"), Some(1)));
    assert!(f(&t["mean_qd"]) <= 1.0 && f(&t["total"]["iops"]) > 0.0, "{}", t["mean_qd"]);
    assert!(t["notices"][0].as_str().unwrap().starts_with("sync runs one I/O at a time"), "{}", t["notices"]);
    // Linux's engine is named, and iocp runs in its place.
    let (code, v, err) =
        json(iolens(&d).args(["run", "--engine", "io_uring", "--duration", "0.5", "--size", "16M"]).arg(&file));
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["tests"][0]["engine"], "iocp");
    assert_eq!(v["tests"][0]["notices"][0], "io_uring does not exist on Windows; using iocp");
}

#[test]
fn a_field_notes_diskspd_line_runs_as_typed() {
    let d = dir("diskspd");
    let line = ["-t2", "-o32", "-b4k", "-r4k", "-w25", "-d5", "-Sh", "-D", "-L", "-c64M"];
    let file = d.join("IO.dat");
    let (code, text, err) = parts(iolens(&d).arg("diskspd").args(line).arg(&file));
    assert_eq!(code, 0, "{err}");
    for needle in ["Total IO", "Read IO", "Write IO", "thread |", "(64MiB)", "hardware write cache disabled"] {
        assert!(text.contains(needle), "missing '{needle}':\n{text}");
    }
    // One row per thread in the Total IO table: "     0 |", "     1 |".
    let total = text.split("Total IO").nth(1).unwrap().split("Read IO").next().unwrap();
    let rows = total.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).count();
    assert_eq!(rows, 2, "{total}");
    assert!(entries(&d).iter().all(|e| e.starts_with("store.db")), "{:?}", entries(&d));
    let (code, v, err) = json(iolens(&d).arg("diskspd").args(line).arg(&file));
    assert_eq!(code, 0, "{err}");
    let t = &v["tests"][0];
    // The file -c64M made, as the result describes it.
    assert_eq!(v["host"]["targets"][0]["size_bytes"].as_u64(), Some(64 << 20), "{}", v["host"]["targets"]);
    let writes = f(&t["write"]["ios"]) / f(&t["total"]["ios"]);
    eprintln!("diskspd -w25: {:.1} % writes of {} I/Os", 100.0 * writes, t["total"]["ios"]);
    assert!((writes - 0.25).abs() <= 0.02, "write share {writes}");
    assert_eq!((t["spec"]["direct"].as_bool(), t["spec"]["write_through"].as_bool()), (Some(true), Some(true)));
}

#[test]
fn unbuffered_io_with_a_misaligned_block_is_refused_before_any_file() {
    let d = dir("sector");
    let (code, out, err) = parts(iolens(&d).args(["run", "--direct", "--bs", "1000"]).arg(d.join("x.dat")));
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--bs") && err.contains("512-byte sector") && err.contains("FILE_FLAG_NO_BUFFERING"), "{err}");
    assert!(entries(&d).is_empty(), "{:?}", entries(&d));
}

#[test]
fn simdb_is_clean_and_the_page_checks_find_lost_writes() {
    let d = dir("verify");
    let args = ["--data-size", "4m", "--log-size", "1m", "--users", "2", "-d", "2", "--write-through"];
    let (code, v, err) = json(iolens(&d).arg("simdb").arg(&d).args(args));
    assert_eq!(code, 0, "{err}");
    let findings = |v: &Value| -> usize {
        v["tests"].as_array().unwrap().iter().map(|t| t["verify"]["findings"].as_array().unwrap().len()).sum()
    };
    assert_eq!(findings(&v), 0, "{v}");
    let log = v["simdb"]["files"].as_array().unwrap().iter().find(|f| f["kind"] == "log").unwrap().clone();
    assert!(f(&log["writes"]) > 0.0 && v["simdb"]["write_through"] == true, "{log}");
    // Killed mid-run (TerminateProcess), then checked from its journal.
    let killed = dir("killed");
    let mut child = iolens(&killed);
    child
        .arg("simdb")
        .arg(&killed)
        .args(["--data-size", "8m", "--log-size", "64m", "--users", "4", "--duration", "60", "--quiet"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = spawn(&mut child);
    std::thread::sleep(std::time::Duration::from_secs(4));
    assert!(child.try_wait().unwrap().is_none(), "the run ended by itself");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(entries(&killed).iter().any(|e| e == "iolens-simdb.journal"), "{:?}", entries(&killed));
    let (code, v, err) = json(iolens(&killed).arg("simdb").arg(&killed).arg("--verify-only"));
    assert_eq!(code, 0, "--verify-only after a kill: {err}");
    assert_eq!(v["simdb"]["verify_only"], true);
    assert_eq!(findings(&v), 0, "{v}");
    let file = d.join("v.dat");
    let run = ["run", "--verify", "--inject", "lost:0.01", "--rw", "randrw", "--qd", "4", "--size", "8M", "-d", "1"];
    let (code, v, err) = json(iolens(&d).args(run).arg(&file));
    let found = &v["tests"][0]["verify"];
    let stale = found["findings"].as_array().unwrap().iter().filter(|f| f["class"] == "stale").count();
    assert_eq!(code, 3, "{err}");
    assert!(stale > 0, "{stale} stale; {err}");
    // The text report names them.
    let (code, text, err) = parts(iolens(&d).args(run).arg(&file));
    assert_eq!(code, 3, "{err}");
    let named = text.lines().filter(|l| l.contains("stale")).count();
    assert!(named > 0, "{text}");
}

#[test]
fn disks_are_refused_by_name_before_any_handle() {
    let d = dir("devices");
    for target in [r"\\.\PhysicalDrive0", "#0"] {
        let (code, _, err) = parts(iolens(&d).args(["run", "--rw", "write", "-d", "1", target]));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("needs --force-device"), "{err}");
    }
    let system = std::env::var("SystemRoot").unwrap()[..1].to_string();
    let volume = format!(r"\\.\{system}:");
    let (code, _, err) = parts(iolens(&d).args(["run", "--rw", "write", "--force-device", "-d", "1", &volume]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("file system; iolens never writes to a mounted volume"), "{err}");
    let (code, _, err) = parts(iolens(&d).args(["run", "--mpi", "-d", "1"]).arg(&d));
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("error: --mpi: runs on Linux only"), "{err}");
}

#[test]
fn the_store_is_under_localappdata_and_history_lists_the_runs() {
    let d = dir("store");
    let app = d.join("AppData");
    let mut run = iolens(&d);
    run.env_remove("IOLENS_STORE").env("LOCALAPPDATA", &app);
    let (code, _, err) = parts(run.args(["run", "-d", "0.5", "--size", "16M", "--quiet"]).arg(d.join("a.dat")));
    assert_eq!(code, 0, "{err}");
    assert!(app.join(r"iolens\iolens.db").is_file(), "{err}");
    let (code, out, err) = parts(iolens(&d).env_remove("IOLENS_STORE").env("LOCALAPPDATA", &app).arg("history"));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("run  4K randread Q1T1: "), "{out}");
}

/// The stored result ids, newest first, as `history` lists them (the id leads each line).
fn ids(d: &Path) -> Vec<u64> {
    let (code, out, err) = parts(iolens(d).arg("history"));
    assert_eq!(code, 0, "{err}");
    out.lines().filter_map(|l| l.split_whitespace().next()?.parse().ok()).collect()
}

#[test]
fn every_command_runs_on_windows() {
    let d = dir("commands");
    let ok = |c: &mut Command| {
        let (code, out, err) = parts(c);
        assert_eq!(code, 0, "{c:?}: {err}");
        out
    };
    // check on the current directory's volume, as a newcomer types it.
    let html = d.join("check.html");
    let out =
        ok(iolens(&d).current_dir(&d).args(["check", "--quick", "--size", "64M", "--quiet", "--html"]).arg(&html));
    assert!(out.contains("SEQ1M Q8T1") && out.contains("RND4K"), "{out}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("<svg") && !page.contains("<script src"));
    // Left on F: for tests/html.rs, which opens it in Chromium on Linux.
    if Path::new(r"F:\").is_dir() {
        std::fs::copy(&html, r"F:\iolens-windows-check.html").unwrap();
    }
    let file = d.join("t.dat");
    let cdm = ["cdm", "--tests", "RND4K Q1T1", "--passes", "1", "--time", "0.3", "--interval", "0", "--size", "16M"];
    assert!(ok(iolens(&d).args(cdm).arg(&d)).contains("RND4K"));
    ok(iolens(&d).args(["sqlio", "--bs", "8k", "--threads", "1", "-d", "0.2", "--size", "16M", "--quiet"]).arg(&d));
    ok(iolens(&d).args(["sweep", "--qd", "1,4", "-d", "0.3", "--size", "16M", "--quiet"]).arg(&d));
    ok(iolens(&d).args(["pattern", "log", "--db", "sqlserver", "-d", "0.5", "--size", "16M", "--quiet"]).arg(&d));
    let job = d.join("t.fio");
    let text = format!(
        "[global]\nioengine=windowsaio\ndirect=1\nsize=16m\nruntime=500ms\ntime_based\nfilename={}\n\n\
         [rand-read]\nrw=randread\nbs=4k\niodepth=8\n",
        file.display().to_string().replace(':', r"\:")
    );
    std::fs::write(&job, text).unwrap();
    let (code, v, err) = json(iolens(&d).arg("fio").arg(&job));
    assert_eq!(code, 0, "{err}");
    assert_eq!((v["tests"][0]["engine"].as_str(), v["tests"][0]["depth"].as_u64()), (Some("iocp"), Some(8)));
    assert!(file.exists(), "as fio, the job's file stays (unlink=0)");
    let ids = ids(&d);
    assert!(ids.len() >= 6, "{ids:?}");
    let (a, b) = (ids[0].to_string(), ids[1].to_string());
    ok(iolens(&d).args(["explain", &a]));
    ok(iolens(&d).args(["plan", "--iops", "5000", "--mbps", "200"]));
    ok(iolens(&d).args(["compare", &a, &b]));
    for format in ["text", "json", "csv", "markdown", "html"] {
        let out = ok(iolens(&d).args(["show", &a, "--format", format]));
        assert!(!out.is_empty(), "show --format {format}");
    }
    let export = d.join("exported");
    std::fs::create_dir(&export).unwrap();
    ok(iolens(&d).args(["export", &a, &b, "--format", "html", "--dir"]).arg(&export));
    let mut want = [format!("iolens-{a}.html"), format!("iolens-{b}.html")];
    want.sort();
    assert_eq!(entries(&export), want);
}

#[test]
fn paths_as_windows_users_type_them() {
    let d = dir("paths");
    // A directory with spaces, and a long path past MAX_PATH in the \\?\ form.
    let spaced = d.join("SQL Data").join("Test File.dat");
    std::fs::create_dir(spaced.parent().unwrap()).unwrap();
    let mut long = PathBuf::from(format!(r"\\?\{}", d.display()));
    for _ in 0..3 {
        long.push("a-directory-name-of-ninety-characters-".repeat(2) + "0123456789abcd");
    }
    std::fs::create_dir_all(&long).unwrap();
    let long = long.join("IO.dat");
    assert!(long.as_os_str().len() > 260);
    for target in [&spaced, &long] {
        let (code, v, err) =
            json(iolens(&d).args(["run", "-d", "0.5", "--size", "16M", "--hint", "random"]).arg(target));
        assert_eq!(code, 0, "{}: {err}", target.display());
        assert!(f(&v["tests"][0]["total"]["ios"]) > 0.0);
        assert!(!target.exists(), "{} is left", target.display());
    }
    // DiskSpd's access hints reach the handles: -fs with a sequential read, -fr with random.
    for hint in ["-fs", "-fr"] {
        let (code, v, err) =
            json(iolens(&d).args(["diskspd", hint, "-d1", "-W0", "-c16M", "-o4", "-b64k"]).arg(&spaced));
        assert_eq!(code, 0, "{hint}: {err}");
        let want = if hint == "-fs" { "sequential" } else { "random" };
        assert_eq!(v["tests"][0]["spec"]["hint"], want, "{hint}");
    }
}

#[test]
fn ctrl_c_keeps_what_was_measured_and_removes_the_test_file() {
    use std::os::windows::process::CommandExt;
    use windows_sys::Win32::System::Console::{
        AttachConsole, FreeConsole, GenerateConsoleCtrlEvent, GetStdHandle, SetConsoleCtrlHandler, SetStdHandle,
        CTRL_C_EVENT, STD_ERROR_HANDLE, STD_OUTPUT_HANDLE,
    };
    const CREATE_NEW_CONSOLE: u32 = 0x10;
    let d = dir("interrupt");
    let (file, out) = (d.join("IO.dat"), d.join("r.json"));
    let mut child = spawn(
        iolens(&d)
            .args(["run", "--duration", "60", "--size", "32M", "--quiet", "--out"])
            .arg(&out)
            .arg(&file)
            .creation_flags(CREATE_NEW_CONSOLE),
    );
    std::thread::sleep(std::time::Duration::from_secs(4));
    // Ctrl-C goes to every process of a console: join the child's, ignore it here, send it,
    // and give the test's output its own handles back.
    // SAFETY: console calls on this process and the child's console; no memory is passed.
    let alone = CONSOLE.write().unwrap_or_else(|e| e.into_inner());
    let sent = unsafe {
        let saved = [STD_OUTPUT_HANDLE, STD_ERROR_HANDLE].map(|k| (k, GetStdHandle(k)));
        FreeConsole();
        let attached = AttachConsole(child.id()) != 0;
        SetConsoleCtrlHandler(None, 1);
        let sent = attached && GenerateConsoleCtrlEvent(CTRL_C_EVENT, 0) != 0;
        let why = std::io::Error::last_os_error();
        for (k, h) in saved {
            SetStdHandle(k, h);
        }
        sent.then_some(()).ok_or(why)
    };
    drop(alone);
    sent.expect("Ctrl-C to the child's console");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["interrupted"], true);
    assert!(f(&v["tests"][0]["total"]["ios"]) > 0.0, "{}", v["tests"][0]["total"]);
    assert!(!file.exists(), "{:?}", entries(&d));
}

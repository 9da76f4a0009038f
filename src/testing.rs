//! Prerequisites of the tests that need root, loop devices, cgroup blkio, fio, fio's examples or
//! Chromium. One file for both the unit tests (`crate::testing`) and the integration tests
//! (`tests/common` includes it by path), so both skip, fail and count the same way.
//!
//! A missing prerequisite skips the test with its reason, unless IOLENS_REQUIRE_PRIVILEGED=1:
//! then it fails naming what is missing, so a machine that checked nothing cannot show green.
//! A prerequisite that is there but fails to work (losetup erroring as root, fio exiting
//! non-zero) is never a skip: the tests panic on it themselves.

// Each side uses only part of this file (the unit tests never need root).
#![allow(dead_code)]

use std::cell::RefCell;
use std::fmt::Display;
use std::io::Write;
use std::path::PathBuf;

/// `1`: a missing prerequisite fails the test; unset or `0`: it skips the test.
pub const STRICT_VAR: &str = "IOLENS_REQUIRE_PRIVILEGED";
/// A file each privileged test appends one line to: `ran`, `skipped` or `failed`, then its name.
///
/// A file, not a marker printed to stderr: libtest keeps the output of passing tests to itself
/// unless run with --nocapture, which would change the README's test command, and interleaves
/// the output of parallel tests mid-line. One `write` of a short line to a file opened with
/// O_APPEND lands whole, whichever of the parallel tests and test binaries writes it.
pub const LOG_VAR: &str = "IOLENS_PRIVILEGED_LOG";

/// Whether IOLENS_REQUIRE_PRIVILEGED asks for every prerequisite; any value but 0 or 1 is refused,
/// so a typo cannot turn strict checking off.
pub fn strict_from_env() -> bool {
    strict(std::env::var(STRICT_VAR).ok().as_deref())
}

pub fn strict(value: Option<&str>) -> bool {
    match value {
        None | Some("" | "0") => false,
        Some("1") => true,
        Some(other) => panic!("{STRICT_VAR}: '{other}' is not 0 or 1"),
    }
}

/// The privileged part of one test: checks its prerequisites and, when the test ends, records in
/// the log whether that part ran.
pub struct Privileged {
    test: String,
    strict: bool,
    log: Option<PathBuf>,
    /// The first prerequisite found missing (lax mode only: strict mode panics on it).
    missing: RefCell<Option<String>>,
    /// A skip goes to `skips_file` for the run's summary: a real test's, not the tests of this
    /// mechanism, which skip on purpose.
    note: bool,
}

impl Privileged {
    /// Strictness and log from the environment; the test's name from its thread.
    pub fn new() -> Privileged {
        let mut p = Privileged::with(strict_from_env(), std::env::var_os(LOG_VAR).map(PathBuf::from));
        p.note = true;
        p
    }

    pub fn with(strict: bool, log: Option<PathBuf>) -> Privileged {
        Privileged { test: test_name(), strict, log, missing: RefCell::new(None), note: false }
    }

    /// The value when the prerequisite `what` is there. When it is not: in strict mode, a panic
    /// "needs WHAT: REASON"; otherwise `SKIPPED: needs WHAT: REASON` on stderr and None, and
    /// the caller returns (or leaves out the part that needed it).
    pub fn need<T, E: Display>(&self, what: &str, have: Result<T, E>) -> Option<T> {
        match have {
            Ok(v) => Some(v),
            Err(e) => {
                let msg = format!("needs {what}: {e}");
                if self.strict {
                    panic!("{msg} ({STRICT_VAR}=1)");
                }
                eprintln!("SKIPPED: {msg}");
                if self.note && self.missing.borrow().is_none() {
                    note_skip(&self.test, &msg);
                }
                self.missing.borrow_mut().get_or_insert(msg);
                None
            }
        }
    }

    /// The first prerequisite found missing, if any.
    pub fn missing(&self) -> Option<String> {
        self.missing.borrow().clone()
    }
}

impl Default for Privileged {
    fn default() -> Self {
        Privileged::new()
    }
}

impl Drop for Privileged {
    fn drop(&mut self) {
        let Some(log) = &self.log else { return };
        let line = match (std::thread::panicking(), self.missing.get_mut()) {
            (true, _) => format!("failed\t{}\n", self.test),
            (false, Some(why)) => format!("skipped\t{}\t{why}\n", self.test),
            (false, None) => format!("ran\t{}\n", self.test),
        };
        let wrote = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        // A second panic while unwinding would abort the whole test binary.
        if let Err(e) = wrote {
            if !std::thread::panicking() {
                panic!("{LOG_VAR}: cannot append to {}: {e}", log.display());
            }
        }
    }
}

/// The running test: its binary and its name ("throttle iops_cap_is_measured_within_3_percent").
pub fn test_name() -> String {
    let exe = std::env::current_exe().ok();
    let binary = exe.as_ref().and_then(|p| p.file_stem()).map_or("?".into(), |s| s.to_string_lossy());
    // libtest names each test's thread after the test; with one test thread it may run on the
    // main thread instead, where the binary name is the best we have.
    let thread = std::thread::current();
    format!("{} {}", binary.split('-').next().unwrap_or("?"), thread.name().unwrap_or("?"))
}

/// Where every skip is noted, whatever the environment says: beside the test binaries
/// (target/PROFILE/), where `tests/zz_skipped.rs`, which `cargo test` runs last, lists the skips
/// of its own run: the lines of the cargo process that is its parent too.
pub fn skips_file() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.join("skipped-tests.log"))
}

/// Notes in `skips_file` that `test` skipped and why, tagged with the cargo process running it.
pub fn note_skip(test: &str, why: &str) {
    #[cfg(unix)]
    if let Some(f) = skips_file() {
        let line = format!("{}\t{test}\t{why}\n", std::os::unix::process::parent_id());
        // One short write with O_APPEND lands whole beside the parallel tests' lines; a note
        // that cannot be written loses the summary's line, never the test.
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(f)
            .and_then(|mut f| f.write_all(line.as_bytes()));
    }
    #[cfg(not(unix))]
    let _ = (test, why);
}

/// Ok as root; otherwise who we are.
#[cfg(unix)]
pub fn root() -> Result<(), String> {
    match unsafe { libc::geteuid() } {
        0 => Ok(()),
        uid => Err(format!("running as uid {uid}")),
    }
}

/// The privileged tests use Linux's loop devices and cgroups; on Windows they never apply.
#[cfg(windows)]
pub fn root() -> Result<(), String> {
    Err("loop devices and cgroups are Linux's".into())
}

/// Ok when `program --version` runs and succeeds.
pub fn program(name: &str) -> Result<(), String> {
    match std::process::Command::new(name).arg("--version").output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!("`{name} --version` failed: {}", String::from_utf8_lossy(&o.stderr).trim())),
        Err(e) => Err(format!("cannot run `{name}`: {e}")),
    }
}

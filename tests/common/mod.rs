#![allow(dead_code)]
//! Helpers shared by the integration tests: run the binary, read its JSON, check privileges.

#[cfg(feature = "mpi")]
pub mod mpi;
#[cfg(feature = "mpi")]
pub mod netns;
pub mod throttled;

// The same prerequisite checks as the unit tests use: skip, or fail under
// IOLENS_REQUIRE_PRIVILEGED=1, and log which privileged parts ran.
#[path = "../../src/testing.rs"]
mod testing;
pub use testing::{program, root, Privileged};

use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// The binary, with results saved in a store of this test process, never the user's.
pub fn bin() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_iolens"));
    c.env("IOLENS_STORE", test_store());
    c
}

pub fn test_store() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("store-{}.db", std::process::id()))
}

/// Runs `iolens run ARGS --format json --quiet` and returns (exit code, parsed stdout, stderr).
pub fn run_json(args: &[&str]) -> (i32, Value, String) {
    let out = bin().arg("run").args(args).args(["--format", "json", "--quiet"]).output().expect("running iolens");
    let (code, stdout, stderr) = parts(&out);
    let v = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}); stderr: {stderr}"));
    (code, v, stderr)
}

pub fn parts(out: &Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn test0(v: &Value) -> &Value {
    &v["tests"][0]
}

pub fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

pub fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

/// Files left in a directory (tests check that iolens leaves none behind).
pub fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

pub fn is_root() -> bool {
    root().is_ok()
}

/// Says why a test does nothing here and returns true, so callers can `if skip(..) { return }`;
/// under IOLENS_REQUIRE_PRIVILEGED=1 it fails with that reason instead. `Privileged` does the
/// same and also logs that the privileged part ran: prefer it in new tests.
pub fn skip(reason: &str) -> bool {
    if testing::strict_from_env() {
        panic!("{reason} ({}=1)", testing::STRICT_VAR);
    }
    eprintln!("SKIPPED: {reason}");
    testing::note_skip(&testing::test_name(), reason);
    true
}

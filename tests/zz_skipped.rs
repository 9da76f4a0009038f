//! The end of `cargo test`, which runs test targets in name order: the privileged tests that
//! skipped in this run, one line each with why, and the test binaries that ran nothing here
//! and why. libtest keeps a passing test's output to itself, so without this a skip is
//! invisible. No harness (Cargo.toml): a plain program whose output cargo shows as it is.
//! Its lines never begin with libtest's "test result:", which .ci/run counts.

#[path = "../src/testing.rs"]
mod testing;

fn main() {
    skipped();
    empty_binaries();
}

/// The skips the other test binaries of this cargo run noted (`testing::note_skip`), then
/// forgotten, so the next run starts clean.
#[cfg(unix)]
fn skipped() {
    let me = std::os::unix::process::parent_id().to_string();
    let Some(file) = testing::skips_file() else { return };
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let (mine, others): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.split('\t').next() == Some(&me));
    let mut lines: Vec<(&str, &str)> = mine.iter().filter_map(|l| l.split_once('\t')?.1.split_once('\t')).collect();
    lines.sort();
    lines.dedup();
    if lines.is_empty() {
        println!("\nprivileged tests: none skipped in this run");
    } else {
        println!("\nprivileged tests skipped in this run ({}): a green run that did not check them", lines.len());
        for (test, why) in &lines {
            println!("  SKIPPED {test}: {why}");
        }
        println!("  (IOLENS_REQUIRE_PRIVILEGED=1 makes each a failure; docs/testing.md says what they need)");
    }
    let keep: String = others.iter().map(|l| format!("{l}\n")).collect();
    let _ = if keep.is_empty() { std::fs::remove_file(&file) } else { std::fs::write(&file, keep) };
}

#[cfg(not(unix))]
fn skipped() {}

/// Test files this build compiles to nothing, from their own `#![cfg(...)]` lines: the
/// multi-host ones without the `mpi` feature, the Windows ones elsewhere, the others off Windows.
fn empty_binaries() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut names: Vec<(String, &str)> = Vec::new();
    for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = e.path();
        let (Some(stem), Some("rs")) = (path.file_stem(), path.extension().and_then(|x| x.to_str())) else { continue };
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let gates: Vec<&str> = text.lines().filter(|l| l.starts_with("#![cfg(")).collect();
        let why = if gates.iter().any(|g| g.contains("feature = \"mpi\"")) && !cfg!(feature = "mpi") {
            "needs --features mpi and OpenMPI (docs/mpi.md)"
        } else if gates.iter().any(|g| g.starts_with("#![cfg(windows)]")) && !cfg!(windows) {
            "Windows only: scripts/build-windows test runs it under wine"
        } else if gates.iter().any(|g| g.contains("unix")) && !cfg!(unix) {
            "Unix only"
        } else if gates.iter().any(|g| g.contains("target_os = \"linux\"")) && !cfg!(target_os = "linux") {
            "Linux only"
        } else {
            continue;
        };
        names.push((stem.to_string_lossy().into_owned(), why));
    }
    names.sort();
    println!("test binaries that ran no test here:");
    for (n, why) in names {
        println!("  tests/{n}.rs: {why}");
    }
    let main = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/main.rs")).unwrap_or_default();
    if !main.contains("#[test]") {
        println!("  src/main.rs (its unit tests): none; the binary only calls into the library, whose tests ran first");
    }
}

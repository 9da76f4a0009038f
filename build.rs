//! Stamps the binary with what it is: the commit it was built from, the target and the build
//! date (`iolens --version`, and every result's `build`), so that a result, or a binary handed to
//! an administrator, can be traced to its source.
//!
//! IOLENS_BUILD_COMMIT overrides the commit (a build from a source archive, where there is no
//! git); SOURCE_DATE_EPOCH fixes the date (reproducible builds), else it is the day of the build.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

fn main() {
    println!("cargo:rerun-if-env-changed=IOLENS_BUILD_COMMIT");
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    for p in ["build.rs", "Cargo.toml", "Cargo.lock", "src", "data"] {
        println!("cargo:rerun-if-changed={p}");
    }
    let commit = match std::env::var("IOLENS_BUILD_COMMIT") {
        Ok(c) if !c.trim().is_empty() => c.trim().to_string(),
        _ => git_commit().unwrap_or_else(|| "unknown".into()),
    };
    let date = match std::env::var("SOURCE_DATE_EPOCH").ok().and_then(|s| s.trim().parse::<u64>().ok()) {
        Some(s) => UNIX_EPOCH + Duration::from_secs(s),
        None => SystemTime::now(),
    };
    // Day precision: the date a build was made, not an instant that changes every rebuild.
    let day = humantime::format_rfc3339_seconds(date).to_string()[..10].to_string();
    println!("cargo:rustc-env=IOLENS_COMMIT={commit}");
    println!("cargo:rustc-env=IOLENS_TARGET={}", std::env::var("TARGET").unwrap_or_default());
    println!("cargo:rustc-env=IOLENS_BUILD_DATE={day}");
}

/// The checked-out commit (12 hex digits), with "-dirty" when tracked files differ from it; None
/// outside a git checkout. Cargo runs this again when HEAD, the branch it names or the index
/// move (a commit, a checkout, a `git add`) and when a file the binary is built from changes,
/// so that "-dirty" comes and goes with the edits.
fn git_commit() -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").args(args).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let dir = PathBuf::from(git(&["rev-parse", "--absolute-git-dir"])?);
    for f in ["HEAD", "index"] {
        rerun_if_exists(&dir.join(f));
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        rerun_if_exists(&dir.join(branch));
        rerun_if_exists(&dir.join("packed-refs"));
    }
    let hash = git(&["rev-parse", "--short=12", "HEAD"])?;
    // --no-optional-locks: a plain `git status` rewrites the index it has just refreshed, which
    // is one of the files watched above, so every build would make the next one rebuild.
    let dirty =
        git(&["--no-optional-locks", "status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    Some(if dirty { format!("{hash}-dirty") } else { hash })
}

fn rerun_if_exists(p: &Path) {
    if p.exists() {
        println!("cargo:rerun-if-changed={}", p.display());
    }
}

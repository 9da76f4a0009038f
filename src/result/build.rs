//! Which binary made a result: its commit, target and build date (stamped by build.rs), so that a
//! comparison can say when two results came from different builds.

use serde::{Deserialize, Serialize};

/// `iolens --version`: "0.1.0 (commit 04f0e97c1a2b, x86_64-unknown-linux-musl, built 2026-11-27)".
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("IOLENS_COMMIT"),
    ", ",
    env!("IOLENS_TARGET"),
    ", built ",
    env!("IOLENS_BUILD_DATE"),
    ")"
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    /// 12 hex digits, "-dirty" when the tree had uncommitted changes, "unknown" outside git.
    pub commit: String,
    /// The Rust target triple: x86_64-unknown-linux-musl, x86_64-pc-windows-gnu …
    pub target: String,
    /// UTC, YYYY-MM-DD.
    pub date: String,
}

impl Build {
    /// This binary's.
    pub fn this() -> Build {
        Build {
            commit: env!("IOLENS_COMMIT").into(),
            target: env!("IOLENS_TARGET").into(),
            date: env!("IOLENS_BUILD_DATE").into(),
        }
    }
}

/// "0.1.0 (commit 04f0e97c1a2b, x86_64-unknown-linux-musl, built 2026-11-27)", or the version
/// alone for a result from before builds were recorded.
pub fn describe(version: &str, build: Option<&Build>) -> String {
    match build {
        Some(b) => format!("{version} (commit {}, {}, built {})", b.commit, b.target, b.date),
        None => version.to_string(),
    }
}

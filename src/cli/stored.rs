//! The store options every measuring command shares (`--label`, `--tag`, `--store`,
//! `--no-store`), checked into the `session::StoreOpts` the result is saved with.

use crate::error::{usage, UsageError};
use crate::session::StoreOpts;
use crate::store;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone, Default)]
pub struct StoreArgs {
    /// A name for this result in the store and in comparisons: "Azure-2 4xP30 RAID0"
    #[arg(long, value_name = "TEXT")]
    pub label: Option<String>,
    /// A key=value tag on the result (repeatable): --tag cache=none --tag vm=D8s_v3
    #[arg(long = "tag", value_name = "K=V", value_parser = super::values::tag)]
    pub tags: Vec<(String, String)>,
    /// The result store [default: $IOLENS_STORE, else ~/.local/share/iolens/iolens.db, on Windows %LOCALAPPDATA%\iolens\iolens.db]
    #[arg(long, value_name = "PATH")]
    pub store: Option<PathBuf>,
    /// Do not save the result
    #[arg(long, conflicts_with = "store")]
    pub no_store: bool,
}

impl StoreArgs {
    pub fn check(&self) -> Result<StoreOpts, UsageError> {
        let tags = self.tags.clone();
        let path = if self.no_store { None } else { Some(self.store.clone().unwrap_or_else(store::default_path)) };
        // Checked before anything is measured: a device or a directory can never hold results.
        if let Some(p) = path.as_ref().filter(|p| std::fs::metadata(p).is_ok_and(|m| !m.is_file())) {
            return usage(
                "--store",
                format!("{}: is not a regular file; name a store file, or a new one", p.display()),
            );
        }
        Ok(StoreOpts { label: self.label.clone(), tags, path })
    }
}

//! Which files are this run's: those iolens created carry a mark (an extended attribute; on
//! Windows a stream), so a kept test file may be written again; and a file another rank of an
//! `--mpi` run created moments ago (one shared file) is adopted, for file systems without
//! user attributes.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

static ADOPTED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Files this run created through another process (rank 0 of an `--mpi` run): they count as
/// iolens's own, though this process does not remove them.
pub fn adopt(paths: impl Iterator<Item = PathBuf>) {
    ADOPTED.lock().unwrap_or_else(|e| e.into_inner()).extend(paths);
}

pub(super) fn is_ours(path: &Path) -> bool {
    ADOPTED.lock().unwrap_or_else(|e| e.into_inner()).iter().any(|p| p == path) || marked(path)
}

fn marked(path: &Path) -> bool {
    super::os::marked(path)
}

pub(super) fn set(f: &File, path: &Path) {
    super::os::mark(f, path);
}

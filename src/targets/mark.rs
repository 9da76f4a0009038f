//! Which files are this run's: those iolens created carry an extended attribute, so a kept
//! test file may be written again; and a file another rank of an `--mpi` run created moments
//! ago (one shared file) is adopted, for file systems without user attributes.

use std::ffi::CString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const MARK: &str = "user.iolens";

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
    let Ok(c) = CString::new(path.as_os_str().as_encoded_bytes()) else { return false };
    let name = CString::new(MARK).unwrap();
    let mut buf = [0u8; 16];
    // SAFETY: valid C strings and a buffer of the stated length.
    unsafe { libc::getxattr(c.as_ptr(), name.as_ptr(), buf.as_mut_ptr() as *mut _, buf.len()) > 0 }
}

pub(super) fn set(f: &File) {
    use std::os::fd::AsRawFd;
    let name = CString::new(MARK).unwrap();
    // Best effort: a file system without user xattrs just means a kept file counts as foreign.
    unsafe { libc::fsetxattr(f.as_raw_fd(), name.as_ptr(), b"created".as_ptr() as *const _, 7, 0) };
}

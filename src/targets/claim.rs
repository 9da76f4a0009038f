//! The exclusive claim on a block device iolens writes to: taken once per process and shared
//! by every handle of the run.

use super::Plan;
use crate::error::UsageError;
use anyhow::Context;
use std::fs::{self, File};
use std::sync::{Arc, Mutex, Weak};

/// Exclusive claims on the block devices this process writes to, by device number.
static CLAIMS: Mutex<Vec<(u64, Weak<File>)>> = Mutex::new(Vec::new());

/// Claims a block device before writing to it: an O_EXCL open, which the kernel refuses (EBUSY)
/// while anything holds the device — a mount of any file system, LVM, md, swap — the last word
/// on "never while mounted". The claim is taken once per process and shared: every other
/// handle of this run (numjobs, fio jobs on the same device, a reopen with other flags) opens
/// beside it, since a second O_EXCL open would find the device held by ourselves.
pub(super) fn claim(plan: &Plan) -> anyhow::Result<Arc<File>> {
    // Windows has no device numbers: a disk or volume is known by its name there.
    let rdev = match fs::metadata(&plan.path) {
        Ok(meta) if !cfg!(windows) => super::os::device_number(&meta).unwrap_or(0),
        Err(e) if !cfg!(windows) => return Err(e).with_context(|| format!("opening {}", plan.path.display())),
        _ => {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            plan.path.to_string_lossy().to_lowercase().hash(&mut h);
            h.finish()
        }
    };
    let mut claims = CLAIMS.lock().unwrap_or_else(|e| e.into_inner());
    claims.retain(|(_, w)| w.strong_count() > 0);
    if let Some(held) = claims.iter().find(|(d, _)| *d == rdev).and_then(|(_, w)| w.upgrade()) {
        return Ok(held);
    }
    let file = super::os::open_exclusive(&plan.path).map_err(|e| {
        if super::os::in_use(&e) {
            anyhow::Error::new(UsageError::new(
                plan.path.display().to_string(),
                "is in use (mounted, or part of LVM, md or swap); iolens never writes to it",
            ))
        } else {
            anyhow::Error::new(e).context(format!("opening {}", plan.path.display()))
        }
    })?;
    let file = Arc::new(file);
    claims.push((rdev, Arc::downgrade(&file)));
    Ok(file)
}

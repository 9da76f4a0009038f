//! A blktrace capture names its device by number; replayed with no target, it goes to the block
//! device with that number under /dev, found as fio finds it (oslib/linux-dev-lookup.c: a walk
//! of /dev comparing each block node's st_rdev).

use crate::error::{usage, UsageError};
use crate::workload::Spec;
use std::path::PathBuf;

/// How deep under /dev the walk goes: nodes sit at most two levels down (/dev/mapper/x,
/// /dev/vg/lv); the bound only stops a bind mount of /dev inside itself.
#[cfg(unix)]
const DEPTH: usize = 6;
/// Entries looked at before giving up: a /dev holds hundreds to a few thousand.
#[cfg(unix)]
const ENTRIES: usize = 200_000;

/// The node for the replayed capture's device that `target` names, when it names one (a
/// blktrace device such as "dev 7,0", and no such file exists); an error naming the device
/// number when /dev holds no block device with it.
pub(super) fn replayed(spec: &Spec, target: &str) -> Result<Option<PathBuf>, UsageError> {
    let Some(r) = spec.replay.as_ref() else { return Ok(None) };
    let Some((major, minor)) = r.device(target).filter(|_| !std::path::Path::new(target).exists()) else {
        return Ok(None);
    };
    match node(major, minor) {
        Some(p) => Ok(Some(p)),
        None => usage(
            &r.trace,
            format!("no block device under /dev is the capture's device {major},{minor}; {}", r.name_a_target()),
        ),
    }
}

/// Breadth first, so /dev/loop0 is found before any alias deeper down, and in name order, so
/// the same machine always gives the same answer. An entry's metadata is its own (lstat): a
/// symbolic link (/dev/block/7:0, /dev/disk/by-*) is never followed, so links cannot loop.
#[cfg(unix)]
fn node(major: u32, minor: u32) -> Option<PathBuf> {
    let mut dirs = std::collections::VecDeque::from([(PathBuf::from("/dev"), 0)]);
    let mut seen = 0;
    while let Some((dir, depth)) = dirs.pop_front() {
        let Ok(list) = std::fs::read_dir(&dir) else { continue };
        let mut entries: Vec<_> = list.filter_map(Result::ok).take(ENTRIES - seen).collect();
        seen += entries.len();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let Ok(m) = e.metadata() else { continue };
            if m.is_dir() && depth < DEPTH {
                dirs.push_back((e.path(), depth + 1));
            } else if super::os::is_block_device(&m)
                && super::os::device_number(&m).map(super::os::major_minor) == Some((major, minor))
            {
                return Some(e.path());
            }
        }
        if seen >= ENTRIES {
            return None;
        }
    }
    None
}

/// Windows names disks by index (\\.\PhysicalDriveN), never by a Linux device number.
#[cfg(windows)]
fn node(_: u32, _: u32) -> Option<PathBuf> {
    None
}

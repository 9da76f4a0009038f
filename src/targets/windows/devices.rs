//! Disks (`\\.\PhysicalDrive2`, DiskSpd's `#2`) and volumes (`\\.\E:`) as targets on Windows:
//! their size, and whether writing to one would destroy a file system in use. Windows lets an
//! administrator write to a disk under a mounted volume; iolens does not.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use windows_sys::Win32::Storage::FileSystem::{GetDriveTypeW, GetLogicalDrives, GetVolumeInformationW};
use windows_sys::Win32::System::Ioctl::{DISK_EXTENT, GET_LENGTH_INFORMATION, IOCTL_DISK_GET_LENGTH_INFO};

/// winioctl.h's IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS (not in windows-sys's Ioctl module).
const IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS: u32 = 0x0056_0000;
/// GetDriveTypeW's answers for drives that are not local volumes.
const DRIVE_NO_ROOT_DIR: u32 = 1;
const DRIVE_REMOTE: u32 = 4;

fn wide(s: &str) -> Vec<u16> {
    s.encode_utf16().chain(Some(0)).collect()
}

/// The name Windows opens: DiskSpd's `#2` is `\\.\PhysicalDrive2`.
pub(in crate::targets) fn device_path(p: &Path) -> PathBuf {
    let s = p.to_string_lossy();
    match s.strip_prefix('#') {
        Some(n) => PathBuf::from(format!(r"\\.\PhysicalDrive{n}")),
        None => p.to_path_buf(),
    }
}

/// The disk number of `\\.\PhysicalDriveN`, or the drive letter of `\\.\E:`.
enum Device {
    Disk(u32),
    Volume(char),
}

fn parse(p: &Path) -> Option<Device> {
    let s = p.to_string_lossy();
    let rest = s.strip_prefix(r"\\.\")?;
    if let Some(n) = rest.get(..13).filter(|h| h.eq_ignore_ascii_case("PhysicalDrive")).and(rest.get(13..)) {
        return n.parse().ok().map(Device::Disk);
    }
    let b = rest.as_bytes();
    (b.len() == 2 && b[1] == b':' && b[0].is_ascii_alphabetic())
        .then(|| Device::Volume(b[0].to_ascii_uppercase() as char))
}

/// Why writing to this disk or volume is refused, even with --force-device: it holds a mounted
/// file system (the system volume among them), or which volumes it holds cannot be told.
pub(in crate::targets) fn write_refusal(p: &Path) -> Option<String> {
    match parse(p) {
        None => Some("is not a disk (\\\\.\\PhysicalDriveN, #N) or a volume (\\\\.\\E:)".into()),
        Some(Device::Volume(letter)) => file_system(letter)
            .map(|fs| format!("holds a mounted {fs} file system; iolens never writes to a mounted volume")),
        Some(Device::Disk(n)) => {
            for letter in local_volumes() {
                match disks_of(letter) {
                    Ok(disks) if disks.contains(&n) => {
                        return Some(format!(
                            "holds volume {letter}: (mounted); iolens never writes to a disk with a mounted file system"
                        ));
                    }
                    Ok(_) => {}
                    Err(e) => {
                        return Some(format!(
                            "cannot tell whether volume {letter}: is on it ({e}); iolens writes only to a disk it knows to be unused"
                        ))
                    }
                }
            }
            None
        }
    }
}

/// The file system a volume has mounted ("NTFS", "ReFS"); None for a raw volume.
fn file_system(letter: char) -> Option<String> {
    let root = wide(&format!(r"{letter}:\"));
    let mut name = [0u16; 64];
    // SAFETY: a NUL-terminated root; only the file system name is asked for, into a sized buffer.
    let ok = unsafe {
        GetVolumeInformationW(
            root.as_ptr(),
            std::ptr::null_mut(),
            0,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            name.as_mut_ptr(),
            name.len() as u32,
        )
    };
    let len = name.iter().position(|&c| c == 0).unwrap_or(0);
    (ok != 0).then(|| String::from_utf16_lossy(&name[..len]))
}

/// Drive letters of local volumes (not network shares, not unused letters).
fn local_volumes() -> Vec<char> {
    // SAFETY: no arguments; a bit mask of the letters in use.
    let mask = unsafe { GetLogicalDrives() };
    (0..26u8)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| (b'A' + i) as char)
        .filter(|l| {
            let root = wide(&format!(r"{l}:\"));
            // SAFETY: a NUL-terminated root path.
            !matches!(unsafe { GetDriveTypeW(root.as_ptr()) }, DRIVE_REMOTE | DRIVE_NO_ROOT_DIR)
        })
        .collect()
}

/// Opens a device for queries only (no read or write access, which needs no privileges).
fn query_handle(path: &str) -> io::Result<File> {
    use std::os::windows::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().access_mode(0).open(path)
}

/// The disks a volume lies on (more than one for a spanned or striped volume).
fn disks_of(letter: char) -> io::Result<Vec<u32>> {
    let f = query_handle(&format!(r"\\.\{letter}:"))?;
    // Room for 32 extents after the count; a volume on more disks than that is not one iolens
    // will judge.
    let mut buf = [0u64; 1 + 32 * 3];
    // SAFETY: the u64 array viewed as the bytes the IOCTL fills.
    let bytes = unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(&buf)) };
    super::facts::ioctl(&f, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, &[], bytes)?;
    let count = (buf[0] as u32) as usize;
    // SAFETY: VOLUME_DISK_EXTENTS is a u32 count, padding, then DISK_EXTENTs (8-aligned).
    let extents = unsafe { std::slice::from_raw_parts(buf.as_ptr().add(1) as *const DISK_EXTENT, count.min(32)) };
    Ok(extents.iter().map(|e| e.DiskNumber).collect())
}

/// The size of a disk or volume in bytes.
pub(in crate::targets) fn device_size(p: &Path) -> io::Result<u64> {
    let f = File::open(p)?;
    let mut out = [0u8; std::mem::size_of::<GET_LENGTH_INFORMATION>()];
    super::facts::ioctl(&f, IOCTL_DISK_GET_LENGTH_INFO, &[], &mut out)?;
    Ok(i64::from_ne_bytes(out) as u64)
}

#[cfg(test)]
mod tests;

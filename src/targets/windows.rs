//! The targets' platform calls on Windows: cache flags as DiskSpd sets them
//! (FILE_FLAG_NO_BUFFERING, FILE_FLAG_WRITE_THROUGH), free space, positional I/O, an exclusive
//! open, and the alternate data stream that marks files iolens created; disks and volumes in
//! `devices`.

mod caches;
mod facts;

use crate::result::host::{Host, TargetInfo};
use crate::workload::AccessHint;
use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::windows::ffi::OsStrExt;
use std::os::windows::fs::{FileExt, OpenOptionsExt};
use std::os::windows::io::AsRawHandle;
use std::path::Path;
use windows_sys::Win32::Foundation::{ERROR_INVALID_PARAMETER, ERROR_SHARING_VIOLATION};
use windows_sys::Win32::Storage::FileSystem::{
    FileStandardInfo, GetDiskFreeSpaceExW, GetFileInformationByHandleEx, GetVolumePathNameW, FILE_FLAG_NO_BUFFERING,
    FILE_FLAG_RANDOM_ACCESS, FILE_FLAG_SEQUENTIAL_SCAN, FILE_FLAG_WRITE_THROUGH, FILE_STANDARD_INFO,
};

mod devices;
pub(super) use devices::{device_path, device_size, write_refusal};

/// What the null engine's workers hold instead of a target.
pub(super) fn null_handle() -> std::io::Result<File> {
    File::open("NUL")
}

/// The stream that marks a file iolens created (`F:\IO.dat:iolens`).
const MARK: &str = ":iolens";

fn wide(p: &Path) -> Vec<u16> {
    p.as_os_str().encode_wide().chain(Some(0)).collect()
}

/// Block devices are not files std can describe on Windows; disks and volumes go by name.
pub(super) fn is_block_device(_: &Metadata) -> bool {
    false
}

pub(super) fn is_char_device(_: &Metadata) -> bool {
    false
}

/// A disk or volume named as Windows names them: `\\.\PhysicalDrive2`, `\\.\E:`, or DiskSpd's `#2`.
pub(super) fn is_device_name(p: &Path) -> bool {
    let s = p.to_string_lossy();
    s.starts_with(r"\\.\") || (s.starts_with('#') && s.len() > 1 && s[1..].bytes().all(|b| b.is_ascii_digit()))
}

/// No device numbers on Windows: the facts that sysfs gives on Linux come from the volume.
pub(super) fn device_number(_: &Metadata) -> Option<u64> {
    None
}

/// Whether two existing paths are one file; None where either does not exist.
pub(super) fn same_file(a: &Path, b: &Path) -> Option<bool> {
    Some(std::fs::canonicalize(a).ok()? == std::fs::canonicalize(b).ok()?)
}

/// Opens unbuffered (`direct`) and with each write on stable storage before it completes
/// (`write_through`), as DiskSpd's -Su, -Sw and -Sh do.
/// The access hint is DiskSpd's -fr (FILE_FLAG_RANDOM_ACCESS) or -fs (FILE_FLAG_SEQUENTIAL_SCAN).
pub(super) fn cache_flags(o: &mut OpenOptions, direct: bool, write_through: bool, hint: AccessHint) {
    let mut flags = match hint {
        AccessHint::None => 0,
        AccessHint::Random => FILE_FLAG_RANDOM_ACCESS,
        AccessHint::Sequential => FILE_FLAG_SEQUENTIAL_SCAN,
    };
    if direct {
        flags |= FILE_FLAG_NO_BUFFERING;
    }
    if write_through {
        flags |= FILE_FLAG_WRITE_THROUGH;
    }
    o.custom_flags(flags);
}

/// The hint went with the handle's flags (`cache_flags`).
pub(super) fn advise(_: &File, _: AccessHint) {}

/// The file system refused unbuffered I/O.
pub(super) fn direct_refused(e: &io::Error) -> bool {
    e.raw_os_error() == Some(ERROR_INVALID_PARAMETER as i32)
}

/// The root of the volume `p` is on (`F:\`), NUL-terminated.
fn volume_root(p: &Path) -> io::Result<[u16; 1024]> {
    let path = wide(p);
    let mut root = [0u16; 1024];
    // SAFETY: a NUL-terminated path and a buffer of the stated length.
    if unsafe { GetVolumePathNameW(path.as_ptr(), root.as_mut_ptr(), root.len() as u32) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(root)
}

/// The sector unbuffered I/O must align to (see `facts::sector_size`).
pub(super) fn sector_size(p: &Path) -> Option<u64> {
    facts::sector_size(p)
}

/// The volume `dir` is on (a hash of its root, `F:\`) and the bytes this user may still write
/// there.
pub(super) fn free_space(dir: &Path) -> io::Result<(u64, u64)> {
    let root = volume_root(dir)?;
    let mut free = 0u64;
    // SAFETY: a NUL-terminated path; the other counts are optional.
    if unsafe { GetDiskFreeSpaceExW(root.as_ptr(), &mut free, std::ptr::null_mut(), std::ptr::null_mut()) } == 0 {
        return Err(io::Error::last_os_error());
    }
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    root.iter().take_while(|&&c| c != 0).for_each(|c| c.hash(&mut h));
    Ok((h.finish(), free))
}

/// Sets a new file's length at once, so a full volume fails now rather than halfway through
/// filling it.
pub(super) fn reserve(f: &File, len: u64) -> io::Result<()> {
    f.set_len(len)
}

/// Windows has no call that drops one file's pages from the cache: a test that must not read
/// from it runs unbuffered (`--direct`).
pub(super) fn drop_cached(_: &File, _: u64, _: u64) {}

pub(super) fn read_at(f: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    f.seek_read(buf, at)
}

pub(super) fn write_all_at(f: &File, mut buf: &[u8], mut at: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match f.seek_write(buf, at) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => {
                buf = &buf[n..];
                at += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The bytes a file has allocated on its volume (less than its length where it is sparse).
pub(super) fn allocated(f: &File) -> io::Result<u64> {
    let mut info: FILE_STANDARD_INFO = unsafe { std::mem::zeroed() };
    // SAFETY: an open handle and a buffer of the class's size.
    let ok = unsafe {
        GetFileInformationByHandleEx(
            f.as_raw_handle(),
            FileStandardInfo,
            &mut info as *mut _ as *mut _,
            std::mem::size_of::<FILE_STANDARD_INFO>() as u32,
        )
    };
    if ok == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(info.AllocationSize as u64)
}

/// An open that shares the file with nobody, refused while anything else holds it.
pub(super) fn open_exclusive(path: &Path) -> io::Result<File> {
    OpenOptions::new().read(true).share_mode(0).open(path)
}

/// The file is held by something else (`open_exclusive` refused).
pub(super) fn in_use(e: &io::Error) -> bool {
    e.raw_os_error() == Some(ERROR_SHARING_VIOLATION as i32)
}

fn mark_stream(path: &Path) -> std::path::PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(MARK);
    s.into()
}

/// Whether iolens marked the file as one it created.
pub(super) fn marked(path: &Path) -> bool {
    std::fs::metadata(mark_stream(path)).is_ok()
}

/// Marks a file iolens created (best effort: a file system without streams, such as FAT, just
/// means a kept file counts as foreign).
pub(super) fn mark(_: &File, path: &Path) {
    let _ = std::fs::write(mark_stream(path), b"created");
}

/// On NTFS the stream goes with the file; where streams are emulated as files of their own
/// (wine on a Unix file system), it must be removed by name.
pub(super) fn unmark(path: &Path) {
    let _ = std::fs::remove_file(mark_stream(path));
}

/// The machine's facts as Windows keeps them (`facts`).
pub(super) fn host(targets: Vec<TargetInfo>) -> Host {
    facts::host(targets)
}

pub(super) fn memory_available() -> Option<u64> {
    facts::memory_available()
}

/// The volume's facts under a target (`facts`): file system, clusters, bus, model.
pub(super) fn describe_volume(t: &mut TargetInfo, path: &Path) {
    facts::describe(t, path)
}

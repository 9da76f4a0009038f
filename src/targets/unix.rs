//! The targets' platform calls on Linux and other Unixes: cache flags (O_DIRECT, O_DSYNC),
//! device types and numbers, free space, reserving and dropping a file's pages, positional I/O,
//! the exclusive claim on a block device (O_EXCL) and the extended attribute that marks files
//! iolens created.

use crate::workload::AccessHint;
use std::ffi::CString;
use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileExt, FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::Path;

const MARK: &str = "user.iolens";

pub(super) fn is_block_device(m: &Metadata) -> bool {
    m.file_type().is_block_device()
}

pub(super) fn is_char_device(m: &Metadata) -> bool {
    m.file_type().is_char_device()
}

/// What the null engine's workers hold instead of a target: /dev/null or, in a root that has
/// no /dev (a bare chroot, a container's empty image), an anonymous file in memory.
pub(super) fn null_handle() -> io::Result<File> {
    File::open("/dev/null").or_else(|e| {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::FromRawFd;
            // SAFETY: a NUL-terminated name; the descriptor is new and owned by the File alone.
            let fd = unsafe { libc::memfd_create(c"iolens-null".as_ptr(), libc::MFD_CLOEXEC) };
            if fd >= 0 {
                return Ok(unsafe { File::from_raw_fd(fd) });
            }
        }
        Err(e)
    })
}

/// The device a file is on, or a block device's own number.
pub(super) fn device_number(m: &Metadata) -> Option<u64> {
    Some(if is_block_device(m) { m.rdev() } else { m.dev() })
}

/// (major, minor) of a device number.
pub(super) fn major_minor(dev: u64) -> (u32, u32) {
    (libc::major(dev), libc::minor(dev))
}

/// Whether two existing paths are one file; None where either does not exist.
pub(super) fn same_file(a: &Path, b: &Path) -> Option<bool> {
    let (x, y) = (std::fs::metadata(a).ok()?, std::fs::metadata(b).ok()?);
    Some(x.dev() == y.dev() && x.ino() == y.ino())
}

/// Opens with the page cache bypassed (`direct`) and each write on stable storage before it
/// completes (`write_through`).
pub(super) fn cache_flags(o: &mut OpenOptions, direct: bool, write_through: bool, _: AccessHint) {
    let mut flags = 0;
    if direct {
        flags |= libc::O_DIRECT;
    }
    if write_through {
        flags |= libc::O_DSYNC;
    }
    o.custom_flags(flags);
}

/// Tells the page cache how the file will be read (fio's fadvise_hint); advice only.
pub(super) fn advise(f: &File, hint: AccessHint) {
    use std::os::fd::AsRawFd;
    let advice = match hint {
        AccessHint::None => return,
        AccessHint::Random => libc::POSIX_FADV_RANDOM,
        AccessHint::Sequential => libc::POSIX_FADV_SEQUENTIAL,
    };
    // SAFETY: a plain system call on an open descriptor.
    unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, advice) };
}

/// The file system refused to bypass its cache.
pub(super) fn direct_refused(e: &io::Error) -> bool {
    e.raw_os_error() == Some(libc::EINVAL)
}

/// The device of `dir` and the bytes an unprivileged user may still write there.
pub(super) fn free_space(dir: &Path) -> io::Result<(u64, u64)> {
    let c = CString::new(dir.as_os_str().as_encoded_bytes()).map_err(io::Error::other)?;
    // SAFETY: statvfs fills the struct for a valid C string path.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut s) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok((std::fs::metadata(dir)?.dev(), s.f_bavail as u64 * s.f_frsize as u64))
}

/// Reserves a new file's blocks, so a full disk fails now rather than halfway through filling
/// it; a file system that cannot reserve is not an error.
pub(super) fn reserve(f: &File, len: u64) -> io::Result<()> {
    let r = unsafe { libc::posix_fallocate(f.as_raw_fd(), 0, len as libc::off_t) };
    if r != 0 && r != libc::EOPNOTSUPP && r != libc::EINVAL {
        return Err(io::Error::from_raw_os_error(r));
    }
    Ok(())
}

/// Drops a range of the file's pages from the page cache (len 0: to the end), so a buffered
/// test starts cold.
pub(super) fn drop_cached(f: &File, at: u64, len: u64) {
    unsafe { libc::posix_fadvise(f.as_raw_fd(), at as libc::off_t, len as libc::off_t, libc::POSIX_FADV_DONTNEED) };
}

pub(super) fn read_at(f: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    f.read_at(buf, at)
}

pub(super) fn write_all_at(f: &File, buf: &[u8], at: u64) -> io::Result<()> {
    f.write_all_at(buf, at)
}

/// The bytes a file has allocated on disk.
pub(super) fn allocated(f: &File) -> io::Result<u64> {
    Ok(f.metadata()?.blocks() * 512)
}

/// An exclusive open of a block device, which the kernel refuses (EBUSY) while anything holds
/// it: a mount of any file system, LVM, md, swap.
pub(super) fn open_exclusive(path: &Path) -> io::Result<File> {
    OpenOptions::new().read(true).custom_flags(libc::O_EXCL).open(path)
}

/// The device is held by something else (`open_exclusive` refused).
pub(super) fn in_use(e: &io::Error) -> bool {
    e.raw_os_error() == Some(libc::EBUSY)
}

/// Whether iolens marked the file as one it created.
pub(super) fn marked(path: &Path) -> bool {
    let Ok(c) = CString::new(path.as_os_str().as_encoded_bytes()) else { return false };
    let name = CString::new(MARK).unwrap();
    let mut buf = [0u8; 16];
    // SAFETY: valid C strings and a buffer of the stated length.
    unsafe { libc::getxattr(c.as_ptr(), name.as_ptr(), buf.as_mut_ptr() as *mut _, buf.len()) > 0 }
}

/// Marks a file iolens created (best effort: a file system without user attributes just means
/// a kept file counts as foreign).
pub(super) fn mark(f: &File, _path: &Path) {
    let name = CString::new(MARK).unwrap();
    unsafe { libc::fsetxattr(f.as_raw_fd(), name.as_ptr(), b"created".as_ptr() as *const _, 7, 0) };
}

/// The attribute goes with the file.
pub(super) fn unmark(_: &Path) {}

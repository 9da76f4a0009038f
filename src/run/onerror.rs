//! Which failed I/Os a worker passes over (fio's continue_on_error and ignore_error), with the
//! spec's error names turned into this platform's numbers once, before the run.

use crate::workload::OnError;

pub(super) struct ErrorPolicy {
    go_on: [bool; 2],
    errnos: [Vec<i32>; 2],
}

impl ErrorPolicy {
    pub(super) fn new(o: &OnError) -> ErrorPolicy {
        let list = |names: &[String]| -> Vec<i32> {
            if names.is_empty() {
                // fio's non-fatal errors when no ignore_error list is given.
                return vec![EIO, EILSEQ];
            }
            names.iter().filter_map(|n| n.parse::<i32>().ok().or_else(|| errno(n))).collect()
        };
        ErrorPolicy { go_on: o.go_on, errnos: [list(&o.errors[0]), list(&o.errors[1])] }
    }

    /// Whether a failure of direction `k` (0 reads, 1 writes and fsyncs) with `errno` is
    /// counted and passed over.
    #[inline]
    pub(super) fn passes(&self, k: usize, errno: i32) -> bool {
        self.go_on[k] && self.errnos[k].contains(&errno)
    }
}

/// An I/O error of the device (the default error fio passes over), as the engines report it.
#[cfg(unix)]
pub(super) const EIO: i32 = libc::EIO;
#[cfg(unix)]
const EILSEQ: i32 = libc::EILSEQ;
#[cfg(windows)]
pub(super) const EIO: i32 = windows_sys::Win32::Foundation::ERROR_IO_DEVICE as i32;
/// Bad data: what a device reports for an unreadable sector on Windows.
#[cfg(windows)]
const EILSEQ: i32 = windows_sys::Win32::Foundation::ERROR_CRC as i32;

/// On Windows the engines report Win32 errors: fio's POSIX names stand for the Win32 error a
/// Windows storage stack returns for the same failure (fio's win_to_posix_error, read backwards).
#[cfg(windows)]
fn errno(name: &str) -> Option<i32> {
    use windows_sys::Win32::Foundation as w;
    Some(match name {
        "EPERM" | "EACCES" => w::ERROR_ACCESS_DENIED,
        "ENOENT" => w::ERROR_FILE_NOT_FOUND,
        "EINTR" | "ECANCELED" => w::ERROR_OPERATION_ABORTED,
        "EIO" => w::ERROR_IO_DEVICE,
        "ENXIO" => w::ERROR_DEV_NOT_EXIST,
        "EBADF" => w::ERROR_INVALID_HANDLE,
        "EAGAIN" => w::ERROR_RETRY,
        "ENOMEM" => w::ERROR_NOT_ENOUGH_MEMORY,
        "EFAULT" => w::ERROR_NOACCESS,
        "EBUSY" => w::ERROR_BUSY,
        "EEXIST" => w::ERROR_FILE_EXISTS,
        "ENODEV" => w::ERROR_BAD_UNIT,
        "EINVAL" => w::ERROR_INVALID_PARAMETER,
        "EFBIG" => w::ERROR_FILE_TOO_LARGE,
        "ENOSPC" => w::ERROR_DISK_FULL,
        "ESPIPE" => w::ERROR_SEEK,
        "EROFS" => w::ERROR_WRITE_PROTECT,
        "EILSEQ" => w::ERROR_CRC,
        "EOPNOTSUPP" => w::ERROR_NOT_SUPPORTED,
        "ETIMEDOUT" => w::ERROR_SEM_TIMEOUT,
        "ENODATA" => w::ERROR_HANDLE_EOF,
        "EREMOTEIO" => w::ERROR_UNEXP_NET_ERR,
        "EDQUOT" => w::ERROR_DISK_QUOTA_EXCEEDED,
        "ENOMEDIUM" => w::ERROR_NOT_READY,
        "EBADMSG" => w::ERROR_INVALID_DATA,
        _ => return None,
    } as i32)
}

/// The number of an error named in `workload::shaping::ERROR_NAMES`, where this platform has it.
#[cfg(unix)]
fn errno(name: &str) -> Option<i32> {
    Some(match name {
        "EPERM" => libc::EPERM,
        "ENOENT" => libc::ENOENT,
        "EINTR" => libc::EINTR,
        "EIO" => libc::EIO,
        "ENXIO" => libc::ENXIO,
        "EBADF" => libc::EBADF,
        "EAGAIN" => libc::EAGAIN,
        "ENOMEM" => libc::ENOMEM,
        "EACCES" => libc::EACCES,
        "EFAULT" => libc::EFAULT,
        "EBUSY" => libc::EBUSY,
        "EEXIST" => libc::EEXIST,
        "ENODEV" => libc::ENODEV,
        "EINVAL" => libc::EINVAL,
        "EFBIG" => libc::EFBIG,
        "ENOSPC" => libc::ENOSPC,
        "ESPIPE" => libc::ESPIPE,
        "EROFS" => libc::EROFS,
        "EILSEQ" => libc::EILSEQ,
        "EOPNOTSUPP" => libc::EOPNOTSUPP,
        "ETIMEDOUT" => libc::ETIMEDOUT,
        "ECANCELED" => libc::ECANCELED,
        #[cfg(target_os = "linux")]
        "ENODATA" => libc::ENODATA,
        #[cfg(target_os = "linux")]
        "EREMOTEIO" => libc::EREMOTEIO,
        #[cfg(target_os = "linux")]
        "EDQUOT" => libc::EDQUOT,
        #[cfg(target_os = "linux")]
        "ENOMEDIUM" => libc::ENOMEDIUM,
        #[cfg(target_os = "linux")]
        "EBADMSG" => libc::EBADMSG,
        _ => return None,
    })
}

#[cfg(test)]
mod tests;

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
                return vec![libc::EIO, libc::EILSEQ];
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

/// The number of an error named in `workload::shaping::ERROR_NAMES`, where this platform has it.
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

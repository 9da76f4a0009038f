//! Plain synchronous file I/O for the database simulator (`simdb`): positional reads
//! and writes, scatter reads and gather writes (preadv/pwritev, the calls SQL Server's
//! ReadFileScatter and WriteFileGather map to), flushes, size changes and opening with the
//! cache flags. Its users stay portable; the platform lives here.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

#[cfg(windows)]
mod windows;

/// How a simulator file is opened.
#[derive(Debug, Clone, Copy)]
pub struct Open {
    pub create: bool,
    pub write: bool,
    /// O_DIRECT: bypass the page cache.
    pub direct: bool,
    /// O_DSYNC: a write completes once it is on stable storage.
    pub dsync: bool,
}

pub fn open(path: &Path, o: Open) -> io::Result<File> {
    let mut opts = OpenOptions::new();
    opts.read(true).write(o.write);
    if o.create {
        opts.create_new(true);
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = 0;
        if o.direct {
            flags |= libc::O_DIRECT;
        }
        if o.dsync {
            flags |= libc::O_DSYNC;
        }
        opts.custom_flags(flags);
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt;
        use windows_sys::Win32::Storage::FileSystem::{FILE_FLAG_NO_BUFFERING, FILE_FLAG_WRITE_THROUGH};
        let mut flags = windows::OPEN_FLAGS;
        if o.direct {
            flags |= FILE_FLAG_NO_BUFFERING;
        }
        if o.dsync {
            flags |= FILE_FLAG_WRITE_THROUGH;
        }
        opts.custom_flags(flags);
    }
    opts.open(path)
}

pub fn read_at(f: &File, buf: &mut [u8], off: u64) -> io::Result<usize> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_at(f, buf, off)
    }
    #[cfg(windows)]
    {
        windows::read_at(f, buf, off)
    }
}

pub fn write_at(f: &File, buf: &[u8], off: u64) -> io::Result<usize> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::write_at(f, buf, off)
    }
    #[cfg(windows)]
    {
        windows::write_at(f, buf, off)
    }
}

/// Flushes the file's data (and the metadata needed to read it back) to stable storage.
pub fn flush(f: &File) -> io::Result<()> {
    f.sync_data()
}

/// Flushes a directory, so that files created or removed in it survive a crash.
#[cfg(unix)]
pub fn flush_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// NTFS and ReFS log their metadata: a file's creation is durable with the file's own flush,
/// and a directory has no handle to flush without backup privileges.
#[cfg(windows)]
pub fn flush_dir(_: &Path) -> io::Result<()> {
    Ok(())
}

pub fn set_len(f: &File, len: u64) -> io::Result<()> {
    f.set_len(len)
}

/// Reserves `len` bytes from `off` on the medium, so later writes cannot fail for space.
pub fn allocate(f: &File, off: u64, len: u64) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: a valid descriptor; posix_fallocate returns the error number itself.
        let r = unsafe { libc::posix_fallocate(f.as_raw_fd(), off as libc::off_t, len as libc::off_t) };
        if r != 0 {
            return Err(io::Error::from_raw_os_error(r));
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        if f.metadata()?.len() < off + len {
            f.set_len(off + len)?;
        }
        Ok(())
    }
}

/// Scatter reads and gather writes of whole pages: file pages `off, off + page, …` to or from
/// the buffer slots `slots[0], slots[1], …` of `buf` (slot `k` at `k × page`). Keeps its
/// vector array, so an I/O allocates nothing.
pub struct Vectored {
    #[cfg(unix)]
    iov: Vec<libc::iovec>,
    #[cfg(windows)]
    segs: Vec<windows_sys::Win32::Storage::FileSystem::FILE_SEGMENT_ELEMENT>,
    /// Windows scatters and gathers on unbuffered handles only: false once a handle refused.
    #[cfg(windows)]
    scatter: bool,
}

impl Vectored {
    /// `max_pages`: the most pages one call moves (the vector array's size).
    pub fn new(max_pages: usize) -> Vectored {
        Vectored {
            #[cfg(unix)]
            iov: Vec::with_capacity(max_pages),
            // A segment per system page of up to 64 KiB pages, and the terminating one.
            #[cfg(windows)]
            segs: Vec::with_capacity(max_pages * 16 + 1),
            #[cfg(windows)]
            scatter: true,
        }
    }

    /// Scatters or gathers a page run in one call where Windows allows it; None where it does
    /// not (then the pages go one by one).
    #[cfg(windows)]
    fn windows_run(
        &mut self,
        f: &File,
        (base, len): (*mut u8, usize),
        page: usize,
        slots: &[u32],
        off: u64,
        write: bool,
    ) -> Option<io::Result<usize>> {
        let aligned = page.is_multiple_of(windows::SYSTEM_PAGE) && (base as usize).is_multiple_of(windows::SYSTEM_PAGE);
        if !self.scatter || !aligned {
            return None;
        }
        windows::segments(&mut self.segs, base, len, page, slots);
        let bytes = page * slots.len();
        let r = if write {
            windows::gather(f, &self.segs, bytes, off)
        } else {
            windows::scatter(f, &self.segs, bytes, off)
        };
        let invalid = windows_sys::Win32::Foundation::ERROR_INVALID_PARAMETER as i32;
        if r.as_ref().is_err_and(|e| e.raw_os_error() == Some(invalid)) {
            // A buffered handle: Windows scatters and gathers unbuffered I/O only.
            self.scatter = false;
            return None;
        }
        Some(r)
    }

    /// preadv: returns the bytes read (short at the end of the file).
    pub fn read(&mut self, f: &File, buf: &mut [u8], page: usize, slots: &[u32], off: u64) -> io::Result<usize> {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            self.fill(buf.as_mut_ptr(), buf.len(), page, slots);
            // SAFETY: every iovec points inside `buf`, which is borrowed mutably for the call.
            let n =
                unsafe { libc::preadv(f.as_raw_fd(), self.iov.as_ptr(), self.iov.len() as i32, off as libc::off_t) };
            if n < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(n as usize)
        }
        #[cfg(not(unix))]
        {
            if let Some(r) = self.windows_run(f, (buf.as_mut_ptr(), buf.len()), page, slots, off, false) {
                return r;
            }
            let mut done = 0;
            for (i, &s) in slots.iter().enumerate() {
                let s = s as usize * page;
                let n = read_at(f, &mut buf[s..s + page], off + (i * page) as u64)?;
                done += n;
                if n < page {
                    break;
                }
            }
            Ok(done)
        }
    }

    /// pwritev: returns the bytes written.
    pub fn write(&mut self, f: &File, buf: &[u8], page: usize, slots: &[u32], off: u64) -> io::Result<usize> {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            self.fill(buf.as_ptr() as *mut u8, buf.len(), page, slots);
            // SAFETY: every iovec points inside `buf`, borrowed for the call; pwritev only reads.
            let n =
                unsafe { libc::pwritev(f.as_raw_fd(), self.iov.as_ptr(), self.iov.len() as i32, off as libc::off_t) };
            if n < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(n as usize)
        }
        #[cfg(not(unix))]
        {
            // A gather only reads through its pointers.
            if let Some(r) = self.windows_run(f, (buf.as_ptr() as *mut u8, buf.len()), page, slots, off, true) {
                return r;
            }
            let mut done = 0;
            for (i, &s) in slots.iter().enumerate() {
                let s = s as usize * page;
                done += write_at(f, &buf[s..s + page], off + (i * page) as u64)?;
            }
            Ok(done)
        }
    }

    #[cfg(unix)]
    fn fill(&mut self, base: *mut u8, len: usize, page: usize, slots: &[u32]) {
        self.iov.clear();
        for &s in slots {
            let at = s as usize * page;
            assert!(at + page <= len, "slot {s} outside the buffer");
            // SAFETY: in bounds, checked above.
            self.iov.push(libc::iovec { iov_base: unsafe { base.add(at) } as *mut libc::c_void, iov_len: page });
        }
    }
}

#[cfg(test)]
mod tests;

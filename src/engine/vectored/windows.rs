//! The simulator's I/O on Windows, as SQL Server issues it: its files are opened overlapped,
//! each call waits for its own I/O on an event of its thread, and page runs go out as one
//! ReadFileScatter or WriteFileGather where Windows allows it (unbuffered handles, whole system
//! pages, which SQL Server's 8 KiB pages are).

use std::fs::File;
use std::io;
use std::os::windows::io::AsRawHandle;
use windows_sys::Win32::Foundation::{GetLastError, ERROR_HANDLE_EOF, ERROR_IO_PENDING, HANDLE};
use windows_sys::Win32::Storage::FileSystem::{
    ReadFile, ReadFileScatter, WriteFile, WriteFileGather, FILE_FLAG_OVERLAPPED, FILE_SEGMENT_ELEMENT,
};
use windows_sys::Win32::System::Threading::CreateEventW;
use windows_sys::Win32::System::IO::{GetOverlappedResult, OVERLAPPED};

/// Every simulator handle is overlapped, so that page runs can be scattered and gathered.
pub(super) const OPEN_FLAGS: u32 = FILE_FLAG_OVERLAPPED;

/// The memory page the segments of a scatter or gather must each fill (x64 Windows: 4 KiB).
pub(super) const SYSTEM_PAGE: usize = 4096;

thread_local! {
    /// One manual-reset event per thread, reused by every I/O it waits for: the handle is
    /// shared by the simulator's users, so its own signal cannot tell whose I/O finished.
    static EVENT: HANDLE = {
        // SAFETY: creates an unnamed event; it lives as long as the thread.
        unsafe { CreateEventW(std::ptr::null(), 1, 0, std::ptr::null()) }
    };
}

enum Call<'a> {
    Read(*mut u8, u32),
    Write(*const u8, u32),
    Scatter(&'a [FILE_SEGMENT_ELEMENT], u32),
    Gather(&'a [FILE_SEGMENT_ELEMENT], u32),
}

/// Issues one call and waits for it; the bytes moved (0 at the end of the file).
fn wait(f: &File, off: u64, call: Call) -> io::Result<usize> {
    let h = f.as_raw_handle() as HANDLE;
    let event = EVENT.with(|e| *e);
    if event.is_null() {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: all-zero is a valid OVERLAPPED; it lives until the I/O is waited for below.
    let mut o: OVERLAPPED = unsafe { std::mem::zeroed() };
    o.Anonymous.Anonymous.Offset = off as u32;
    o.Anonymous.Anonymous.OffsetHigh = (off >> 32) as u32;
    o.hEvent = event;
    let null = std::ptr::null();
    // SAFETY: the buffers and segments are borrowed for this call, which waits for the I/O
    // before it returns, so Windows never touches them after.
    let ok = unsafe {
        match call {
            Call::Read(p, n) => ReadFile(h, p, n, std::ptr::null_mut(), &mut o),
            Call::Write(p, n) => WriteFile(h, p, n, std::ptr::null_mut(), &mut o),
            Call::Scatter(s, n) => ReadFileScatter(h, s.as_ptr(), n, null, &mut o),
            Call::Gather(s, n) => WriteFileGather(h, s.as_ptr(), n, null, &mut o),
        }
    };
    if ok == 0 {
        // SAFETY: reads this thread's last error.
        match unsafe { GetLastError() } {
            ERROR_IO_PENDING => {}
            ERROR_HANDLE_EOF => return Ok(0),
            e => return Err(io::Error::from_raw_os_error(e as i32)),
        }
    }
    let mut n = 0u32;
    // SAFETY: the OVERLAPPED of the I/O just issued; waits for it.
    if unsafe { GetOverlappedResult(h, &o, &mut n, 1) } == 0 {
        let e = io::Error::last_os_error();
        return if e.raw_os_error() == Some(ERROR_HANDLE_EOF as i32) { Ok(0) } else { Err(e) };
    }
    Ok(n as usize)
}

pub(super) fn read_at(f: &File, buf: &mut [u8], off: u64) -> io::Result<usize> {
    wait(f, off, Call::Read(buf.as_mut_ptr(), buf.len() as u32))
}

pub(super) fn write_at(f: &File, buf: &[u8], off: u64) -> io::Result<usize> {
    wait(f, off, Call::Write(buf.as_ptr(), buf.len() as u32))
}

/// The segments of `slots` (each `page` bytes at `slot × page` in `base`), a system page each,
/// NUL-terminated as ReadFileScatter wants them.
pub(super) fn segments(segs: &mut Vec<FILE_SEGMENT_ELEMENT>, base: *mut u8, len: usize, page: usize, slots: &[u32]) {
    segs.clear();
    for &s in slots {
        let at = s as usize * page;
        assert!(at + page <= len, "slot {s} outside the buffer");
        for k in (0..page).step_by(SYSTEM_PAGE) {
            // SAFETY: in bounds, checked above.
            segs.push(FILE_SEGMENT_ELEMENT { Buffer: unsafe { base.add(at + k) }.cast() });
        }
    }
    segs.push(FILE_SEGMENT_ELEMENT { Alignment: 0 });
}

pub(super) fn scatter(f: &File, segs: &[FILE_SEGMENT_ELEMENT], bytes: usize, off: u64) -> io::Result<usize> {
    wait(f, off, Call::Scatter(segs, bytes as u32))
}

pub(super) fn gather(f: &File, segs: &[FILE_SEGMENT_ELEMENT], bytes: usize, off: u64) -> io::Result<usize> {
    wait(f, off, Call::Gather(segs, bytes as u32))
}

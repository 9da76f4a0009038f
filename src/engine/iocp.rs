//! Windows overlapped I/O on a completion port, as DiskSpd issues it: each worker reopens its
//! files with FILE_FLAG_OVERLAPPED (keeping their cache flags), owns one port, keeps its depth
//! in flight with ReadFile and WriteFile, and reaps in batches with GetQueuedCompletionStatusEx.

use super::{BufPool, Completion, Engine, EngineSetup, IoReq, OpKind};
use crate::workload::AccessHint;
use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::ptr::null_mut;
use std::time::{Duration, Instant};
use windows_sys::Win32::Foundation::{
    GetLastError, ERROR_HANDLE_EOF, ERROR_IO_PENDING, ERROR_NOT_SUPPORTED, GENERIC_READ, GENERIC_WRITE, HANDLE,
    INVALID_HANDLE_VALUE, WAIT_TIMEOUT,
};
use windows_sys::Win32::Storage::FileSystem::{
    FlushFileBuffers, ReOpenFile, ReadFile, WriteFile, FILE_FLAG_NO_BUFFERING, FILE_FLAG_OVERLAPPED,
    FILE_FLAG_RANDOM_ACCESS, FILE_FLAG_SEQUENTIAL_SCAN, FILE_FLAG_WRITE_THROUGH, FILE_SHARE_DELETE, FILE_SHARE_READ,
    FILE_SHARE_WRITE,
};
use windows_sys::Win32::System::IO::{
    CancelIoEx, CreateIoCompletionPort, GetOverlappedResult, GetQueuedCompletionStatusEx, OVERLAPPED, OVERLAPPED_ENTRY,
};

const INFINITE: u32 = u32::MAX;

pub struct IocpEngine {
    /// Overlapped handles on the setup's files, in its order.
    files: Vec<OwnedHandle>,
    port: OwnedHandle,
    /// Write buffers at 0..depth; with a read/write mix, read buffers at depth..2·depth.
    bufs: BufPool,
    /// One OVERLAPPED per slot, at addresses that never move while Windows holds them.
    ovl: Box<[OVERLAPPED]>,
    /// The file of each slot's I/O in flight, to read a failure back from its handle.
    slot_file: Box<[u32]>,
    queued: Vec<IoReq>,
    /// Completions known without the port: immediate failures, flushes and trims.
    ready: Vec<Completion>,
    entries: Vec<OVERLAPPED_ENTRY>,
    depth: u32,
    mixed: bool,
    inflight: usize,
    /// BypassIO reached the file system's filters only.
    notice: Option<String>,
}

/// The worker's own overlapped handles on the setup's files, opened as the runner opened them
/// (cache flags, access hint, access), with BypassIO enabled on each when asked; and the
/// warning to show when it bypasses the filters only.
pub(super) fn reopen(setup: &EngineSetup) -> io::Result<(Vec<OwnedHandle>, Option<String>)> {
    let mut flags = FILE_FLAG_OVERLAPPED
        | match setup.hint {
            AccessHint::None => 0,
            AccessHint::Random => FILE_FLAG_RANDOM_ACCESS,
            AccessHint::Sequential => FILE_FLAG_SEQUENTIAL_SCAN,
        };
    if setup.direct {
        flags |= FILE_FLAG_NO_BUFFERING;
    }
    if setup.write_through {
        flags |= FILE_FLAG_WRITE_THROUGH;
    }
    let access = GENERIC_READ | if setup.writes { GENERIC_WRITE } else { 0 };
    let share = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
    let mut files = Vec::with_capacity(setup.files.len());
    let mut warning = None;
    for (i, f) in setup.files.iter().enumerate() {
        // SAFETY: `f` is an open file; ReOpenFile returns a new handle or INVALID_HANDLE_VALUE.
        let h = unsafe { ReOpenFile(f.as_raw_handle() as HANDLE, access, share, flags) };
        if h == INVALID_HANDLE_VALUE {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the new handle is ours alone.
        let h = unsafe { OwnedHandle::from_raw_handle(h as _) };
        if let Some(mode) = setup.bypass {
            let path = setup.paths.get(i).map_or(std::path::Path::new(""), |p| p.as_path());
            let w = super::bypass::enable(h.as_raw_handle() as HANDLE, path, mode).map_err(io::Error::other)?;
            warning = warning.or(w);
        }
        files.push(h);
    }
    Ok((files, warning))
}

fn last_error() -> u32 {
    // SAFETY: reads the calling thread's last-error value.
    unsafe { GetLastError() }
}

/// A failed I/O as the runner counts it: the end of the file is a short (empty) transfer.
fn failed(code: u32) -> i64 {
    if code == ERROR_HANDLE_EOF {
        0
    } else {
        -(code as i64)
    }
}

impl IocpEngine {
    pub fn new(setup: &EngineSetup) -> io::Result<Self> {
        // SAFETY: creates a fresh port; the handle is owned from here on.
        let port = unsafe { CreateIoCompletionPort(INVALID_HANDLE_VALUE, null_mut(), 0, 1) };
        if port.is_null() {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a valid handle this engine alone owns.
        let port = unsafe { OwnedHandle::from_raw_handle(port as _) };
        let (files, notice) = reopen(setup)?;
        for (i, h) in files.iter().enumerate() {
            // SAFETY: both handles are valid; the key is the file's index.
            if unsafe { CreateIoCompletionPort(h.as_raw_handle() as HANDLE, port.as_raw_handle() as HANDLE, i, 0) }
                .is_null()
            {
                return Err(io::Error::last_os_error());
            }
        }
        let depth = setup.depth as usize;
        let count = depth * if setup.mixed { 2 } else { 1 };
        let bufs = BufPool::apart(count, setup.buf_size, setup.apart)?;
        Ok(IocpEngine {
            files,
            port,
            bufs,
            // SAFETY: OVERLAPPED and OVERLAPPED_ENTRY are plain C structs; all-zero is valid.
            ovl: (0..depth).map(|_| unsafe { std::mem::zeroed() }).collect(),
            slot_file: vec![0; depth].into_boxed_slice(),
            queued: Vec::with_capacity(depth),
            ready: Vec::with_capacity(2 * depth),
            entries: (0..depth).map(|_| unsafe { std::mem::zeroed() }).collect(),
            depth: setup.depth,
            mixed: setup.mixed,
            inflight: 0,
            notice,
        })
    }

    fn handle(&self, file: u32) -> HANDLE {
        self.files[file as usize].as_raw_handle() as HANDLE
    }

    fn issue(&mut self, req: IoReq) {
        let slot = req.slot as usize;
        let h = self.handle(req.file);
        let write = match req.op {
            OpKind::Read => false,
            OpKind::Write => true,
            OpKind::Flush => {
                // The flush covers the writes issued before it, as io_uring's drained fsync does.
                self.drain();
                // SAFETY: a valid handle; FlushFileBuffers waits for the data to be stable.
                let ok = unsafe { FlushFileBuffers(h) } != 0;
                self.ready.push(Completion { slot: req.slot, result: if ok { 0 } else { failed(last_error()) } });
                return;
            }
            OpKind::Trim => {
                self.ready.push(Completion { slot: req.slot, result: -(ERROR_NOT_SUPPORTED as i64) });
                return;
            }
        };
        let idx = if !write && self.mixed { slot + self.depth as usize } else { slot };
        let buf = self.bufs.ptr(idx);
        let o = &mut self.ovl[slot];
        // SAFETY: all-zero is a valid OVERLAPPED; no I/O of this slot is in flight.
        *o = unsafe { std::mem::zeroed() };
        o.Anonymous.Anonymous.Offset = req.offset as u32;
        o.Anonymous.Anonymous.OffsetHigh = (req.offset >> 32) as u32;
        self.slot_file[slot] = req.file;
        // SAFETY: the buffer and the OVERLAPPED stay alive and untouched until the completion
        // is reaped (the runner does not reuse a slot before that; Drop waits for it).
        let ok = unsafe {
            if write {
                WriteFile(h, buf, req.len, null_mut(), o)
            } else {
                ReadFile(h, buf, req.len, null_mut(), o)
            }
        } != 0;
        let code = if ok { 0 } else { last_error() };
        if ok || code == ERROR_IO_PENDING {
            // Even an I/O that completed at once posts its completion to the port.
            self.inflight += 1;
        } else {
            self.ready.push(Completion { slot: req.slot, result: failed(code) });
        }
    }

    /// Moves up to `room` completions from the port into `ready`-like output, waiting up to
    /// `ms`; returns how many.
    fn fetch(&mut self, out: &mut [Completion], ms: u32) -> io::Result<usize> {
        let room = out.len().min(self.entries.len()) as u32;
        let mut got = 0u32;
        // SAFETY: `entries` has room for `room` entries; the port is valid.
        let ok = unsafe {
            GetQueuedCompletionStatusEx(
                self.port.as_raw_handle() as HANDLE,
                self.entries.as_mut_ptr(),
                room,
                &mut got,
                ms,
                0,
            )
        } != 0;
        if !ok {
            let code = last_error();
            return if code == WAIT_TIMEOUT { Ok(0) } else { Err(io::Error::from_raw_os_error(code as i32)) };
        }
        let base = self.ovl.as_ptr() as usize;
        for (k, e) in self.entries[..got as usize].iter().enumerate() {
            let slot = (e.lpOverlapped as usize - base) / std::mem::size_of::<OVERLAPPED>();
            let o = &self.ovl[slot];
            let result = if o.Internal == 0 {
                e.dwNumberOfBytesTransferred as i64
            } else {
                let mut n = 0u32;
                let h = self.handle(self.slot_file[slot]);
                // SAFETY: the I/O is complete; this only reads its status back.
                match unsafe { GetOverlappedResult(h, o, &mut n, 0) } {
                    0 => failed(last_error()),
                    _ => n as i64,
                }
            };
            out[k] = Completion { slot: slot as u32, result };
        }
        self.inflight -= got as usize;
        Ok(got as usize)
    }

    /// Waits for every I/O in flight, keeping their completions for the next reap.
    fn drain(&mut self) {
        let mut tmp = [Completion::default(); 16];
        while self.inflight > 0 {
            match self.fetch(&mut tmp, INFINITE) {
                Ok(n) => self.ready.extend_from_slice(&tmp[..n]),
                Err(_) => break,
            }
        }
    }
}

impl Engine for IocpEngine {
    fn max_depth(&self) -> u32 {
        self.depth
    }

    fn notice(&self) -> Option<String> {
        self.notice.clone()
    }

    fn buffer(&mut self, slot: u32) -> &mut [u8] {
        self.bufs.slot(slot as usize)
    }

    fn queue(&mut self, req: IoReq) {
        self.queued.push(req);
    }

    fn submit_and_reap(&mut self, out: &mut [Completion], min: usize, timeout: Option<Duration>) -> io::Result<usize> {
        let issued = !self.queued.is_empty();
        for i in 0..self.queued.len() {
            let req = self.queued[i];
            self.issue(req);
        }
        self.queued.clear();
        // As DiskSpd: a call that issues I/O does not also poll the port (a system call per
        // I/O); what completed meanwhile is reaped by the next wait, in one batch.
        let poll = !(issued && min == 0);
        let mut n = 0;
        while n < out.len() {
            let Some(c) = self.ready.pop() else { break };
            out[n] = c;
            n += 1;
        }
        let deadline = timeout.map(|t| Instant::now() + t);
        while poll && n < out.len() && self.inflight > 0 {
            let ms = match deadline {
                _ if n >= min => 0,
                None => INFINITE,
                Some(d) => d.saturating_duration_since(Instant::now()).as_micros().div_ceil(1000) as u32,
            };
            let got = self.fetch(&mut out[n..], ms)?;
            n += got;
            if got == 0 || ms == 0 {
                break;
            }
        }
        Ok(n)
    }
}

impl Drop for IocpEngine {
    fn drop(&mut self) {
        // Normally nothing is in flight here; after an error some I/O may be. Windows may still
        // write into those buffers: cancel, wait (bounded), and leak what does not come back
        // rather than free memory under a transfer.
        if self.inflight == 0 {
            return;
        }
        for f in &self.files {
            // SAFETY: cancels this thread's and others' I/O on a valid handle.
            unsafe { CancelIoEx(f.as_raw_handle() as HANDLE, std::ptr::null()) };
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut tmp = [Completion::default(); 16];
        while self.inflight > 0 && Instant::now() < deadline {
            if self.fetch(&mut tmp, 100).is_err() {
                break;
            }
        }
        if self.inflight > 0 {
            self.bufs.leak();
            std::mem::forget(std::mem::take(&mut self.ovl));
        }
    }
}

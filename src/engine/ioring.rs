//! Windows's submission ring (IoRing, DiskSpd 2.3's `-u`): each worker reopens its files as
//! iocp does, owns one ring, builds an entry per I/O and hands what is built to the kernel in
//! one SubmitIoRing that also waits for the completions the runner asks for. Buffers are
//! registered with the ring unless the job says not (DiskSpd's `-un`).

pub mod api;

use super::{BufPool, Completion, Engine, EngineSetup, IoReq, OpKind};
use api::Api;
use std::io;
use std::os::windows::io::{AsRawHandle, OwnedHandle};
use std::time::Duration;
use windows_sys::core::HRESULT;
use windows_sys::Win32::Foundation::{ERROR_HANDLE_EOF, ERROR_NOT_SUPPORTED, ERROR_TIMEOUT, HANDLE};
use windows_sys::Win32::Storage::FileSystem::{
    FlushFileBuffers, HIORING, IORING_BUFFER_INFO, IORING_BUFFER_REF, IORING_BUFFER_REF_0, IORING_CQE,
    IORING_CREATE_FLAGS, IORING_HANDLE_REF, IORING_HANDLE_REF_0, IORING_REF_RAW, IORING_REF_REGISTERED,
    IORING_REGISTERED_BUFFER, IOSQE_FLAGS_NONE,
};
use windows_sys::Win32::System::IO::CancelIoEx;

const INFINITE: u32 = u32::MAX;
/// SubmitIoRing's "submitted, and the wait timed out": HRESULT_FROM_WIN32(ERROR_TIMEOUT).
const WAIT_TIMEOUT: HRESULT = (0x8007_0000 | ERROR_TIMEOUT) as HRESULT;
/// PopIoRingCompletion's "the completion queue is empty".
const S_FALSE: HRESULT = 1;
/// The user data of the buffer registration's own completion, apart from every slot's.
const REGISTRATION: usize = usize::MAX;

pub struct IoRingEngine {
    api: &'static Api,
    ring: HIORING,
    files: Vec<OwnedHandle>,
    /// Write buffers at 0..depth; with a read/write mix, read buffers at depth..2·depth.
    bufs: BufPool,
    registered: bool,
    depth: u32,
    mixed: bool,
    /// Entries built and not yet submitted.
    built: usize,
    /// Entries submitted whose completion has not been popped.
    inflight: usize,
    /// Completions known without the ring: failed builds, flushes and trims.
    ready: Vec<Completion>,
    /// SubmitIoRing calls since the runner last asked (DiskSpd's SubmitCount).
    submits: u64,
    notice: Option<String>,
}

/// A completion's result as the runner counts it: bytes, or a negative Win32 error (the end
/// of the file is an empty transfer).
fn result(hr: HRESULT, info: usize) -> i64 {
    match hr {
        0.. => info as i64,
        _ if (hr as u32) >> 16 == 0x8007 => match hr as u32 & 0xFFFF {
            ERROR_HANDLE_EOF => 0,
            code => -(code as i64),
        },
        _ => -(hr as u32 as i64),
    }
}

fn hr_error(call: &str, hr: HRESULT) -> io::Error {
    io::Error::other(format!("{call} failed (hresult 0x{:08x})", hr as u32))
}

impl IoRingEngine {
    pub fn new(setup: &EngineSetup) -> io::Result<Self> {
        let api = api::get().map_err(io::Error::other)?;
        Self::with_api(setup, api)
    }

    /// The engine on the given entry points (Windows's, or a test's model of them).
    pub fn with_api(setup: &EngineSetup, api: &'static Api) -> io::Result<Self> {
        let (files, notice) = super::iocp::reopen(setup)?;
        let depth = setup.depth as usize;
        let count = depth * if setup.mixed { 2 } else { 1 };
        let bufs = BufPool::apart(count, setup.buf_size, setup.apart)?;
        let sq = depth.max(1).next_power_of_two() as u32;
        let mut ring: HIORING = std::ptr::null_mut();
        let flags = IORING_CREATE_FLAGS::default();
        // SAFETY: `ring` receives the new ring's handle.
        let hr = unsafe { (api.create)(api::VERSION, flags, sq, 2 * sq, &mut ring) };
        if hr < 0 {
            return Err(hr_error("CreateIoRing", hr));
        }
        let mut e = IoRingEngine {
            api,
            ring,
            files,
            bufs,
            registered: false,
            depth: setup.depth,
            mixed: setup.mixed,
            built: 0,
            inflight: 0,
            ready: Vec::with_capacity(2 * depth),
            submits: 0,
            notice,
        };
        if setup.register {
            e.register(count)?;
        }
        Ok(e)
    }

    /// Registers every slot's buffer: the registration is an entry of its own, submitted and
    /// reaped here so that no I/O ever sees its completion.
    fn register(&mut self, count: usize) -> io::Result<()> {
        let infos: Vec<IORING_BUFFER_INFO> = (0..count)
            .map(|i| IORING_BUFFER_INFO { Address: self.bufs.ptr(i).cast(), Length: self.bufs.len() as u32 })
            .collect();
        // SAFETY: `infos` outlives the submission below, which waits for the registration.
        let hr = unsafe { (self.api.register)(self.ring, count as u32, infos.as_ptr(), REGISTRATION) };
        if hr < 0 {
            return Err(hr_error("BuildIoRingRegisterBuffers", hr));
        }
        // SAFETY: a valid ring; waits for the one entry built.
        let hr = unsafe { (self.api.submit)(self.ring, 1, INFINITE, std::ptr::null_mut()) };
        if hr < 0 {
            return Err(hr_error("SubmitIoRing", hr));
        }
        let mut cqe = IORING_CQE::default();
        // SAFETY: a valid ring and a CQE to fill.
        let hr = unsafe { (self.api.pop)(self.ring, &mut cqe) };
        if hr != 0 || cqe.UserData != REGISTRATION {
            return Err(io::Error::other("the IoRing did not complete its buffer registration"));
        }
        self.registered = cqe.ResultCode >= 0;
        if !self.registered {
            let why = format!("IoRing could not register the I/O buffers (hresult 0x{:08x})", cqe.ResultCode as u32);
            self.notice = Some(why + "; each I/O maps its pages");
        }
        Ok(())
    }

    fn build(&mut self, req: IoReq, write: bool) -> HRESULT {
        let slot = req.slot as usize;
        let idx = if !write && self.mixed { slot + self.depth as usize } else { slot };
        let h = self.files[req.file as usize].as_raw_handle() as HANDLE;
        let file = IORING_HANDLE_REF { Kind: IORING_REF_RAW, Handle: IORING_HANDLE_REF_0 { Handle: h } };
        let buf = if self.registered {
            let at = IORING_REGISTERED_BUFFER { BufferIndex: idx as u32, Offset: 0 };
            IORING_BUFFER_REF { Kind: IORING_REF_REGISTERED, Buffer: IORING_BUFFER_REF_0 { IndexAndOffset: at } }
        } else {
            IORING_BUFFER_REF {
                Kind: IORING_REF_RAW,
                Buffer: IORING_BUFFER_REF_0 { Address: self.bufs.ptr(idx).cast() },
            }
        };
        let (ring, slot, len) = (self.ring, slot, req.len);
        // SAFETY: the buffer and handle stay valid until the entry's completion is popped (the
        // runner does not reuse a slot before that; Drop waits for what is in flight).
        unsafe {
            if write {
                (self.api.write)(ring, file, buf, len, req.offset, 0, slot, IOSQE_FLAGS_NONE)
            } else {
                (self.api.read)(ring, file, buf, len, req.offset, slot, IOSQE_FLAGS_NONE)
            }
        }
    }

    /// Hands the built entries to the kernel and waits for `wait` completions, at most `ms`.
    fn submit(&mut self, wait: usize, ms: u32) -> io::Result<()> {
        let wait = wait.min(self.inflight + self.built) as u32;
        // SAFETY: a valid ring.
        let hr = unsafe { (self.api.submit)(self.ring, wait, ms, std::ptr::null_mut()) };
        if hr < 0 && hr != WAIT_TIMEOUT {
            return Err(hr_error("SubmitIoRing", hr));
        }
        self.submits += 1;
        self.inflight += self.built;
        self.built = 0;
        Ok(())
    }

    /// Pops ready completions into `out`; returns how many.
    fn pop(&mut self, out: &mut [Completion]) -> io::Result<usize> {
        let mut n = 0;
        while n < out.len() {
            let mut cqe = IORING_CQE::default();
            // SAFETY: a valid ring and a CQE to fill.
            let hr = unsafe { (self.api.pop)(self.ring, &mut cqe) };
            if hr == S_FALSE {
                break;
            }
            if hr < 0 {
                return Err(hr_error("PopIoRingCompletion", hr));
            }
            out[n] = Completion { slot: cqe.UserData as u32, result: result(cqe.ResultCode, cqe.Information) };
            self.inflight -= 1;
            n += 1;
        }
        Ok(n)
    }

    /// Waits for every I/O in flight, keeping their completions for the next reap.
    fn drain(&mut self) -> io::Result<()> {
        let mut tmp = [Completion::default(); 16];
        while self.inflight + self.built > 0 {
            self.submit(1, INFINITE)?;
            let n = self.pop(&mut tmp)?;
            self.ready.extend_from_slice(&tmp[..n]);
        }
        Ok(())
    }
}

impl Engine for IoRingEngine {
    fn max_depth(&self) -> u32 {
        self.depth
    }

    fn buffer(&mut self, slot: u32) -> &mut [u8] {
        self.bufs.slot(slot as usize)
    }

    fn queue(&mut self, req: IoReq) {
        let hr = match req.op {
            OpKind::Read => self.build(req, false),
            OpKind::Write => self.build(req, true),
            OpKind::Flush => {
                // The flush covers the writes issued before it, as io_uring's drained fsync does.
                let ok = self.drain().is_ok() && {
                    let h = self.files[req.file as usize].as_raw_handle() as HANDLE;
                    // SAFETY: a valid handle; FlushFileBuffers waits for the data to be stable.
                    unsafe { FlushFileBuffers(h) != 0 }
                };
                let result = if ok { 0 } else { -(io::Error::last_os_error().raw_os_error().unwrap_or(5) as i64) };
                self.ready.push(Completion { slot: req.slot, result });
                return;
            }
            OpKind::Trim => {
                self.ready.push(Completion { slot: req.slot, result: -(ERROR_NOT_SUPPORTED as i64) });
                return;
            }
        };
        if hr < 0 {
            self.ready.push(Completion { slot: req.slot, result: result(hr, 0) });
        } else {
            self.built += 1;
        }
    }

    fn submit_and_reap(&mut self, out: &mut [Completion], min: usize, timeout: Option<Duration>) -> io::Result<usize> {
        let mut n = 0;
        while n < out.len() {
            let Some(c) = self.ready.pop() else { break };
            out[n] = c;
            n += 1;
        }
        n += self.pop(&mut out[n..])?;
        let wait = min.saturating_sub(n);
        if self.built > 0 || (wait > 0 && self.inflight > 0) {
            let ms = match timeout {
                _ if wait == 0 => 0,
                None => INFINITE,
                Some(t) => t.as_micros().div_ceil(1000).min(INFINITE as u128 - 1) as u32,
            };
            self.submit(wait, ms)?;
            n += self.pop(&mut out[n..])?;
        }
        Ok(n)
    }

    fn notice(&self) -> Option<String> {
        self.notice.clone()
    }

    fn take_submits(&mut self) -> u64 {
        std::mem::take(&mut self.submits)
    }
}

impl Drop for IoRingEngine {
    fn drop(&mut self) {
        // CloseIoRing neither cancels nor waits: cancel what is in flight, wait for it (bounded)
        // and leak the buffers of what does not come back rather than free them under a transfer.
        if self.inflight + self.built > 0 {
            for f in &self.files {
                // SAFETY: cancels the I/O on a valid handle.
                unsafe { CancelIoEx(f.as_raw_handle() as HANDLE, std::ptr::null()) };
            }
            let deadline = std::time::Instant::now() + Duration::from_secs(10);
            let mut tmp = [Completion::default(); 16];
            while self.inflight + self.built > 0 && std::time::Instant::now() < deadline {
                if self.submit(1, 100).and_then(|_| self.pop(&mut tmp)).is_err() {
                    break;
                }
            }
            if self.inflight + self.built > 0 {
                self.bufs.leak();
            }
        }
        // SAFETY: the ring is ours and nothing uses it after this.
        unsafe { (self.api.close)(self.ring) };
    }
}

#[cfg(test)]
mod tests;

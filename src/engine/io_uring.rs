//! Linux io_uring: registered buffers and files (no per-I/O page pinning or fd lookup), and one
//! `io_uring_enter` per loop that both submits and waits for completions.

use super::{BufPool, Completion, Engine, EngineSetup, IoReq, OpKind};
use io_uring::{opcode, squeue, types, IoUring};
use std::io;
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

pub struct UringEngine {
    ring: IoUring,
    /// Write buffers at 0..depth; with a read/write mix, read buffers at depth..2·depth, so
    /// that reads never overwrite the data pattern of later writes.
    bufs: BufPool,
    fixed_bufs: bool,
    depth: u32,
    mixed: bool,
    /// Timeouts on waits need IORING_FEAT_EXT_ARG (Linux 5.11); without it waits are plain.
    ext_arg: bool,
    /// Requests the kernel holds: their buffers must outlive them.
    inflight: usize,
}

/// Can this process set up a ring at all? (Kernels may lack io_uring or disable it by sysctl.)
pub fn probe() -> io::Result<()> {
    IoUring::new(2).map(|_| ())
}

impl UringEngine {
    pub fn new(setup: &EngineSetup) -> io::Result<Self> {
        let entries = setup.depth.next_power_of_two().max(2);
        // One thread submits and reaps (SINGLE_ISSUER), and completions are run when that
        // thread asks for them (DEFER_TASKRUN) instead of by interrupting it: on a VM each such
        // interruption is an inter-processor interrupt and costs more than the I/O's own path.
        // Kernels before 6.1 lack these flags; a plain ring works everywhere.
        let ring = IoUring::builder()
            .setup_single_issuer()
            .setup_defer_taskrun()
            .setup_coop_taskrun()
            .build(entries)
            .or_else(|_| IoUring::builder().setup_coop_taskrun().build(entries))
            .or_else(|_| IoUring::builder().build(entries))?;
        let count = setup.depth as usize * if setup.mixed { 2 } else { 1 };
        let mut bufs = BufPool::apart(count, setup.buf_size, setup.apart)?;
        let len = bufs.len();
        let iovecs: Vec<libc::iovec> =
            (0..count).map(|i| libc::iovec { iov_base: bufs.ptr(i) as *mut _, iov_len: len }).collect();
        // SAFETY: the buffers stay allocated while the kernel may use them: Drop waits for every
        // request in flight, and leaks the buffers if it cannot.
        let fixed_bufs = unsafe { ring.submitter().register_buffers(&iovecs) }.is_ok();
        let fds: Vec<i32> = setup.files.iter().map(|f| f.as_raw_fd()).collect();
        ring.submitter().register_files(&fds)?;
        let ext_arg = ring.params().is_feature_ext_arg();
        Ok(UringEngine { ring, bufs, fixed_bufs, depth: setup.depth, mixed: setup.mixed, ext_arg, inflight: 0 })
    }

    fn sqe(&mut self, req: IoReq) -> squeue::Entry {
        let fd = types::Fixed(req.file);
        let idx = if req.op == OpKind::Read && self.mixed { req.slot + self.depth } else { req.slot } as usize;
        let ptr = self.bufs.ptr(idx);
        let e = match (req.op, self.fixed_bufs) {
            (OpKind::Read, true) => {
                opcode::ReadFixed::new(fd, ptr, req.len, idx as u16).offset(req.offset).ioprio(req.ioprio).build()
            }
            (OpKind::Write, true) => {
                opcode::WriteFixed::new(fd, ptr, req.len, idx as u16).offset(req.offset).ioprio(req.ioprio).build()
            }
            (OpKind::Read, false) => opcode::Read::new(fd, ptr, req.len).offset(req.offset).ioprio(req.ioprio).build(),
            (OpKind::Write, false) => {
                opcode::Write::new(fd, ptr, req.len).offset(req.offset).ioprio(req.ioprio).build()
            }
            // Drain: the fsync starts once the writes queued before it have completed, so it
            // covers them, as a synchronous fsync after N writes does.
            (OpKind::Flush, _) => opcode::Fsync::new(fd).build().flags(squeue::Flags::IO_DRAIN),
            (OpKind::Trim, _) => opcode::Fallocate::new(fd, req.len as u64)
                .offset(req.offset)
                .mode(libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE)
                .build(),
        };
        e.user_data(req.slot as u64)
    }

    fn enter(&mut self, min: usize, timeout: Option<Duration>) -> io::Result<()> {
        let pending = self.ring.submission().len();
        let res = match timeout {
            Some(t) if min > 0 && self.ext_arg => {
                let ts = types::Timespec::new().sec(t.as_secs()).nsec(t.subsec_nanos());
                let args = types::SubmitArgs::new().timespec(&ts);
                self.ring.submitter().submit_with_args(min, &args)
            }
            _ => self.ring.submitter().submit_and_wait(min),
        };
        // Whatever the call returned, the entries that left the queue are the kernel's now.
        self.inflight += pending - self.ring.submission().len();
        match res {
            // A timeout or a signal (Ctrl-C) just means fewer completions this time.
            Err(e) if !matches!(e.raw_os_error(), Some(libc::ETIME) | Some(libc::EINTR) | Some(libc::EBUSY)) => Err(e),
            _ => Ok(()),
        }
    }
}

impl Engine for UringEngine {
    fn max_depth(&self) -> u32 {
        self.depth
    }

    fn notice(&self) -> Option<String> {
        (!self.fixed_bufs).then(|| {
            "io_uring could not register the I/O buffers (memlock limit? see ulimit -l); each I/O maps its pages".into()
        })
    }

    fn buffer(&mut self, slot: u32) -> &mut [u8] {
        self.bufs.slot(slot as usize)
    }

    fn queue(&mut self, req: IoReq) {
        let sqe = self.sqe(req);
        // SAFETY: the buffer behind the entry stays alive and untouched until its completion
        // is reaped (the runner does not reuse a slot before that; Drop waits for it).
        let pushed = unsafe { self.ring.submission().push(&sqe) };
        debug_assert!(pushed.is_ok(), "submission queue sized to the depth cannot overflow");
    }

    fn submit_and_reap(&mut self, out: &mut [Completion], min: usize, timeout: Option<Duration>) -> io::Result<usize> {
        if !self.ring.submission().is_empty() || min > 0 {
            self.enter(min, timeout)?;
        }
        let mut n = 0;
        for cqe in self.ring.completion() {
            out[n] = Completion { slot: cqe.user_data() as u32, result: cqe.result() as i64 };
            n += 1;
            if n == out.len() {
                break;
            }
        }
        self.inflight -= n;
        Ok(n)
    }
}

impl Drop for UringEngine {
    fn drop(&mut self) {
        // Normally nothing is in flight here; after an error or a panic some I/O may be. The
        // kernel may still write into those buffers, so wait for them (bounded), and if they
        // do not come back, leak the buffers rather than free memory under a DMA.
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.inflight > 0 && Instant::now() < deadline {
            if self.enter(1, Some(Duration::from_millis(100))).is_err() {
                break;
            }
            let n = self.ring.completion().count();
            self.inflight = self.inflight.saturating_sub(n);
        }
        if self.inflight > 0 {
            self.bufs.leak();
        }
    }
}

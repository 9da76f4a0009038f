//! Linux io_uring: registered buffers and files (no per-I/O page pinning or fd lookup), and one
//! `io_uring_enter` per loop that both submits the batch and waits for completions.

use super::{AlignedBuf, Completion, Engine, EngineSetup, IoReq, OpKind};
use io_uring::{opcode, squeue, types, IoUring};
use std::io;
use std::os::fd::AsRawFd;
use std::time::Duration;

pub struct UringEngine {
    ring: IoUring,
    bufs: Vec<AlignedBuf>,
    fixed_bufs: bool,
    depth: u32,
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
        let mut bufs: Vec<AlignedBuf> = (0..setup.depth).map(|_| AlignedBuf::new(setup.buf_size)).collect();
        let iovecs: Vec<libc::iovec> =
            bufs.iter_mut().map(|b| libc::iovec { iov_base: b.as_mut_ptr() as *mut _, iov_len: b.len() }).collect();
        // SAFETY: the buffers live as long as the ring (both owned by self, ring dropped first
        // by field order is irrelevant: unregistering happens when the ring fd closes).
        let fixed_bufs = unsafe { ring.submitter().register_buffers(&iovecs) }.is_ok();
        let fds: Vec<i32> = setup.files.iter().map(|f| f.as_raw_fd()).collect();
        ring.submitter().register_files(&fds)?;
        Ok(UringEngine { ring, bufs, fixed_bufs, depth: setup.depth })
    }

    fn sqe(&mut self, req: IoReq) -> squeue::Entry {
        let fd = types::Fixed(req.file);
        let slot = req.slot as usize;
        let ptr = self.bufs[slot].as_mut_ptr();
        let e = match (req.op, self.fixed_bufs) {
            (OpKind::Read, true) => opcode::ReadFixed::new(fd, ptr, req.len, slot as u16).offset(req.offset).build(),
            (OpKind::Write, true) => opcode::WriteFixed::new(fd, ptr, req.len, slot as u16).offset(req.offset).build(),
            (OpKind::Read, false) => opcode::Read::new(fd, ptr, req.len).offset(req.offset).build(),
            (OpKind::Write, false) => opcode::Write::new(fd, ptr, req.len).offset(req.offset).build(),
            (OpKind::Flush, _) => opcode::Fsync::new(fd).build(),
        };
        e.user_data(req.slot as u64)
    }
}

impl Engine for UringEngine {
    fn max_depth(&self) -> u32 {
        self.depth
    }

    fn buffer(&mut self, slot: u32) -> &mut [u8] {
        self.bufs[slot as usize].as_mut_slice()
    }

    fn queue(&mut self, req: IoReq) {
        let sqe = self.sqe(req);
        // SAFETY: the buffer behind the entry stays alive and untouched until its completion
        // is reaped (the runner does not reuse a slot before that).
        let pushed = unsafe { self.ring.submission().push(&sqe) };
        debug_assert!(pushed.is_ok(), "submission queue sized to the depth cannot overflow");
    }

    fn submit_and_reap(&mut self, out: &mut [Completion], min: usize, timeout: Option<Duration>) -> io::Result<usize> {
        let queued = !self.ring.submission().is_empty();
        if queued || min > 0 {
            let res = match timeout {
                Some(t) if min > 0 => {
                    let ts = types::Timespec::new().sec(t.as_secs()).nsec(t.subsec_nanos());
                    let args = types::SubmitArgs::new().timespec(&ts);
                    self.ring.submitter().submit_with_args(min, &args)
                }
                _ => self.ring.submitter().submit_and_wait(min),
            };
            if let Err(e) = res {
                // A timeout or a signal (Ctrl-C) just means fewer completions this time.
                if !matches!(e.raw_os_error(), Some(libc::ETIME) | Some(libc::EINTR) | Some(libc::EBUSY)) {
                    return Err(e);
                }
            }
        }
        let mut n = 0;
        for cqe in self.ring.completion() {
            out[n] = Completion { slot: cqe.user_data() as u32, result: cqe.result() as i64 };
            n += 1;
            if n == out.len() {
                break;
            }
        }
        Ok(n)
    }
}

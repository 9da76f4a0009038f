//! Synchronous positional reads and writes (pread/pwrite), one I/O at a time per thread as
//! fio's psync: a queue depth above 1 has no effect, which the runner reports.

use super::{BufPool, Completion, Engine, EngineSetup, IoReq, OpKind};
use crate::workload::EngineKind;
use std::fs::File;
use std::io;
use std::time::Duration;

#[cfg(unix)]
use std::os::unix::fs::FileExt;
#[cfg(windows)]
use std::os::windows::fs::FileExt;

pub struct PsyncEngine {
    files: Vec<File>,
    /// Buffer 0 for writes (and reads); with a read/write mix, reads land in buffer 1 so that
    /// writes keep their data pattern.
    buf: BufPool,
    pending: Option<IoReq>,
}

impl PsyncEngine {
    pub fn new(setup: &EngineSetup) -> io::Result<Self> {
        let files = setup.files.iter().map(File::try_clone).collect::<io::Result<Vec<_>>>()?;
        // One region for both buffers, so that they sit apart from other workers' as asked.
        let buf = BufPool::apart(if setup.mixed { 2 } else { 1 }, setup.buf_size, setup.apart)?;
        Ok(PsyncEngine { files, buf, pending: None })
    }
}

pub(super) fn at(f: &File, buf: &mut [u8], off: u64, write: bool) -> io::Result<usize> {
    #[cfg(unix)]
    {
        if write {
            f.write_at(buf, off)
        } else {
            f.read_at(buf, off)
        }
    }
    #[cfg(windows)]
    {
        if write {
            f.seek_write(buf, off)
        } else {
            f.seek_read(buf, off)
        }
    }
}

impl Engine for PsyncEngine {
    fn depth_for(requested: u32) -> (u32, Option<String>) {
        // Each pread/pwrite blocks its thread until done: one I/O in flight per thread.
        let why = (requested > 1).then(|| {
            format!("{} runs one I/O at a time per thread; --qd {requested} acts as 1", EngineKind::Psync.name())
        });
        (1, why)
    }

    fn max_depth(&self) -> u32 {
        1
    }
    fn synchronous(&self) -> bool {
        true
    }

    fn buffer(&mut self, _slot: u32) -> &mut [u8] {
        self.buf.slot(0)
    }

    fn queue(&mut self, req: IoReq) {
        debug_assert!(self.pending.is_none(), "psync holds one I/O at a time");
        self.pending = Some(req);
    }

    fn submit_and_reap(
        &mut self,
        out: &mut [Completion],
        _min: usize,
        _timeout: Option<Duration>,
    ) -> io::Result<usize> {
        let Some(req) = self.pending.take() else { return Ok(0) };
        let f = &self.files[req.file as usize];
        let res = match req.op {
            OpKind::Flush => f.sync_all().map(|_| 0),
            OpKind::Trim => punch_hole(f, req.offset, req.len as u64).map(|_| 0),
            op => {
                let k = usize::from(op == OpKind::Read && self.buf.count() > 1);
                at(f, &mut self.buf.slot(k)[..req.len as usize], req.offset, op == OpKind::Write)
            }
        };
        let result = match res {
            Ok(n) => n as i64,
            Err(e) => -(e.raw_os_error().unwrap_or(5) as i64),
        };
        out[0] = Completion { slot: req.slot, result };
        Ok(1)
    }
}

/// Frees `len` bytes at `offset` as io_uring's fallocate does (see `OpKind::Trim`).
#[cfg(target_os = "linux")]
fn punch_hole(f: &std::fs::File, offset: u64, len: u64) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let mode = libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE;
    // SAFETY: a plain system call on an open descriptor; no memory is passed.
    match unsafe { libc::fallocate(f.as_raw_fd(), mode, offset as libc::off_t, len as libc::off_t) } {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

#[cfg(not(target_os = "linux"))]
fn punch_hole(_: &std::fs::File, _: u64, _: u64) -> io::Result<()> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "trims are implemented on Linux only"))
}

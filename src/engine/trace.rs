//! A wrapper that records every I/O an engine is given (worker, op, offset, length) and writes
//! them as CSV in chunks of 64 Ki I/Os — fio's write_iolog, and how tests check offsets.
//! Tracing costs a formatted line per I/O: it is for inspecting a workload, not for speed.

use super::{Completion, Engine, IoReq, OpKind};
use std::io::{self, Write};
use std::sync::Mutex;
use std::time::Duration;

pub struct Traced<'a, E> {
    inner: E,
    worker: u32,
    log: Vec<IoReq>,
    sink: &'a Mutex<Box<dyn Write + Send>>,
}

impl<'a, E: Engine> Traced<'a, E> {
    pub fn new(inner: E, worker: u32, sink: &'a Mutex<Box<dyn Write + Send>>) -> Self {
        Traced { inner, worker, log: Vec::with_capacity(1 << 16), sink }
    }
}

impl<E: Engine> Engine for Traced<'_, E> {
    fn max_depth(&self) -> u32 {
        self.inner.max_depth()
    }
    fn buffer(&mut self, slot: u32) -> &mut [u8] {
        self.inner.buffer(slot)
    }
    fn queue(&mut self, req: IoReq) {
        if self.log.len() == self.log.capacity() {
            // Bounded memory: hand a full chunk to the file and start over in the same Vec.
            self.flush();
        }
        self.log.push(req);
        self.inner.queue(req);
    }
    fn submit_and_reap(&mut self, out: &mut [Completion], min: usize, timeout: Option<Duration>) -> io::Result<usize> {
        self.inner.submit_and_reap(out, min, timeout)
    }
    fn notice(&self) -> Option<String> {
        self.inner.notice()
    }
    fn injected(&self) -> Option<crate::result::verify::Injected> {
        self.inner.injected()
    }
}

impl<E> Traced<'_, E> {
    fn flush(&mut self) {
        use std::fmt::Write as _;
        let mut text = String::with_capacity(self.log.len() * 24);
        for r in &self.log {
            let op = match r.op {
                OpKind::Read => "read",
                OpKind::Write => "write",
                OpKind::Flush => "fsync",
                OpKind::Trim => "trim",
            };
            let _ = writeln!(text, "{},{},{op},{},{}", self.worker, r.file, r.offset, r.len);
        }
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let _ = sink.write_all(text.as_bytes());
        let _ = sink.flush();
        self.log.clear();
    }
}

impl<E> Drop for Traced<'_, E> {
    fn drop(&mut self) {
        self.flush();
    }
}

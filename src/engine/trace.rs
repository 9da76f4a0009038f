//! A wrapper that records every I/O an engine is given and writes it out in chunks of 64 Ki
//! I/Os: as CSV (worker, file, op, offset, length) for `--trace`, and as fio's iolog version 3
//! (µs since the start, file name, action, offset, length) for fio's write_iolog.
//! Tracing costs a formatted line per I/O: it is for inspecting a workload, not for speed.

use super::{Completion, Engine, IoReq, OpKind};
use std::io::{self, Write};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// A file that workers write to in turn. A write that fails (disk full, a file system gone
/// read-only) must not cut the measurement short, so the first error is kept, later writes are
/// dropped, and the run reports it once it is over (`check`).
pub struct Sink {
    out: Mutex<Out>,
    /// The file as an error names it: "--trace x.csv", "write_bw_log: a_bw.1.log".
    what: String,
}

struct Out {
    w: Box<dyn Write + Send>,
    failed: Option<io::Error>,
}

impl Sink {
    pub fn new(what: impl Into<String>, w: Box<dyn Write + Send>) -> Sink {
        Sink { out: Mutex::new(Out { w, failed: None }), what: what.into() }
    }

    /// Writes `parts` and hands them to the file; after a failure, writes nothing more.
    pub fn write(&self, parts: &[&[u8]]) {
        let mut o = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if o.failed.is_some() {
            return;
        }
        let Out { w, failed } = &mut *o;
        let wrote = parts.iter().try_for_each(|p| w.write_all(p)).and_then(|_| w.flush());
        if let Err(e) = wrote {
            *failed = Some(e);
        }
    }

    /// Every sink checked: Ok, or each one that failed named, all in one line.
    pub fn check_all<'a>(sinks: impl IntoIterator<Item = &'a Sink>) -> Result<(), String> {
        let failed: Vec<String> = sinks.into_iter().filter_map(|s| s.check().err()).collect();
        if failed.is_empty() {
            Ok(())
        } else {
            Err(failed.join("; "))
        }
    }

    /// Everything written so far is in the file, or the first error, as one line naming it.
    pub fn check(&self) -> Result<(), String> {
        let mut o = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if o.failed.is_none() {
            if let Err(e) = o.w.flush() {
                o.failed = Some(e);
            }
        }
        match &o.failed {
            Some(e) => Err(format!("{}: not fully written: {e}", self.what)),
            None => Ok(()),
        }
    }
}

/// Where fio's iolog of one worker goes: the file, and the names of the job's files by index.
pub struct FioLog<'a> {
    pub sink: &'a Sink,
    pub names: &'a [String],
    /// The group's start, set once the workers are released.
    pub t0: &'a OnceLock<Instant>,
}

pub struct Traced<'a, E> {
    inner: E,
    worker: u32,
    /// Each I/O with the µs since the start it was queued at (0 when no iolog asks for it).
    log: Vec<(u64, IoReq)>,
    csv: Option<&'a Sink>,
    fio: Option<FioLog<'a>>,
}

impl<'a, E: Engine> Traced<'a, E> {
    pub fn new(inner: E, worker: u32, csv: Option<&'a Sink>, fio: Option<FioLog<'a>>) -> Self {
        Traced { inner, worker, log: Vec::with_capacity(1 << 16), csv, fio }
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
        let us = self.fio.as_ref().and_then(|f| f.t0.get()).map_or(0, |t| t.elapsed().as_micros() as u64);
        self.log.push((us, req));
        self.inner.queue(req);
    }
    fn submit_and_reap(&mut self, out: &mut [Completion], min: usize, timeout: Option<Duration>) -> io::Result<usize> {
        self.inner.submit_and_reap(out, min, timeout)
    }
    fn notice(&self) -> Option<String> {
        self.inner.notice()
    }
    fn take_submits(&mut self) -> u64 {
        self.inner.take_submits()
    }
    fn synchronous(&self) -> bool {
        self.inner.synchronous()
    }
    fn injected(&self) -> Option<crate::result::verify::Injected> {
        self.inner.injected()
    }
}

fn fio_name(op: OpKind) -> &'static str {
    // fio's io_ddir_name; a flush is its "sync".
    match op {
        OpKind::Read => "read",
        OpKind::Write => "write",
        OpKind::Flush => "sync",
        OpKind::Trim => "trim",
    }
}

impl<E> Traced<'_, E> {
    fn flush(&mut self) {
        use std::fmt::Write as _;
        if let Some(sink) = self.csv {
            let mut text = String::with_capacity(self.log.len() * 24);
            for (_, r) in &self.log {
                let op = if r.op == OpKind::Flush { "fsync" } else { fio_name(r.op) };
                let _ = writeln!(text, "{},{},{op},{},{}", self.worker, r.file, r.offset, r.len);
            }
            sink.write(&[text.as_bytes()]);
        }
        if let Some(f) = &self.fio {
            let mut text = String::with_capacity(self.log.len() * 40);
            for (us, r) in &self.log {
                let name = f.names.get(r.file as usize).map_or("?", String::as_str);
                // fio logs a sync with its (empty) offset and length too: its reader wants five fields.
                let (off, len) = if r.op == OpKind::Flush { (0, 0) } else { (r.offset, r.len) };
                let _ = writeln!(text, "{us} {name} {} {off} {len}", fio_name(r.op));
            }
            f.sink.write(&[text.as_bytes()]);
        }
        self.log.clear();
    }
}

impl<E> Drop for Traced<'_, E> {
    fn drop(&mut self) {
        self.flush();
    }
}

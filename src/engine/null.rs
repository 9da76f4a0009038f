//! Does no I/O: every request completes at once with its full length. What it measures is the
//! tool's own cost per I/O (offset generation, timestamps, histograms), as fio's ioengine=null.

use super::{BufPool, Completion, Engine, EngineSetup, IoReq};
use std::io;
use std::time::Duration;

pub struct NullEngine {
    bufs: BufPool,
    done: Ready,
}

/// Completions of I/Os carried out before `submit_and_reap` (here, or in it as `meta` does),
/// handed out as many at a time as the caller has room for.
pub(super) struct Ready {
    done: Vec<Completion>,
    head: usize,
}

impl Ready {
    pub(super) fn with_capacity(n: usize) -> Ready {
        Ready { done: Vec::with_capacity(n), head: 0 }
    }

    pub(super) fn push(&mut self, c: Completion) {
        self.done.push(c);
    }

    /// Moves what `out` holds room for; how many.
    pub(super) fn move_into(&mut self, out: &mut [Completion]) -> usize {
        let n = (self.done.len() - self.head).min(out.len());
        out[..n].copy_from_slice(&self.done[self.head..self.head + n]);
        self.head += n;
        if self.head == self.done.len() {
            self.done.clear();
            self.head = 0;
        }
        n
    }
}

impl NullEngine {
    pub fn new(setup: &EngineSetup) -> std::io::Result<Self> {
        Ok(NullEngine {
            bufs: BufPool::apart(setup.depth as usize, setup.buf_size, setup.apart)?,
            done: Ready::with_capacity(setup.depth as usize),
        })
    }
}

impl Engine for NullEngine {
    fn max_depth(&self) -> u32 {
        self.bufs.count() as u32
    }
    fn synchronous(&self) -> bool {
        true
    }

    fn buffer(&mut self, slot: u32) -> &mut [u8] {
        self.bufs.slot(slot as usize)
    }

    fn queue(&mut self, req: IoReq) {
        let result = if matches!(req.op, super::OpKind::Flush | super::OpKind::Trim) { 0 } else { req.len as i64 };
        self.done.push(Completion { slot: req.slot, result });
    }

    fn submit_and_reap(
        &mut self,
        out: &mut [Completion],
        _min: usize,
        _timeout: Option<Duration>,
    ) -> io::Result<usize> {
        Ok(self.done.move_into(out))
    }
}

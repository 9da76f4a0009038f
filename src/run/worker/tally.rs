//! Recording a completed I/O: its latency, bytes and second, kept out of the reap loop.

use super::{Slot, Worker};
use crate::engine::{Engine, OpKind};

impl<E: Engine> Worker<'_, E> {
    /// Records a counted, successful I/O: its latency, bytes and second.
    #[inline]
    pub(super) fn record(&mut self, op: OpKind, s: Slot, tc: u64, paced: bool) {
        let svc = tc - s.submit;
        // Unpaced, response latency equals service latency: recorded once (the result copies it).
        let resp = tc.saturating_sub(s.intended);
        if op == OpKind::Trim && self.spec.trim_write {
            // Counted as a trim, apart from the per-second rows of reads and writes.
            self.rec.trim.record(svc);
            self.rec.trim_bytes += s.len as u64;
            return;
        }
        let (r, k) = match op {
            OpKind::Read => (&mut self.rec.read, 0),
            // A trim test has no writes: its trims take their place, and the result calls
            // them trims.
            OpKind::Write | OpKind::Trim => (&mut self.rec.write, 1),
            OpKind::Flush => {
                self.rec.fsync.record(svc);
                return;
            }
        };
        r.record(svc);
        if paced {
            if k == 0 { &mut self.rec.resp_read } else { &mut self.rec.resp_write }.record(resp);
        }
        if k == 0 {
            self.rec.read_bytes += s.len as u64;
        } else {
            self.rec.write_bytes += s.len as u64;
        }
        self.cur.ios[k] += 1;
        self.cur.bytes[k] += s.len as u64;
        self.cur.hist.record(svc);
    }
}

//! Recording a completed I/O: its latency, bytes and second, kept out of the reap loop.

use super::{Slot, Worker};
use crate::engine::{Engine, OpKind};
use crate::run::iolog::Sample;
use crate::run::stages::ddir;

impl<E: Engine> Worker<'_, E> {
    /// Records a counted, successful I/O: its latency, bytes and second.
    #[inline]
    pub(super) fn record(&mut self, op: OpKind, s: Slot, tc: u64, paced: bool) {
        let svc = tc - s.submit;
        // Unpaced, response latency equals service latency: recorded once (the result copies it).
        let resp = tc.saturating_sub(s.intended);
        if self.rec.stages.is_some() || self.logs.is_some() {
            self.stages(op, &s, tc);
        }
        if op == OpKind::Trim && !self.spec.trim {
            // A trimwrite's or a replayed log's trim is counted as a trim, apart from the
            // per-second rows of reads and writes.
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
        self.cur.lat[k].record(svc);
        self.cur.hist.record(svc);
    }

    /// fio's stages of a counted I/O, for the job's stage records and logs: one set of clock
    /// reads for both, so the logs hold what the result reports.
    #[inline(never)]
    fn stages(&mut self, op: OpKind, s: &Slot, tc: u64) {
        let due = s.intended.min(s.queued);
        if let (Some(st), Some(d)) = (self.rec.stages.as_deref_mut(), ddir(op)) {
            st.record(d, s.submit.saturating_sub(s.queued), tc - s.submit, tc.saturating_sub(due), s.prio);
        }
        if let Some(l) = &mut self.logs {
            let (offset, len, ioprio) = (s.offset, s.len, s.ioprio);
            l.add(&Sample { op, offset, len, queued: s.queued, due, submitted: s.submit, completed: tc, ioprio });
        }
    }
}

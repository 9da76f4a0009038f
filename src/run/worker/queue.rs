//! Queuing an I/O: its operation and offset (an fsync when due, or what verification holds
//! back), its buffer stamped, its slot, and the batch's one submission time.

use super::{window_overlap, Slot, Worker};
use crate::engine::{Engine, IoReq, OpKind};
use crate::targets::data;
use crate::workload::DataPattern;

impl<E: Engine> Worker<'_, E> {
    /// Queues the next I/O; false when verification found every page it tried held.
    #[inline]
    pub(super) fn queue_one(&mut self, intended: u64, now: u64) -> bool {
        let slot = self.free.pop().expect("a free slot below the depth");
        let every = self.spec.fsync_every;
        let (op, offset, len) = if every > 0 && self.writes_since_sync >= every {
            self.writes_since_sync = 0;
            // An fsync is not one of the paced I/Os: give its place in the schedule back.
            self.pace.give_back();
            (OpKind::Flush, 0, 0)
        } else {
            let (file, op, offset, len) = self.gen.next_io();
            // An fsync goes to the file of the last I/O.
            self.file = file;
            (if self.spec.trim { OpKind::Trim } else { op }, offset, len)
        };
        let (op, offset, len, read_back) = match &mut self.ver {
            Some(v) if op != OpKind::Flush => {
                let buf = &mut self.engine.buffer(slot)[..len as usize];
                match v.prepare(buf, slot, op, offset, now) {
                    Some(io) => io,
                    None => {
                        self.free.push(slot);
                        return false;
                    }
                }
            }
            _ => (op, offset, len, false),
        };
        // Verification's own read-backs come on top of the workload, as fio's verify reads do
        // (io_size and number_ios count the workload alone).
        if op != OpKind::Flush && !read_back {
            self.issued += 1;
            self.issued_bytes += len as u64;
        }
        self.pace.took(len);
        if op == OpKind::Trim && self.spec.trim_write {
            self.awaiting_trim = true;
        }
        if op == OpKind::Write {
            self.writes_since_sync += 1;
            self.write_counter += 1;
            if self.spec.data != DataPattern::Zero && self.ver.is_none() {
                let buf = &mut self.engine.buffer(slot)[..len as usize];
                data::stamp(buf, &self.spec.data, offset, self.write_counter);
            }
        }
        // A paced I/O due while the worker paused counts from the pause's end.
        let intended = intended.max(self.resume_at);
        let (prio, ioprio) = self.prio.as_mut().map_or((0, 0), |p| p.next(op, len));
        self.slots[slot as usize] = Slot { submit: 0, intended, queued: now, offset, op: Some(op), len, prio, ioprio };
        self.batch.push(slot);
        self.engine.queue(IoReq { slot, file: self.file, op, offset, len, ioprio });
        true
    }

    /// Gives the queued batch its submission time (and, unpaced, its intended start).
    #[inline]
    pub(super) fn stamp_batch(&mut self, ts: u64) {
        self.rec.qd_area += window_overlap(self.last_t, ts, self.m_start, self.m_end) * self.inflight as f64;
        self.last_t = ts;
        let free_pace = self.pace.is_free();
        for &b in &self.batch {
            let c = &mut self.slots[b as usize];
            c.submit = ts;
            if free_pace {
                c.intended = ts;
            }
            if let Some(lag) = &mut self.rec.lag {
                lag.record(ts.saturating_sub(c.intended));
            }
        }
        self.inflight += self.batch.len();
        self.batch.clear();
    }
}

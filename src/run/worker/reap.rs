//! Reaping: what is queued goes to the kernel, the completions that are ready come back and
//! are recorded (or passed over as failures, as the job's error policy says).

use super::{describe_error, window_overlap, Worker};
use crate::engine::{Engine, OpKind};
use std::sync::atomic::Ordering;
use std::time::Duration;

impl<E: Engine> Worker<'_, E> {
    /// Submits what is queued, takes one completion (waiting for `min`), and records it.
    ///
    /// One, as fio takes them (iodepth_batch_complete_max defaults to 1): the loop refills
    /// that slot before it takes the next. Taking every completion that is ready and then
    /// refilling them one submission call after another leaves the k-th slot empty for k
    /// calls: at QD 32 on a VM's disk that kept 25–29 in flight. The others wait in the
    /// engine's queue, still counted in flight. `min` 0 only looks aside at what is ready.
    pub(super) fn reap(&mut self, min: usize, timeout: Option<Duration>) {
        let n = match self.engine.submit_and_reap(&mut self.comps[..1], min, timeout) {
            Ok(n) => n,
            Err(e) => {
                self.error.get_or_insert_with(|| format!("submitting I/O: {e}"));
                self.engine_failed = true;
                self.sh.abort.store(true, Ordering::Relaxed);
                return;
            }
        };
        let waited = min > 0;
        let submits = self.engine.take_submits();
        if n == 0 {
            if self.measuring(self.last_t) {
                self.rec.waits.call(waited, 0);
                self.rec.waits.submits += submits;
            }
            return;
        }
        let tc = self.clock();
        self.rec.qd_area += window_overlap(self.last_t, tc, self.m_start, self.m_end) * self.inflight as f64;
        self.last_t = tc;
        let counted = self.measuring(tc);
        if counted {
            // Seconds on the group's clock, so that a job that starts later shows idle ones.
            let sec = ((tc - self.sh.measure_start) / 1_000_000_000) as u32;
            if sec != self.cur.sec {
                self.mailbox.flush(&mut self.cur, sec);
            }
        }
        let paced = !self.pace.is_free();
        if counted {
            self.rec.waits.call(waited, n);
            self.rec.waits.submits += submits;
            // The queue was short because the rate held I/Os back, not because it was full.
            if waited && paced && self.inflight < self.depth {
                self.rec.waits.throttle_wait += 1;
            }
        }
        self.completed += n as u64;
        for i in 0..n {
            let c = self.comps[i];
            let s = self.slots[c.slot as usize];
            self.slots[c.slot as usize].op = None;
            self.free.push(c.slot);
            self.inflight -= 1;
            let op = s.op.expect("completion for a queued slot");
            let pair_trim = op == OpKind::Trim && self.spec.trim_write;
            if pair_trim {
                self.awaiting_trim = false;
            }
            let ok = if matches!(op, OpKind::Flush | OpKind::Trim) { c.result >= 0 } else { c.result == s.len as i64 };
            if let Some(v) = self.ver.as_mut().filter(|_| op != OpKind::Flush) {
                v.complete(&self.engine.buffer(c.slot)[..s.len as usize], c.slot, op, ok, tc);
                if v.fatal {
                    // verify_fatal: the run ends here, as an interruption would end it.
                    self.sh.measure_end.fetch_min(tc, Ordering::Relaxed);
                    self.sh.end.fetch_min(tc, Ordering::Relaxed);
                }
            }
            if !ok {
                // A short transfer is an I/O error to whoever issued it.
                let errno = if c.result < 0 { -c.result as i32 } else { crate::run::onerror::EIO };
                let k = usize::from(op != OpKind::Read);
                if self.policy.passes(k, errno) {
                    if counted {
                        self.rec.errors[k] += 1;
                    }
                    if self.rec.first_error.is_none() {
                        self.rec.first_error = Some(describe_error(op, c.result, s.len));
                        self.rec.first_errno = Some(errno);
                    }
                } else {
                    self.error.get_or_insert_with(|| describe_error(op, c.result, s.len));
                    self.sh.abort.store(true, Ordering::Relaxed);
                }
                continue;
            }
            if !counted {
                continue;
            }
            self.record(op, s, tc, paced);
        }
        if let (Some(t), true) = (self.io_count, counted) {
            let r = &self.rec;
            let (ios, bytes) = (r.read.count() + r.write.count() + r.trim.count(), r.read_bytes + r.write_bytes);
            t.publish(self.index, ios, bytes + r.trim_bytes);
        }
    }
}

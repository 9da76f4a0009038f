//! Verification after the workload: the backlog's last pages and, for a pure write workload,
//! every page read back (fio's do_verify), a run of pages per read.

use super::{Run, Verifier};
use crate::engine::{Completion, Engine, IoReq, OpKind};
use crate::result::verify::Verification;
use crate::stats::LatRec;
use crate::verify::mark_unread;
use std::time::Duration;

impl Verifier<'_> {
    /// After the run: reads back the pages still in the backlog and, for a pure write
    /// workload, this worker's share of every page (all slots are free by now), as many pages
    /// per read as the workload's largest block holds.
    fn finish<E: Engine>(&mut self, engine: &mut E, file: u32, comps: &mut [Completion], now: &dyn Fn() -> u64) {
        while let Some((page, gen)) = self.backlog.pop_front() {
            self.held[0] = (gen, false);
            self.read_run(engine, file, comps, Run { page, count: 1 }, now());
        }
        // With a backlog every written page was read back after its write already: no second
        // pass over them all (fio's verify_backlog empties the list do_verify reads).
        if !self.a.read_back || self.a.spec.backlog > 0 || (self.fatal && !self.v.clean()) {
            return;
        }
        let (k, of) = self.a.share;
        let n = self.pages();
        let (mut page, end) = (n * k as usize / of as usize, n * (k as usize + 1) / of as usize);
        while page < end {
            let count = self.per_run.min(end - page);
            for j in 0..count {
                // Another worker may still be finishing an I/O on this page.
                self.held[j] = loop {
                    match self.a.target.map.claim_checked(page + j) {
                        Some(c) => break c,
                        None => std::thread::yield_now(),
                    }
                };
            }
            self.read_run(engine, file, comps, Run { page, count }, now());
            if self.fatal && !self.v.clean() {
                return;
            }
            page += count;
        }
    }

    /// The worker's verification once its loop ended: pages still to read back are read when
    /// the engine is `healthy` (with `count`, also returned as reads: latencies and bytes),
    /// and the faults an injecting engine put in are added.
    pub fn wrap_up<E: Engine>(
        mut self,
        engine: &mut E,
        file: u32,
        comps: &mut [Completion],
        clock: &crate::stats::clock::RunClock,
        healthy: bool,
        count: bool,
    ) -> (Verification, Option<(LatRec, u64)>) {
        self.after = count.then(|| (LatRec::default(), 0));
        if healthy {
            self.finish(engine, file, comps, &|| clock.ns());
        }
        self.v.injected = engine.injected();
        (self.v, self.after)
    }

    /// One read of the pages slot 0 holds (`held`'s first entries), waited for, then checked.
    fn read_run<E: Engine>(&mut self, engine: &mut E, file: u32, comps: &mut [Completion], r: Run, at: u64) {
        let len = self.a.page * r.count as u32;
        mark_unread(&mut engine.buffer(0)[..len as usize], self.a.unit as usize);
        engine.queue(IoReq { slot: 0, file, op: OpKind::Read, offset: self.offset(r.page), len, ioprio: 0 });
        let started = std::time::Instant::now();
        let result = loop {
            match engine.submit_and_reap(comps, 1, Some(Duration::from_millis(100))) {
                Ok(0) => continue,
                Ok(_) => break comps[0].result,
                Err(e) => break -(e.raw_os_error().unwrap_or(5) as i64),
            }
        };
        self.runs[0] = r;
        let ok = result == len as i64;
        if let Some((lat, bytes)) = self.after.as_mut().filter(|_| ok) {
            lat.record(started.elapsed().as_nanos() as u64);
            *bytes += u64::from(len);
        }
        self.complete(&engine.buffer(0)[..len as usize], 0, OpKind::Read, ok, at);
    }
}

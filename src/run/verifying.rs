//! Verification inside a worker: claims the page of each I/O, stamps writes, checks reads
//! against the page's acknowledged generation, re-reads bad pages and records findings. The
//! clean path takes no lock (the page map is atomics) and allocates nothing; only a bad page
//! builds its finding.

use crate::engine::{self, AlignedBuf, OpKind};
use crate::result::verify::Verification;
use crate::stats::LatRec;
use crate::verify::{check_page, mark_unread, stamp_page, Bad, Expect, PageMap, Stamp};
use crate::workload::verify::VerifySpec;
use std::collections::VecDeque;
use std::fs::File;

mod after;
mod dump;
mod targets;
pub use targets::{prepare_targets, Verified};

/// What the workers of one target share: its pages' generations, and where they lie.
pub struct VerifyTarget {
    pub map: PageMap,
    pub file_id: u32,
    /// The file as given to iolens, for findings.
    pub name: String,
    /// First byte of page 0.
    pub start: u64,
    /// Bytes per page.
    pub page: u64,
    /// Checking what an earlier run left (a read job on a file this run did not make): the
    /// run and file id its stamps carry; any generation of theirs is expected.
    pub written_by: Option<(u64, u32)>,
}

/// A worker's part in verification.
pub struct VerifyArgs<'a> {
    pub target: &'a VerifyTarget,
    /// The target's handle, for re-reads outside the engine.
    pub file: &'a File,
    pub spec: &'a VerifySpec,
    pub run_id: u64,
    pub page: u32,
    /// The largest I/O: how many pages one slot may hold.
    pub max_block: u32,
    pub unit: u32,
    /// This worker's share of the end-of-run read-back: (its thread, the target's threads).
    pub share: (u32, u32),
    /// Pure write workload: read every page back at the end (fio's do_verify).
    pub read_back: bool,
}

/// One page a slot holds: its generation (the new one, for a write) and whether it was found
/// bad since its last acknowledged write.
#[derive(Clone, Copy, Default)]
struct Held {
    page: usize,
    gen: u64,
    unsure: bool,
}

/// The pages a slot's I/O holds: `count` from `page` on, one I/O of any block size covering
/// whole pages (the largest common divisor of the job's block sizes).
#[derive(Clone, Copy, Default)]
struct Run {
    page: usize,
    count: usize,
}

pub struct Verifier<'a> {
    a: VerifyArgs<'a>,
    writer: u16,
    /// The pages each slot's I/O holds.
    runs: Vec<Run>,
    /// Their generations: `per_run` entries for each slot, so claiming allocates nothing.
    held: Vec<(u64, bool)>,
    per_run: usize,
    /// Written pages still held, waiting to be read back (verify_backlog).
    backlog: VecDeque<(usize, u64)>,
    reread: AlignedBuf,
    pub v: Verification,
    /// A finding under verify_fatal: the run should stop.
    pub fatal: bool,
    /// The read-backs after the workload, when they count as reads (`wrap_up`).
    after: Option<(LatRec, u64)>,
    /// Backlogged pages still to read back in the current batch (fio's verify_backlog_batch).
    drain: u32,
}

impl<'a> Verifier<'a> {
    pub fn new(a: VerifyArgs<'a>, writer: u32, depth: usize) -> Result<Self, String> {
        let reread = AlignedBuf::try_new(a.page as usize).map_err(|e| e.to_string())?;
        let v = Verification {
            unit: a.unit,
            page: a.page,
            rereads: a.spec.rereads,
            run_id: a.run_id,
            ..Verification::default()
        };
        let per_run = (a.max_block / a.page).max(1) as usize;
        Ok(Verifier {
            // Only pages held wait in it: never more than the target has.
            backlog: VecDeque::with_capacity((a.spec.backlog as usize).min(a.target.map.len()) + depth * per_run + 1),
            a,
            writer: writer as u16,
            runs: vec![Run::default(); depth],
            held: vec![(0, false); depth * per_run],
            per_run,
            reread,
            v,
            fatal: false,
            after: None,
            drain: 0,
        })
    }

    fn pages(&self) -> usize {
        self.a.target.map.len()
    }

    fn offset(&self, page: usize) -> u64 {
        self.a.target.start + page as u64 * self.a.page as u64
    }

    /// Readies slot `slot` for the workload's next I/O (`op` at `offset`, `buf.len()` bytes):
    /// a backlogged page is read back first; otherwise the pages from `offset` are claimed,
    /// or the next free ones after them. Returns the I/O to issue (operation, offset, length)
    /// and whether it is a read-back of verification's own (in place of the workload's I/O),
    /// or None when every place tried is held.
    pub fn prepare(
        &mut self,
        buf: &mut [u8],
        slot: u32,
        op: OpKind,
        offset: u64,
        now: u64,
    ) -> Option<(OpKind, u64, u32, bool)> {
        let backlog = self.a.spec.backlog;
        if backlog > 0 && self.drain == 0 && self.backlog.len() >= backlog as usize {
            let batch = self.a.spec.fio.as_ref().map_or(0, |f| f.backlog_batch);
            self.drain = if batch == 0 { backlog } else { batch };
        }
        let page = self.a.page as usize;
        if self.drain > 0 {
            if let Some((p, gen)) = self.backlog.pop_front() {
                self.drain -= 1;
                self.runs[slot as usize] = Run { page: p, count: 1 };
                self.held[slot as usize * self.per_run] = (gen, false);
                mark_unread(&mut buf[..page], self.a.unit as usize);
                return Some((OpKind::Read, self.offset(p), self.a.page, true));
            }
            self.drain = 0;
        }
        let first = ((offset - self.a.target.start) / self.a.page as u64) as usize;
        let count = (buf.len() / page).max(1);
        let at = self.claim_run(slot as usize, first, count)?;
        let base = slot as usize * self.per_run;
        let address = self.offset(at);
        for (j, b) in buf.chunks_mut(page).take(count).enumerate() {
            let (gen, unsure) = &mut self.held[base + j];
            let here = address + (j * page) as u64;
            match (op, self.a.spec.pattern.as_ref()) {
                (OpKind::Write, Some(p)) => {
                    crate::verify::pattern::fill(b, p, here);
                    (*gen, *unsure) = (*gen + 1, false);
                }
                (OpKind::Write, None) => {
                    let s = Stamp {
                        run_id: self.a.run_id,
                        file_id: self.a.target.file_id,
                        writer: self.writer,
                        address: here,
                        generation: *gen + 1,
                        time_ns: now,
                    };
                    stamp_page(b, self.a.unit as usize, &s);
                    (*gen, *unsure) = (*gen + 1, false);
                }
                _ => mark_unread(b, self.a.unit as usize),
            }
        }
        Some((op, address, (count * page) as u32, false))
    }

    /// Claims `count` pages in a row for `slot`, from page `first` on or the next free run
    /// after it (within 4096 tries); returns the first page.
    fn claim_run(&mut self, slot: usize, first: usize, count: usize) -> Option<usize> {
        let n = self.pages();
        let target = self.a.target;
        let map = &target.map;
        let base = slot * self.per_run;
        let mut i = 0;
        while i < n.min(4096) && count <= n {
            let p = (first + i) % n;
            if p + count > n {
                i += n - p;
                continue;
            }
            let got =
                (0..count).take_while(|&j| map.claim_checked(p + j).map(|g| self.held[base + j] = g).is_some()).count();
            if got == count {
                self.runs[slot] = Run { page: p, count };
                return Some(p);
            }
            for j in 0..got {
                match self.held[base + j] {
                    (g, true) => map.release_unsure(p + j, g),
                    (g, false) => map.release(p + j, g),
                }
            }
            i += got + 1;
        }
        None
    }

    /// The I/O of `slot` completed (`ok`: whole); `buf` holds what a read returned.
    pub fn complete(&mut self, buf: &[u8], slot: u32, op: OpKind, ok: bool, at_ns: u64) {
        let r = self.runs[slot as usize];
        let page = self.a.page as usize;
        for j in 0..r.count {
            let (gen, unsure) = self.held[slot as usize * self.per_run + j];
            let h = Held { page: r.page + j, gen, unsure };
            self.complete_page(buf.get(j * page..(j + 1) * page).unwrap_or(&[]), h, op, ok, at_ns);
        }
    }

    fn complete_page(&mut self, buf: &[u8], h: Held, op: OpKind, ok: bool, at_ns: u64) {
        let target = self.a.target;
        let map = &target.map;
        match (op, ok) {
            (OpKind::Write, true) => {
                self.v.pages_written += 1;
                if self.a.spec.backlog > 0 {
                    self.backlog.push_back((h.page, h.gen));
                } else {
                    map.release(h.page, h.gen);
                }
            }
            // What a failed write left is unknown.
            (OpKind::Write, false) => map.release_unsure(h.page, h.gen),
            (_, true) => self.check(buf, h, at_ns),
            (_, false) if h.unsure => map.release_unsure(h.page, h.gen),
            (_, false) => map.release(h.page, h.gen),
        }
    }

    fn expect(&self, h: Held) -> Expect {
        if let Some((run_id, file_id)) = self.a.target.written_by {
            return Expect { run_id, file_id, address: self.offset(h.page), generation: 0, pending: u64::MAX };
        }
        // fio's verify_write_sequence=0: any write of this run's to the page will do.
        let sequence = self.a.spec.fio.as_ref().is_none_or(|f| f.sequence);
        let (generation, pending) = match (h.unsure, sequence) {
            (_, false) => (0, u64::MAX),
            (true, _) => (0, h.gen),
            _ => (h.gen, 0),
        };
        Expect {
            run_id: self.a.run_id,
            file_id: self.a.target.file_id,
            address: self.offset(h.page),
            generation,
            pending,
        }
    }

    /// Checks a page read back and releases it; a bad one is re-read and becomes a finding.
    fn check(&mut self, buf: &[u8], h: Held, at_ns: u64) {
        self.v.pages_checked += 1;
        let e = self.expect(h);
        let unit = self.a.unit as usize;
        let Some(bad) = self.bad(buf, &e) else {
            if h.unsure {
                self.a.target.map.release_unsure(h.page, h.gen);
            } else {
                self.a.target.map.release(h.page, h.gen);
            }
            return;
        };
        let mut bad_rereads = 0;
        for _ in 0..self.a.spec.rereads {
            let b = &mut self.reread.as_mut_slice()[..self.a.page as usize];
            mark_unread(b, unit);
            let whole = engine::read_at(self.a.file, b, e.address).is_ok_and(|n| n == b.len());
            let b = &self.reread.as_slice()[..self.a.page as usize];
            if !whole || self.bad(b, &e).is_some() {
                bad_rereads += 1;
            }
        }
        if self.a.spec.fio.as_ref().is_some_and(|f| f.dump) {
            let dir = self.a.spec.fio.as_ref().and_then(|f| f.aux.as_deref());
            match self.a.spec.pattern.as_ref() {
                Some(p) => dump::bad_block(dir, &self.a.target.name, buf, p, e.address),
                None => dump::bad_unit(dir, &self.a.target.name, buf, unit, &e, bad.diff_at as usize / unit),
            }
        }
        self.record(bad, e, bad_rereads, at_ns);
        self.a.target.map.release_unsure(h.page, h.gen);
    }

    /// What is wrong with a page read back, if anything: its stamps, or under verify=pattern
    /// the first byte that is not the pattern's.
    fn bad(&self, buf: &[u8], e: &Expect) -> Option<Bad> {
        let Some(p) = self.a.spec.pattern.as_ref() else { return check_page(buf, self.a.unit as usize, e) };
        let at = crate::verify::pattern::mismatch(buf, p, e.address)?;
        // The expected bytes from `at`: a fill of the block up to them (a bad page only).
        let n = 16.min(buf.len() - at);
        let mut whole = vec![0u8; at + n];
        crate::verify::pattern::fill(&mut whole, p, e.address);
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        Some(Bad {
            class: crate::result::verify::FindingClass::Corrupt,
            found_gen: None,
            found_offset: None,
            found_file: None,
            diff_at: at as u32,
            diff: format!("expected {} / found {}", hex(&whole[at..]), hex(&buf[at..at + n])),
        })
    }

    fn record(&mut self, bad: Bad, e: Expect, bad_rereads: u32, at_ns: u64) {
        self.v.add(bad.finding(
            self.a.target.name.clone(),
            e.address,
            self.a.page,
            // An unsure page expects any generation up to its last acknowledged one.
            e.generation + e.pending,
            (self.a.spec.rereads, bad_rereads),
            at_ns as f64 / 1e9,
        ));
        self.fatal |= self.a.spec.fatal;
    }
}

/// A random number per run for the stamps: pages left by earlier runs are told apart from
/// this one's. (The hasher's keys come from the OS's random source.)
pub fn new_run_id() -> u64 {
    use std::hash::BuildHasher;
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    std::collections::hash_map::RandomState::new().hash_one((nanos, std::process::id()))
}

impl VerifyArgs<'_> {
    /// The fault injector's settings for this worker, when the run injects faults:
    /// (rates, seed, unit, tested region).
    pub fn injector(&self, seed: u64) -> Option<(crate::workload::verify::Inject, u64, u32, (u64, u64))> {
        let end = self.target.start + self.target.map.len() as u64 * self.page as u64;
        self.spec.inject.map(|i| (i, seed, self.unit, (self.target.start, end)))
    }
}

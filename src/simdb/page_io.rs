//! What every simdb user works with: its buffers, claiming a run of pages in the page map
//! before an I/O (so the contents every read should find are known), one I/O on claimed pages
//! (read and check, stamp and write the next generation) and their release with the generation
//! that was acknowledged, and a pause that wakes for the end of the run.

use super::io::{Meter, Op};
use super::journal::{self, Entry};
use super::{log, Kind, Sim};
use crate::engine::vectored::Vectored;
use crate::engine::AlignedBuf;
use crate::verify::{mark_unread, stamp_page, Stamp};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Most pages one I/O covers: a 512 KiB read-ahead of 8 KiB pages.
pub const MAX_RUN_BYTES: usize = 512 * 1024;

/// One user's buffers: a page-slotted buffer for scatter/gather, a scratch page for re-reads,
/// the generations of the pages it holds (and whether each was found bad since its last
/// write), journal records to append, and its random stream.
pub struct UserBuffers {
    pub buf: AlignedBuf,
    pub scratch: AlignedBuf,
    pub slots: Vec<u32>,
    pub gens: Vec<u64>,
    pub unsure: Vec<bool>,
    pub jbuf: Vec<u8>,
    pub vec: Vectored,
    pub rng: SmallRng,
}

impl UserBuffers {
    pub fn new(sim: &Sim, idx: u16) -> UserBuffers {
        let max_pages = (MAX_RUN_BYTES / sim.cfg.page).max(1);
        UserBuffers {
            // The log writer's records go through the same buffer.
            buf: AlignedBuf::try_new(max_pages.max(log::MAX_RECORD / sim.cfg.page + 1) * sim.cfg.page)
                .expect("simulator buffers"),
            scratch: AlignedBuf::try_new(sim.cfg.page).expect("simulator buffers"),
            slots: Vec::with_capacity(max_pages),
            gens: Vec::with_capacity(max_pages),
            unsure: Vec::with_capacity(max_pages),
            jbuf: Vec::with_capacity(max_pages * journal::RECORD),
            vec: Vectored::new(max_pages),
            rng: SmallRng::seed_from_u64(sim.cfg.seed ^ (u64::from(idx) << 40) ^ 0x5eed),
        }
    }
}

/// Sleeps up to `d`, waking for the end of the run.
pub fn pause(sim: &Sim, d: Duration) {
    let until = Instant::now() + d;
    while !sim.ctx.stopped() {
        let now = Instant::now();
        if now >= until {
            break;
        }
        std::thread::sleep((until - now).min(Duration::from_millis(20)));
    }
}

/// Claims up to `want` consecutive pages of a random file from a random page; returns the
/// file, first page and count (0 when the first page was held by another user).
fn claim_run(sim: &Sim, h: &mut UserBuffers, want: usize) -> (usize, usize, usize) {
    let fi = h.rng.random_range(0..sim.data.len());
    let live = sim.data[fi].live.load(Ordering::Acquire);
    let first = h.rng.random_range(0..live);
    (fi, first, claim(sim, h, fi, first, (first + want).min(live)))
}

/// Claims pages `first..end` of file `fi` into `h` until one is held by another user;
/// returns how many it got.
pub fn claim(sim: &Sim, h: &mut UserBuffers, fi: usize, first: usize, end: usize) -> usize {
    h.gens.clear();
    h.unsure.clear();
    for p in first..end {
        match sim.data[fi].map.claim_checked(p) {
            Some((g, u)) => {
                h.gens.push(g);
                h.unsure.push(u);
            }
            None => break,
        }
    }
    h.gens.len()
}

/// One I/O of a run of pages: claim, then `io_on`.
#[allow(clippy::too_many_arguments)]
pub fn run_io(
    sim: &Sim,
    kind: Kind,
    idx: u16,
    m: &mut Meter,
    h: &mut UserBuffers,
    want: usize,
    read: bool,
    write: bool,
) {
    let (fi, first, n) = claim_run(sim, h, want);
    if n == 0 {
        std::hint::spin_loop();
        return;
    }
    io_on(sim, kind, idx, m, h, (fi, first, n), read, write);
}

/// One I/O on the `n` pages from `first` of file `fi`, claimed in `h`: optionally read and
/// check (scatter-read into shuffled slots when there are several), optionally write the next
/// generation (gather-write), release.
#[allow(clippy::too_many_arguments)]
pub fn io_on(
    sim: &Sim,
    kind: Kind,
    idx: u16,
    m: &mut Meter,
    h: &mut UserBuffers,
    (fi, first, n): (usize, usize, usize),
    read: bool,
    write: bool,
) {
    let page = sim.cfg.page;
    let d = &sim.data[fi];
    let off = (first * page) as u64;
    h.slots.clear();
    h.slots.extend(0..n as u32);
    // Scatter/gather for real: file page k goes to or from buffer slot slots[k].
    for k in (1..n).rev() {
        let j = h.rng.random_range(0..=k);
        h.slots.swap(k, j);
    }
    let mut ok = true;
    if read {
        let buf = &mut h.buf.as_mut_slice()[..n * page];
        mark_unread(buf, sim.cfg.unit);
        let r = if n == 1 {
            m.read(&sim.ctx, fi, &d.file, &mut buf[..page], off)
        } else {
            let (v, slots) = (&mut h.vec, &h.slots);
            m.io(&sim.ctx, fi, Op::ScatterRead, off, n * page, || v.read(&d.file, buf, page, slots, off))
        };
        // A failed read is an error, already reported; a short one leaves units unread, which
        // the check names.
        ok = r.is_ok();
        for k in (0..n).filter(|_| ok) {
            let s = h.slots[k] as usize * page;
            // A page found bad before holds any of its generations: only its stamps, checksums
            // and address are checked, so one lost write is reported once.
            let e = match h.unsure[k] {
                false => sim.expect(fi, first + k, h.gens[k], 0),
                true => sim.expect(fi, first + k, 0, h.gens[k]),
            };
            if !sim.check(kind, m, fi, first + k, &h.buf.as_slice()[s..s + page], &e, &mut h.scratch) {
                h.unsure[k] = true;
            }
        }
    }
    let mut written = false;
    if write && ok && !sim.ctx.stopped() {
        let t = sim.ctx.now_ns();
        for k in 0..n {
            let s = h.slots[k] as usize * page;
            let st = Stamp {
                run_id: sim.run_id,
                file_id: fi as u32 + 1,
                writer: idx,
                address: ((first + k) * page) as u64,
                generation: h.gens[k] + 1,
                time_ns: t,
            };
            stamp_page(&mut h.buf.as_mut_slice()[s..s + page], sim.cfg.unit, &st);
        }
        let buf = &h.buf.as_slice()[..n * page];
        let r = if n == 1 {
            m.write(&sim.ctx, fi, &d.file, buf, off)
        } else {
            let (v, slots) = (&mut h.vec, &h.slots);
            m.io(&sim.ctx, fi, Op::GatherWrite, off, n * page, || v.write(&d.file, buf, page, slots, off))
        };
        if matches!(r, Ok(w) if w == n * page) {
            written = true;
            for g in h.gens.iter_mut() {
                *g += 1;
            }
            m.pages_written += n as u64;
            if sim.cfg.write_through {
                journal_pages(sim, h, fi, first);
            }
        }
    }
    for k in 0..n {
        if h.unsure[k] && !written {
            d.map.release_unsure(first + k, h.gens[k]);
        } else {
            d.map.release(first + k, h.gens[k]);
        }
    }
}

/// With write-through an acknowledged write is durable: the journal records it at once
/// (its appends are O_DSYNC then), before the pages are released.
fn journal_pages(sim: &Sim, h: &mut UserBuffers, fi: usize, first: usize) {
    h.jbuf.clear();
    for (k, &g) in h.gens.iter().enumerate() {
        let at = h.jbuf.len();
        h.jbuf.resize(at + journal::RECORD, 0);
        journal::encode(Entry::Page { file: fi as u32, page: (first + k) as u64, generation: g }, &mut h.jbuf[at..]);
    }
    if let Err(e) = sim.journal.append(&h.jbuf) {
        sim.ctx.error(format!("journal {}: {e}", sim.journal.path.display()));
    }
}

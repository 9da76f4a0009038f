//! The grow/shrink user: the data files shrunk and grown back by an eighth, in turns. Pages
//! past a file's live end stay claimed by this user, so no other user touches them; a shrink is
//! journaled before the file is cut, a grow after the new pages are stamped and flushed.

use super::io::Meter;
use super::journal::{self, Entry};
use super::page_io::{pause, UserBuffers};
use super::Sim;
use crate::engine::vectored;
use crate::verify::{stamp_page, Stamp};
use rand::Rng;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Shrinks and grows the data files, one file a turn. `held[fi]` are the generations of the
/// pages of file `fi` past its live end, held by this user while the file is shrunk.
pub fn run(sim: &Sim, idx: u16, m: &mut Meter, h: &mut UserBuffers) {
    let mut held: Vec<Vec<u64>> = sim.data.iter().map(|_| Vec::new()).collect();
    let mut seq = 0u64;
    let mut fi = 0;
    while !sim.ctx.stopped() {
        pause(sim, Duration::from_millis(h.rng.random_range(300..=900)));
        if sim.ctx.stopped() {
            break;
        }
        let d = &sim.data[fi];
        let chunk = (d.pages / 8).max(1);
        let live = d.live.load(Ordering::Acquire);
        seq += 1;
        if held[fi].is_empty() && live > chunk {
            if !shrink(sim, m, fi, (live - chunk, live), seq, &mut held[fi]) {
                break;
            }
        } else if !held[fi].is_empty() && !grow(sim, idx, m, h, (fi, live), seq, &mut held[fi]) {
            // The same file is tried again on the next turn.
            continue;
        }
        fi = (fi + 1) % sim.data.len();
    }
    // Pages still held past a shrunk end stay out of the check at the end, as they are out
    // of the file.
    for (fi, hs) in held.iter().enumerate() {
        let live = sim.data[fi].live.load(Ordering::Acquire);
        for (k, &g) in hs.iter().enumerate() {
            sim.data[fi].map.release(live + k, g);
        }
    }
}

/// Claims pages `new..live` of file `fi` into `held` (waiting for the users that hold them),
/// journals the new end and cuts the file there. Returns false, holding nothing, if the run
/// ended while it waited.
fn shrink(sim: &Sim, m: &mut Meter, fi: usize, (new, live): (usize, usize), seq: u64, held: &mut Vec<u64>) -> bool {
    let d = &sim.data[fi];
    for p in new..live {
        loop {
            if let Some(g) = d.map.claim(p) {
                held.push(g);
                break;
            }
            if sim.ctx.stopped() {
                for (k, &g) in held.iter().enumerate() {
                    d.map.release(new + k, g);
                }
                held.clear();
                return false;
            }
            std::thread::sleep(Duration::from_micros(50));
        }
    }
    let mut rec = [0u8; journal::RECORD];
    journal::encode(Entry::Live { file: fi as u32, pages: new as u64, seq }, &mut rec);
    if let Err(e) = sim.journal.append(&rec).and_then(|_| sim.journal.sync()) {
        sim.ctx.error(format!("journal {}: {e}", sim.journal.path.display()));
    }
    d.live.store(new, Ordering::Release);
    if let Err(e) = vectored::set_len(&d.file, (new * sim.cfg.page) as u64) {
        sim.ctx.error(format!("shrinking {}: {e}", d.path.display()));
    }
    m.files[fi].resizes += 1;
    true
}

/// Grows file `fi` back from its live end `first` by the pages in `held`: allocated, stamped
/// with their next generation, written and flushed, then journaled and released. Returns false
/// if the space could not be allocated.
fn grow(
    sim: &Sim,
    idx: u16,
    m: &mut Meter,
    h: &mut UserBuffers,
    (fi, first): (usize, usize),
    seq: u64,
    held: &mut Vec<u64>,
) -> bool {
    let page = sim.cfg.page;
    let d = &sim.data[fi];
    let n = held.len();
    if let Err(e) = vectored::allocate(&d.file, (first * page) as u64, (n * page) as u64) {
        sim.ctx.error(format!("growing {}: {e}", d.path.display()));
        return false;
    }
    let written = write_grown(sim, idx, m, h, (fi, first), held);
    // Flushed even after a failed write, as the pages written are on their way.
    let flushed = m.flush(&sim.ctx, fi, &d.file).is_ok();
    if written && flushed {
        journal_grown(sim, h, (fi, first), seq, held);
        m.pages_written += n as u64;
        d.live.store(first + n, Ordering::Release);
        for (j, &g) in held.iter().enumerate() {
            d.map.release(first + j, g);
        }
        held.clear();
        m.files[fi].resizes += 1;
    }
    true
}

/// Writes the pages from `first` of file `fi`, stamped with the generation after the one
/// `held` gives each, a bufferful at a time; returns whether every write was whole.
fn write_grown(
    sim: &Sim,
    idx: u16,
    m: &mut Meter,
    h: &mut UserBuffers,
    (fi, first): (usize, usize),
    held: &[u64],
) -> bool {
    let page = sim.cfg.page;
    let d = &sim.data[fi];
    let n = held.len();
    let per = h.buf.len() / page;
    let t = sim.ctx.now_ns();
    let mut written = true;
    for start in (0..n).step_by(per) {
        let k = per.min(n - start);
        let buf = &mut h.buf.as_mut_slice()[..k * page];
        for (j, pg) in buf.chunks_mut(page).enumerate() {
            let p = first + start + j;
            let st = Stamp {
                run_id: sim.run_id,
                file_id: fi as u32 + 1,
                writer: idx,
                address: (p * page) as u64,
                generation: held[start + j] + 1,
                time_ns: t,
            };
            stamp_page(pg, sim.cfg.unit, &st);
        }
        let off = ((first + start) * page) as u64;
        written &= matches!(m.write(&sim.ctx, fi, &d.file, buf, off), Ok(w) if w == k * page);
    }
    written
}

/// Moves `held` to the generations just written and journals them, then the file's new end,
/// and flushes the journal.
fn journal_grown(sim: &Sim, h: &mut UserBuffers, (fi, first): (usize, usize), seq: u64, held: &mut [u64]) {
    h.jbuf.clear();
    for (j, g) in held.iter_mut().enumerate() {
        *g += 1;
        let at = h.jbuf.len();
        h.jbuf.resize(at + journal::RECORD, 0);
        let e = Entry::Page { file: fi as u32, page: (first + j) as u64, generation: *g };
        journal::encode(e, &mut h.jbuf[at..]);
        if h.jbuf.len() + journal::RECORD > h.jbuf.capacity() {
            let _ = sim.journal.append(&h.jbuf);
            h.jbuf.clear();
        }
    }
    let mut rec = [0u8; journal::RECORD];
    journal::encode(Entry::Live { file: fi as u32, pages: (first + held.len()) as u64, seq }, &mut rec);
    let r = sim.journal.append(&h.jbuf).and_then(|_| sim.journal.append(&rec)).and_then(|_| sim.journal.sync());
    if let Err(e) = r {
        sim.ctx.error(format!("journal {}: {e}", sim.journal.path.display()));
    }
}

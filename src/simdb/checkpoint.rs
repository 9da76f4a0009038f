//! The users that keep the files in shape: the checkpoint (bursts of pages, a flush, the
//! journal) and grow/shrink; and the audit's last pass over every page once the others end.

use super::io::Meter;
use super::journal::{self, Entry};
use super::users::{claim, io_on, pause, run_io, Hands, CHECKPOINT_RUN, MAX_RUN_BYTES};
use super::{Kind, Sim};
use crate::engine::vectored;
use crate::verify::{stamp_page, Stamp};
use rand::Rng;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Bursts of dirty pages written, then every data file flushed and the generations
/// acknowledged before the flush journaled (and the journal flushed): what a crash after this
/// point must not lose.
pub fn checkpoint(sim: &Sim, idx: u16, m: &mut Meter, h: &mut Hands) {
    let mut journaled: Vec<Vec<u64>> = sim.data.iter().map(|d| vec![0; d.pages]).collect();
    let mut snap = journaled.clone();
    let total: usize = sim.data.iter().map(|d| d.pages).sum();
    let mut jbuf: Vec<u8> = Vec::with_capacity((total + 1) * journal::RECORD);
    while !sim.ctx.stopped() {
        for _ in 0..8 {
            let most = CHECKPOINT_RUN.1.min(h.gens.capacity());
            let n = h.rng.random_range(CHECKPOINT_RUN.0.min(most)..=most);
            run_io(sim, Kind::Checkpoint, idx, m, h, n, false, true);
        }
        // Acknowledged before the flush starts, hence durable once it completes.
        for (d, s) in sim.data.iter().zip(snap.iter_mut()) {
            for (p, g) in s.iter_mut().enumerate() {
                *g = d.map.generation(p);
            }
        }
        let log = (sim.log.acked.load(Ordering::Acquire), sim.log.pass_start.load(Ordering::Acquire));
        let mut flushed = true;
        for (fi, d) in sim.data.iter().enumerate() {
            flushed &= m.flush(&sim.ctx, fi, &d.file).is_ok();
        }
        if !flushed {
            break;
        }
        jbuf.clear();
        for (fi, (s, j)) in snap.iter().zip(journaled.iter_mut()).enumerate() {
            for (p, (&g, jg)) in s.iter().zip(j.iter_mut()).enumerate() {
                if g != *jg {
                    let at = jbuf.len();
                    jbuf.resize(at + journal::RECORD, 0);
                    journal::encode(Entry::Page { file: fi as u32, page: p as u64, generation: g }, &mut jbuf[at..]);
                    *jg = g;
                }
            }
        }
        if log.0 > 0 {
            let at = jbuf.len();
            jbuf.resize(at + journal::RECORD, 0);
            journal::encode(Entry::Log { acked: log.0, pass_start: log.1 }, &mut jbuf[at..]);
        }
        if let Err(e) = sim.journal.append(&jbuf).and_then(|_| sim.journal.sync()) {
            sim.ctx.error(format!("journal {}: {e}", sim.journal.path.display()));
            break;
        }
        pause(sim, Duration::from_millis(h.rng.random_range(200..=600)));
    }
}

/// Shrinks and grows the data files by an eighth, in turns. Pages past the live end stay
/// claimed by this user, so no other user touches them; a shrink is journaled before the
/// file is cut, a grow after the new pages are stamped and flushed.
pub fn resize(sim: &Sim, idx: u16, m: &mut Meter, h: &mut Hands) {
    let page = sim.cfg.page;
    let mut held: Vec<Vec<u64>> = sim.data.iter().map(|_| Vec::new()).collect();
    let mut seq = 0u64;
    let mut fi = 0;
    let mut rec = [0u8; journal::RECORD];
    'outer: while !sim.ctx.stopped() {
        pause(sim, Duration::from_millis(h.rng.random_range(300..=900)));
        if sim.ctx.stopped() {
            break;
        }
        let d = &sim.data[fi];
        let chunk = (d.pages / 8).max(1);
        let live = d.live.load(Ordering::Acquire);
        seq += 1;
        if held[fi].is_empty() && live > chunk {
            let new = live - chunk;
            for p in new..live {
                loop {
                    if let Some(g) = d.map.claim(p) {
                        held[fi].push(g);
                        break;
                    }
                    if sim.ctx.stopped() {
                        for (k, &g) in held[fi].iter().enumerate() {
                            d.map.release(new + k, g);
                        }
                        held[fi].clear();
                        break 'outer;
                    }
                    std::thread::sleep(Duration::from_micros(50));
                }
            }
            journal::encode(Entry::Live { file: fi as u32, pages: new as u64, seq }, &mut rec);
            if let Err(e) = sim.journal.append(&rec).and_then(|_| sim.journal.sync()) {
                sim.ctx.error(format!("journal {}: {e}", sim.journal.path.display()));
            }
            d.live.store(new, Ordering::Release);
            if let Err(e) = vectored::set_len(&d.file, (new * page) as u64) {
                sim.ctx.error(format!("shrinking {}: {e}", d.path.display()));
            }
            m.files[fi].resizes += 1;
        } else if !held[fi].is_empty() {
            let first = live;
            let n = held[fi].len();
            if let Err(e) = vectored::allocate(&d.file, (first * page) as u64, (n * page) as u64) {
                sim.ctx.error(format!("growing {}: {e}", d.path.display()));
                continue;
            }
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
                        generation: held[fi][start + j] + 1,
                        time_ns: t,
                    };
                    stamp_page(pg, sim.cfg.unit, &st);
                }
                let off = ((first + start) * page) as u64;
                written &= matches!(m.write(&sim.ctx, fi, &d.file, buf, off), Ok(w) if w == k * page);
            }
            written &= m.flush(&sim.ctx, fi, &d.file).is_ok();
            if written {
                h.jbuf.clear();
                for (j, g) in held[fi].iter_mut().enumerate() {
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
                m.pages_written += n as u64;
                journal::encode(Entry::Live { file: fi as u32, pages: (first + n) as u64, seq }, &mut rec);
                let r =
                    sim.journal.append(&h.jbuf).and_then(|_| sim.journal.append(&rec)).and_then(|_| sim.journal.sync());
                if let Err(e) = r {
                    sim.ctx.error(format!("journal {}: {e}", sim.journal.path.display()));
                }
                d.live.store(first + n, Ordering::Release);
                for (j, &g) in held[fi].iter().enumerate() {
                    d.map.release(first + j, g);
                }
                held[fi].clear();
                m.files[fi].resizes += 1;
            }
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

/// After the other users ended: every live page of every data file read once more and
/// checked, so that a write lost (or torn) after the last read of its page is still found, not
/// left on the medium unreported. Runs on the audit user's meter.
pub fn final_check(sim: &Sim, idx: u16, m: &mut Meter, h: &mut Hands) {
    let per = (MAX_RUN_BYTES / sim.cfg.page).max(1);
    for (fi, d) in sim.data.iter().enumerate() {
        let live = d.live.load(Ordering::Acquire);
        let mut first = 0;
        while first < live {
            let n = claim(sim, h, fi, first, (first + per).min(live));
            // Every user has ended, so no page is held.
            debug_assert!(n > 0, "page {first} of data file {} still held after the run", fi + 1);
            if n > 0 {
                io_on(sim, Kind::Audit, idx, m, h, (fi, first, n), true, false);
            }
            first += n.max(1);
        }
    }
}

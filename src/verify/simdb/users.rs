//! The users' loops. Each is one thread with its own buffers, counters and random stream; it
//! claims the pages of an I/O in the page map before issuing it, so the contents every read
//! should find are known, and releases them with the generation that was acknowledged.

use super::io::{Ctx, Meter, Op};
use super::journal::{self, Entry};
use super::setup::Prepared;
use super::{assemble, logwriter, Config, Kind, Sim};
use crate::engine::vectored::{self, Vectored};
use crate::engine::AlignedBuf;
use crate::result::simdb::Simdb;
use crate::result::TestResult;
use crate::verify::{mark_unread, stamp_page, Stamp};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Most pages one I/O covers: a 512 KiB read-ahead of 8 KiB pages.
pub const MAX_RUN_BYTES: usize = 512 * 1024;
/// Pages per write of a checkpoint's bursts, fewest and most.
pub const CHECKPOINT_RUN: (usize, usize) = (8, 32);

pub fn run_all(cfg: &Config, p: Prepared, interrupt: &AtomicBool) -> anyhow::Result<(Vec<TestResult>, Simdb)> {
    let stop = AtomicBool::new(false);
    let mut names: Vec<String> = p.data.iter().map(|d| d.path.display().to_string()).collect();
    names.push(p.log.path.display().to_string());
    let sim = Sim {
        cfg,
        run_id: p.run_id,
        ctx: Ctx {
            start: Instant::now(),
            stop: &stop,
            target_ns: (cfg.target_io_ms * 1e6) as u64,
            stop_on_error: cfg.stop_on_error,
            stalls: Mutex::new(Vec::new()),
            errors: Mutex::new(Vec::new()),
            gauges: p.gauges,
            names,
        },
        data: p.data,
        log: p.log,
        journal: p.journal,
        findings: Mutex::new(Vec::new()),
        log_records: AtomicU64::new(0),
        log_checked: AtomicU64::new(0),
    };
    let mut roster: Vec<Kind> = (0..cfg.users).map(|_| Kind::Random).collect();
    roster.extend(Kind::ALL.iter().copied().filter(|k| *k != Kind::Random));
    let cpu0 = crate::stats::cpu::CpuSnapshot::take();
    let meters: Vec<(Kind, Meter)> = std::thread::scope(|s| {
        let handles: Vec<_> = roster
            .iter()
            .enumerate()
            .map(|(i, &kind)| {
                let sim = &sim;
                std::thread::Builder::new()
                    .name(format!("simdb-{}", kind.name()))
                    .spawn_scoped(s, move || (kind, user(sim, kind, i as u16)))
                    .expect("starting a simulator user")
            })
            .collect();
        let end = sim.ctx.start + Duration::from_secs_f64(cfg.duration);
        while Instant::now() < end && !interrupt.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(20));
        }
        stop.store(true, Ordering::Relaxed);
        handles.into_iter().map(|h| h.join().expect("a simulator user panicked")).collect()
    });
    let wall = sim.ctx.start.elapsed();
    let cpu1 = crate::stats::cpu::CpuSnapshot::take();
    Ok(assemble::outcome(&sim, p.init, meters, (cpu0, cpu1, wall), interrupt.load(Ordering::Relaxed)))
}

/// One user's buffers: a page-slotted buffer for scatter/gather, a scratch page for re-reads,
/// the generations of the pages it holds, and journal records to append.
pub struct Hands {
    pub buf: AlignedBuf,
    pub scratch: AlignedBuf,
    pub slots: Vec<u32>,
    pub gens: Vec<u64>,
    pub jbuf: Vec<u8>,
    pub vec: Vectored,
    pub rng: SmallRng,
}

fn user(sim: &Sim, kind: Kind, idx: u16) -> Meter {
    let secs = sim.cfg.duration.ceil() as usize + 2;
    let mut m = Meter::new(sim.data.len() + 1, secs);
    let max_pages = (MAX_RUN_BYTES / sim.cfg.page).max(1);
    let mut h = Hands {
        buf: AlignedBuf::try_new(max_pages.max(logwriter::BUF / sim.cfg.page + 1) * sim.cfg.page)
            .expect("simulator buffers"),
        scratch: AlignedBuf::try_new(sim.cfg.page).expect("simulator buffers"),
        slots: Vec::with_capacity(max_pages),
        gens: Vec::with_capacity(max_pages),
        jbuf: Vec::with_capacity(max_pages * journal::RECORD),
        vec: Vectored::new(max_pages),
        rng: SmallRng::seed_from_u64(sim.cfg.seed ^ (u64::from(idx) << 40) ^ 0x5eed),
    };
    let page = sim.cfg.page;
    let pages = |bytes: usize| (bytes / page).max(1);
    match kind {
        Kind::Random => {
            while !sim.ctx.stopped() {
                let write = h.rng.random_bool(0.5);
                run_io(sim, kind, idx, &mut m, &mut h, 1, true, write);
            }
        }
        Kind::ReadAhead => {
            while !sim.ctx.stopped() {
                let n = pages(h.rng.random_range(64 * 1024..=MAX_RUN_BYTES));
                run_io(sim, kind, idx, &mut m, &mut h, n, true, false);
            }
        }
        Kind::Bulk => {
            while !sim.ctx.stopped() {
                let n = h.rng.random_range(2..=32.min(max_pages).max(2));
                run_io(sim, kind, idx, &mut m, &mut h, n, true, true);
            }
        }
        Kind::Lazy => {
            while !sim.ctx.stopped() {
                let n = h.rng.random_range(1..=16.min(max_pages));
                run_io(sim, kind, idx, &mut m, &mut h, n, false, true);
                pause(sim, Duration::from_millis(1));
            }
        }
        Kind::Audit => {
            while !sim.ctx.stopped() {
                let n = h.rng.random_range(1..=16.min(max_pages));
                run_io(sim, kind, idx, &mut m, &mut h, n, true, false);
            }
        }
        Kind::Checkpoint => checkpoint(sim, idx, &mut m, &mut h),
        Kind::Log => logwriter::run(sim, &mut m, &mut h),
        Kind::Resize => resize(sim, idx, &mut m, &mut h),
    }
    m
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
fn claim_run(sim: &Sim, h: &mut Hands, want: usize) -> (usize, usize, usize) {
    let fi = h.rng.random_range(0..sim.data.len());
    let d = &sim.data[fi];
    let live = d.live.load(Ordering::Acquire);
    let first = h.rng.random_range(0..live);
    h.gens.clear();
    for p in first..(first + want).min(live) {
        match d.map.claim(p) {
            Some(g) => h.gens.push(g),
            None => break,
        }
    }
    (fi, first, h.gens.len())
}

/// One I/O of a run of pages: claim, optionally read and check (scatter-read into shuffled
/// slots when there are several), optionally write the next generation (gather-write), release.
#[allow(clippy::too_many_arguments)]
fn run_io(sim: &Sim, kind: Kind, idx: u16, m: &mut Meter, h: &mut Hands, want: usize, read: bool, write: bool) {
    let page = sim.cfg.page;
    let (fi, first, n) = claim_run(sim, h, want);
    if n == 0 {
        std::hint::spin_loop();
        return;
    }
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
            let e = sim.expect(fi, first + k, h.gens[k], 0);
            sim.check(kind, m, fi, first + k, &h.buf.as_slice()[s..s + page], &e, &mut h.scratch);
        }
    }
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
        d.map.release(first + k, h.gens[k]);
    }
}

/// With write-through an acknowledged write is durable: the journal records it at once
/// (its appends are O_DSYNC then), before the pages are released.
fn journal_pages(sim: &Sim, h: &mut Hands, fi: usize, first: usize) {
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

/// Bursts of dirty pages written, then every data file flushed and the generations
/// acknowledged before the flush journaled (and the journal flushed): what a crash after this
/// point must not lose.
fn checkpoint(sim: &Sim, idx: u16, m: &mut Meter, h: &mut Hands) {
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
fn resize(sim: &Sim, idx: u16, m: &mut Meter, h: &mut Hands) {
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

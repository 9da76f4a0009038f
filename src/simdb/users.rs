//! The users' loops. Each is one thread with its own buffers, counters and random stream; it
//! claims the pages of an I/O in the page map before issuing it, so the contents every read
//! should find are known, and releases them with the generation that was acknowledged.

use super::io::{Ctx, Meter, Op};
use super::journal::{self, Entry};
use super::setup::Prepared;
use super::{assemble, logwriter, upkeep, Config, Kind, Sim};
use crate::engine::vectored::Vectored;
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
            stall_ns: (cfg.stall_ms * 1e6) as u64,
            stop_on_error: cfg.stop_on_error,
            stalls: Mutex::new(Vec::new()),
            errors: Mutex::new(Vec::new()),
            gauges: p.gauges,
            names,
            busy: (0..cfg.users as usize + Kind::ALL.len()).map(|_| Default::default()).collect(),
            per_second: Kind::ALL.iter().map(|_| Mutex::new(Vec::new())).collect(),
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
    let mut meters: Vec<(Kind, Meter)> = std::thread::scope(|s| {
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
        let mut told = vec![0u64; roster.len()];
        loop {
            let ended = Instant::now() >= end || interrupt.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed);
            stop.store(ended, Ordering::Relaxed);
            outstanding(&sim, &roster, &mut told);
            if ended && handles.iter().all(|h| h.is_finished()) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        handles.into_iter().map(|h| h.join().expect("a simulator user panicked")).collect()
    });
    // Not after Ctrl-C, nor when --stop-on-error ended the run: its first fault is the answer.
    let found = !sim.findings.lock().unwrap_or_else(|e| e.into_inner()).is_empty();
    let failed = !sim.ctx.errors.lock().unwrap_or_else(|e| e.into_inner()).is_empty();
    let halted = interrupt.load(Ordering::Relaxed) || (cfg.stop_on_error && (found || failed));
    if !halted {
        if let Some((_, m)) = meters.iter_mut().find(|(k, _)| *k == Kind::Audit) {
            let idx = m.user as u16;
            upkeep::final_check(&sim, idx, m, &mut Hands::new(&sim, idx));
            m.hand_over(&sim.ctx);
        }
    }
    let wall = sim.ctx.start.elapsed();
    let cpu1 = crate::stats::cpu::CpuSnapshot::take();
    Ok(assemble::outcome(&sim, p.init, meters, (cpu0, cpu1, wall), interrupt.load(Ordering::Relaxed)))
}

/// Says once per I/O when one has been outstanding longer than a stall, as it happens: an
/// I/O that never comes back would otherwise never be reported.
fn outstanding(sim: &Sim, roster: &[Kind], told: &mut [u64]) {
    let now = sim.ctx.now_ns();
    for (i, b) in sim.ctx.busy.iter().enumerate().take(roster.len()) {
        let since = b.0.load(Ordering::Relaxed);
        if since != 0 && since != told[i] && now.saturating_sub(since) > sim.ctx.stall_ns {
            told[i] = since;
            eprintln!(
                "warning: stall: an I/O of the {} user has been outstanding for {:.1} s",
                roster[i].name(),
                (now - since) as f64 / 1e9
            );
        }
    }
}

/// One user's buffers: a page-slotted buffer for scatter/gather, a scratch page for re-reads,
/// the generations of the pages it holds (and whether each was found bad since its last
/// write), and journal records to append.
pub struct Hands {
    pub buf: AlignedBuf,
    pub scratch: AlignedBuf,
    pub slots: Vec<u32>,
    pub gens: Vec<u64>,
    pub unsure: Vec<bool>,
    pub jbuf: Vec<u8>,
    pub vec: Vectored,
    pub rng: SmallRng,
}

impl Hands {
    pub fn new(sim: &Sim, idx: u16) -> Hands {
        let max_pages = (MAX_RUN_BYTES / sim.cfg.page).max(1);
        Hands {
            buf: AlignedBuf::try_new(max_pages.max(logwriter::BUF / sim.cfg.page + 1) * sim.cfg.page)
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

fn user(sim: &Sim, kind: Kind, idx: u16) -> Meter {
    let secs = sim.cfg.duration.ceil() as usize + 2;
    let mut m = Meter::new(sim.data.len() + 1, secs);
    m.user = idx as usize;
    m.slot = Kind::ALL.iter().position(|k| *k == kind);
    let max_pages = (MAX_RUN_BYTES / sim.cfg.page).max(1);
    let mut h = Hands::new(sim, idx);
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
        Kind::Checkpoint => upkeep::checkpoint(sim, idx, &mut m, &mut h),
        Kind::Log => logwriter::run(sim, &mut m, &mut h),
        Kind::Resize => upkeep::resize(sim, idx, &mut m, &mut h),
    }
    m.hand_over(&sim.ctx);
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
    let live = sim.data[fi].live.load(Ordering::Acquire);
    let first = h.rng.random_range(0..live);
    (fi, first, claim(sim, h, fi, first, (first + want).min(live)))
}

/// Claims pages `first..end` of file `fi` into `h` until one is held by another user;
/// returns how many it got.
pub fn claim(sim: &Sim, h: &mut Hands, fi: usize, first: usize, end: usize) -> usize {
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
pub fn run_io(sim: &Sim, kind: Kind, idx: u16, m: &mut Meter, h: &mut Hands, want: usize, read: bool, write: bool) {
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
    h: &mut Hands,
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

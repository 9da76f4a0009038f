//! A run of the users: one thread per user (the random access users, and one of every other
//! kind: read-ahead, bulk update, lazy writer, audit, whose loops are here, and the checkpoint,
//! log writer and grow/shrink), a watch for I/Os outstanding past a stall until the end, the
//! audit's last pass over every page, and the measurements assembled.

use super::io::{Ctx, Meter};
use super::page_io::{claim, io_on, pause, run_io, UserBuffers, MAX_RUN_BYTES};
use super::setup::Prepared;
use super::{assemble, checkpoint, logwriter, resize, Config, Kind, Sim};
use crate::result::simdb::Simdb;
use crate::result::TestResult;
use rand::Rng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
            final_check(&sim, idx, m, &mut UserBuffers::new(&sim, idx));
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

fn user(sim: &Sim, kind: Kind, idx: u16) -> Meter {
    let secs = sim.cfg.duration.ceil() as usize + 2;
    let mut m = Meter::new(sim.data.len() + 1, secs);
    m.user = idx as usize;
    m.slot = Kind::ALL.iter().position(|k| *k == kind);
    let max_pages = (MAX_RUN_BYTES / sim.cfg.page).max(1);
    let mut h = UserBuffers::new(sim, idx);
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
        Kind::Checkpoint => checkpoint::run(sim, idx, &mut m, &mut h),
        Kind::Log => logwriter::run(sim, &mut m, &mut h),
        Kind::Resize => resize::run(sim, idx, &mut m, &mut h),
    }
    m.hand_over(&sim.ctx);
    m
}

/// After the other users ended: every live page of every data file read once more and
/// checked, so that a write lost (or torn) after the last read of its page is still found, not
/// left on the medium unreported. Runs on the audit user's meter.
fn final_check(sim: &Sim, idx: u16, m: &mut Meter, h: &mut UserBuffers) {
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

//! The runner's clock while workers run: the window's edges, Ctrl-C, a worker's abort.

use super::{worker, Shared};
use crate::stats::cpu::CpuSnapshot;
use crate::stats::disk::DiskSnapshot;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What the supervisor saw of the measured window.
pub(super) struct Measured {
    pub recs: Vec<Result<worker::WorkerRec, String>>,
    pub cpu: (CpuSnapshot, CpuSnapshot, Duration),
    pub disks: Vec<crate::stats::disk::DiskStats>,
    pub interrupted: bool,
}

/// Keeps time once the workers started: CPU and disk snapshots at the window's edges, Ctrl-C
/// (the window ends where it is), a worker's abort; then joins the workers. `tick` collects the
/// workers' per-second figures, and draws progress when given (now, window end, end).
pub(super) fn supervise(
    handles: Vec<std::thread::ScopedJoinHandle<'_, Result<worker::WorkerRec, String>>>,
    shared: &Shared,
    interrupt: &AtomicBool,
    devices: &[String],
    tick: &mut dyn FnMut(Option<(u64, u64, u64)>),
) -> Measured {
    // While the workers get ready, not after: the run starts as soon as they are.
    crate::stats::clock::RunClock::calibrate();
    shared.ready.wait();
    // One moment on both clocks: the workers keep the window by one, the I/O count by the other.
    let clock = shared.clock.get_or_init(crate::stats::clock::RunClock::start);
    let t0 = clock.origin();
    shared.t0.set(t0).expect("t0 set once");
    if let Some(t) = &shared.io_count {
        t.measuring_from(t0 + Duration::from_nanos(shared.measure_start));
    }
    shared.start.wait();

    let m_start = shared.measure_start;
    let now = || clock.ns();
    let snap = || (CpuSnapshot::take(), DiskSnapshot::take(devices));
    let mut cpu_start: Option<(CpuSnapshot, DiskSnapshot, u64)> = None;
    let mut cpu_end: Option<(CpuSnapshot, DiskSnapshot, u64)> = None;
    let mut interrupted = false;
    loop {
        let t = now();
        // Workers that start later end later: the group's edges move by the longest delay.
        let stop = shared.stop.load(Ordering::Relaxed);
        let m_end_now = (shared.measure_end.load(Ordering::Relaxed) + shared.max_delay).min(stop);
        let end_now = (shared.end.load(Ordering::Relaxed) + shared.max_delay).min(stop);
        if cpu_start.is_none() && t >= m_start {
            let (c, d) = snap();
            cpu_start = Some((c, d, t));
        }
        if cpu_end.is_none() && t >= m_end_now {
            let (c, d) = snap();
            cpu_end = Some((c, d, t));
        }
        if interrupt.load(Ordering::Relaxed) && !interrupted {
            interrupted = true;
            shared.stop.store(t, Ordering::Relaxed);
            continue;
        }
        if shared.abort.load(Ordering::Relaxed) {
            shared.stop.fetch_min(t, Ordering::Relaxed);
        }
        let done = t >= end_now || handles.iter().all(|h| h.is_finished());
        tick((!done).then_some((t, m_end_now, end_now)));
        if done {
            if let Some(io_count) = &shared.io_count {
                io_count.ended();
            }
            break;
        }
        let next_edge = [m_start, m_end_now, end_now].into_iter().filter(|&e| e > t).min().unwrap_or(t);
        // A run an I/O count may end is over when its workers are: look often.
        let longest = if shared.io_count.is_some() { 5_000_000 } else { 100_000_000 };
        std::thread::sleep(Duration::from_nanos((next_edge - t).clamp(1_000_000, longest)));
    }
    let recs = handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("worker thread panicked".into()))).collect();
    tick(None);
    let t_end = now();
    let (cs, ds, cs_t) = cpu_start.unwrap_or_else(|| {
        let (c, d) = snap();
        (c, d, t_end)
    });
    let (ce, de, ce_t) = cpu_end.unwrap_or_else(|| {
        let (c, d) = snap();
        (c, d, t_end)
    });
    let wall = Duration::from_nanos(ce_t.saturating_sub(cs_t));
    Measured { recs, disks: de.since(&ds, wall.as_secs_f64()), cpu: (cs, ce, wall), interrupted }
}

//! One worker: one thread, one engine, one target. The loop queues until the depth (or the
//! pacing schedule) says stop, submits the batch and waits for completions with a single call,
//! and records them — with no allocation and no lock except a per-second hand-off.

use super::live::{Mailbox, SecondData};
use super::offsets::OffsetGen;
use super::Shared;
use crate::engine::{Completion, Engine, IoReq, OpKind};
use crate::spec::{DataPattern, Spec};
use crate::stats::LatRec;
use crate::target::data;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Everything a worker measured; merged by the runner with the other workers'.
#[derive(Default)]
pub struct WorkerRec {
    pub read: LatRec,
    pub write: LatRec,
    pub resp_read: LatRec,
    pub resp_write: LatRec,
    pub fsync: LatRec,
    pub read_bytes: u64,
    pub write_bytes: u64,
    /// ∫ in-flight I/Os dt over the measured window, ns.
    pub qd_area: f64,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    submit: u64,
    intended: u64,
    op: Option<OpKind>,
    len: u32,
}

/// Pacing: the intended start of the next I/O, advanced by a fixed schedule so that a slow
/// device makes later I/Os late (and their response latency long) instead of silently
/// stretching the schedule (coordinated omission).
enum Pace {
    Free,
    Iops { next: f64, period: f64 },
    Bytes { next: f64, ns_per_byte: f64 },
}

pub struct WorkerArgs<'a> {
    pub spec: &'a Spec,
    pub shared: &'a Shared,
    pub mailbox: &'a Mailbox,
    pub file: u32,
    pub gen: OffsetGen,
    pub index: u32,
    pub workers: u32,
    pub depth: u32,
}

pub fn run<E: Engine>(engine: &mut E, a: WorkerArgs) -> Result<WorkerRec, String> {
    let spec = a.spec;
    let sh = a.shared;
    let depth = a.depth as usize;
    let mut gen = a.gen;
    let mut rec = WorkerRec::default();
    let mut rng = SmallRng::seed_from_u64(spec.seed ^ ((a.index as u64 + 1) * 0x51));
    for s in 0..a.depth {
        data::fill(engine.buffer(s), spec.data, &mut rng);
    }
    let mut slots = vec![Slot::default(); depth];
    let mut free: Vec<u32> = (0..a.depth).rev().collect();
    let mut comps = vec![Completion::default(); depth];
    // Slots queued in this round, stamped with one submission time just before the syscall.
    let mut batch: Vec<u32> = Vec::with_capacity(depth);
    let mut pace = match (spec.rate_iops, spec.rate_mbps) {
        (Some(r), _) => {
            let period = 1e9 * a.workers as f64 / r;
            Pace::Iops { next: period * a.index as f64 / a.workers as f64, period }
        }
        (_, Some(m)) => Pace::Bytes { next: 0.0, ns_per_byte: 1e9 * a.workers as f64 / (m * 1e6) },
        _ => Pace::Free,
    };
    // Unpaced, response latency equals service latency: record it once (the result copies it).
    let paced = !matches!(pace, Pace::Free);
    if paced {
        // Sleep as precisely as the kernel allows; the default 50 µs slack would blur pacing.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::prctl(libc::PR_SET_TIMERSLACK, 1u64);
        }
    }
    let mut cur = SecondData::default();
    let mut inflight = 0usize;
    let mut last_t = 0u64;
    let mut writes_since_sync = 0u32;
    let mut write_counter = 0u64;
    let mut error: Option<String> = None;

    sh.ready.wait();
    sh.start.wait();
    let t0 = *sh.t0.get().expect("t0 set before start");
    let clock = || t0.elapsed().as_nanos() as u64;
    let m_start = sh.measure_start;

    loop {
        let m_end = sh.measure_end.load(Ordering::Relaxed);
        let end = sh.end.load(Ordering::Relaxed);
        let now = clock();
        let stopping = now >= end || error.is_some();
        let mut queued = 0;
        if !stopping {
            while inflight + queued < depth {
                let intended = match &mut pace {
                    Pace::Free => 0,
                    Pace::Iops { next, period } => {
                        if *next > now as f64 {
                            break;
                        }
                        let t = *next as u64;
                        *next += *period;
                        t
                    }
                    Pace::Bytes { next, .. } => {
                        if *next > now as f64 {
                            break;
                        }
                        *next as u64
                    }
                };
                let slot = free.pop().expect("a free slot below the depth");
                let (op, offset, len) = if spec.fsync_every > 0 && writes_since_sync >= spec.fsync_every {
                    writes_since_sync = 0;
                    (OpKind::Flush, 0, 0)
                } else {
                    gen.next_io()
                };
                if let Pace::Bytes { next, ns_per_byte } = &mut pace {
                    *next += len as f64 * *ns_per_byte;
                }
                if op == OpKind::Write {
                    writes_since_sync += 1;
                    write_counter += 1;
                    if spec.data != DataPattern::Zero {
                        data::stamp(&mut engine.buffer(slot)[..len as usize], spec.data, offset, write_counter);
                    }
                }
                slots[slot as usize] = Slot { submit: 0, intended, op: Some(op), len };
                batch.push(slot);
                engine.queue(IoReq { slot, file: a.file, op, offset, len });
                queued += 1;
            }
        }
        if inflight + queued == 0 && stopping {
            break;
        }
        let ts = if queued > 0 { clock() } else { now };
        if queued > 0 {
            rec.qd_area += window_overlap(last_t, ts, m_start, m_end) * inflight as f64;
            last_t = ts;
            let free_pace = matches!(pace, Pace::Free);
            for &b in &batch {
                let c = &mut slots[b as usize];
                c.submit = ts;
                if free_pace {
                    c.intended = ts;
                }
            }
            batch.clear();
            inflight += queued;
        }
        // How long to wait: until a completion, but no longer than the next paced start, the
        // end of the phase or 100 ms (to notice Ctrl-C).
        let mut wait = end.saturating_sub(ts).min(100_000_000);
        match &pace {
            Pace::Iops { next, .. } | Pace::Bytes { next, .. } if inflight < depth && !stopping => {
                wait = wait.min((*next as u64).saturating_sub(ts));
            }
            _ => {}
        }
        if inflight == 0 {
            if wait > 0 {
                std::thread::sleep(Duration::from_nanos(wait));
            }
            continue;
        }
        let min = if wait == 0 && !stopping { 0 } else { 1 };
        let n = match engine.submit_and_reap(&mut comps, min, Some(Duration::from_nanos(wait.max(1000)))) {
            Ok(n) => n,
            Err(e) => {
                error.get_or_insert_with(|| format!("submitting I/O: {e}"));
                sh.abort.store(true, Ordering::Relaxed);
                if inflight == 0 {
                    break;
                }
                continue;
            }
        };
        if n == 0 {
            continue;
        }
        let tc = clock();
        rec.qd_area += window_overlap(last_t, tc, m_start, m_end) * inflight as f64;
        last_t = tc;
        let counted = tc >= m_start && tc < m_end;
        let sec = if counted { ((tc - m_start) / 1_000_000_000) as u32 } else { 0 };
        if counted && sec != cur.sec {
            a.mailbox.flush(&mut cur, sec);
        }
        for c in &comps[..n] {
            let s = slots[c.slot as usize];
            slots[c.slot as usize].op = None;
            free.push(c.slot);
            inflight -= 1;
            let op = s.op.expect("completion for a queued slot");
            let ok = if op == OpKind::Flush { c.result >= 0 } else { c.result == s.len as i64 };
            if !ok {
                error.get_or_insert_with(|| describe_error(op, c.result, s.len));
                sh.abort.store(true, Ordering::Relaxed);
                continue;
            }
            if !counted {
                continue;
            }
            let svc = tc - s.submit;
            let resp = tc.saturating_sub(s.intended);
            match op {
                OpKind::Read => {
                    rec.read.record(svc);
                    if paced {
                        rec.resp_read.record(resp);
                    }
                    rec.read_bytes += s.len as u64;
                    cur.ios[0] += 1;
                    cur.bytes[0] += s.len as u64;
                }
                OpKind::Write => {
                    rec.write.record(svc);
                    if paced {
                        rec.resp_write.record(resp);
                    }
                    rec.write_bytes += s.len as u64;
                    cur.ios[1] += 1;
                    cur.bytes[1] += s.len as u64;
                }
                OpKind::Flush => {
                    rec.fsync.record(svc);
                    continue;
                }
            }
            cur.hist.record(svc);
        }
    }
    a.mailbox.flush(&mut cur, u32::MAX);
    match error {
        Some(e) => Err(e),
        None => Ok(rec),
    }
}

/// Length of [a, b) that falls inside [lo, hi), ns.
#[inline]
fn window_overlap(a: u64, b: u64, lo: u64, hi: u64) -> f64 {
    let s = a.max(lo);
    let e = b.min(hi);
    if e > s {
        (e - s) as f64
    } else {
        0.0
    }
}

fn describe_error(op: OpKind, result: i64, len: u32) -> String {
    let what = match op {
        OpKind::Read => "read",
        OpKind::Write => "write",
        OpKind::Flush => "fsync",
    };
    if result < 0 {
        format!("{what} failed: {}", std::io::Error::from_raw_os_error(-result as i32))
    } else {
        format!("{what} transferred {result} of {len} bytes")
    }
}

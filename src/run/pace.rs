//! Pacing and small helpers of the worker loop.

use crate::engine::OpKind;
use std::time::{Duration, Instant};

/// Pacing: the intended start of the next I/O, advanced by a fixed schedule so that a slow
/// device makes later I/Os late (and their response latency long) instead of silently
/// stretching the schedule (coordinated omission).
pub(super) enum Pace {
    Free,
    Iops { next: f64, period: f64 },
    Bytes { next: f64, ns_per_byte: f64 },
}

/// Length of [a, b) that falls inside [lo, hi), ns.
#[inline]
pub(super) fn window_overlap(a: u64, b: u64, lo: u64, hi: u64) -> f64 {
    let s = a.max(lo);
    let e = b.min(hi);
    if e > s {
        (e - s) as f64
    } else {
        0.0
    }
}

pub(super) fn describe_error(op: OpKind, result: i64, len: u32) -> String {
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

/// Sleeps until shortly before `t` (ns after `t0`), then spins: a plain sleep overshoots by tens
/// of µs, which would show up as response latency that is iolens's own.
pub(super) fn wait_until(t0: Instant, t: u64) {
    const SPIN_NS: u64 = 80_000;
    let clock = || t0.elapsed().as_nanos() as u64;
    let now = clock();
    if t > now + SPIN_NS {
        std::thread::sleep(Duration::from_nanos(t - now - SPIN_NS));
    }
    while clock() < t {
        std::hint::spin_loop();
    }
}

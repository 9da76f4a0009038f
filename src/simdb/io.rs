//! Every simulator I/O goes through here: timed, counted per file and per user, held back when
//! the file's running average I/O time passes the target (the throttle), and reported when it
//! stalls. A user's counters are its own; only the throttle gauge is shared, in atomics.

use crate::engine::vectored;
use crate::result::simdb::{SimdbFile, Stall, MAX_STALLS};
use crate::stats::{LatRec, SecondHist};
use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Read,
    ScatterRead,
    Write,
    GatherWrite,
    Flush,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Read => "read",
            Op::ScatterRead => "scatter read",
            Op::Write => "write",
            Op::GatherWrite => "gather write",
            Op::Flush => "flush",
        }
    }
}

/// A file's running average I/O duration and its throttle, shared by the users.
#[derive(Default)]
pub struct Gauge {
    /// Moving average over recent I/Os (each new one weighs 1/8), ns.
    avg_ns: AtomicU64,
    max_avg_ns: AtomicU64,
    in_flight: AtomicU32,
    throttled: AtomicU64,
}

impl Gauge {
    /// Waits while the running average is above the target and another I/O is in flight: the
    /// users cut their outstanding I/O to one until the average comes back down.
    fn enter(&self, target_ns: u64, stop: &AtomicBool) {
        if self.avg_ns.load(Ordering::Relaxed) > target_ns && self.in_flight.load(Ordering::Relaxed) > 0 {
            self.throttled.fetch_add(1, Ordering::Relaxed);
            while self.avg_ns.load(Ordering::Relaxed) > target_ns
                && self.in_flight.load(Ordering::Relaxed) > 0
                && !stop.load(Ordering::Relaxed)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        self.in_flight.fetch_add(1, Ordering::AcqRel);
    }

    /// A flush leaves the average alone: its time is how much dirty data there was to write
    /// back (on a loop device, the host's whole cache), not how long the device takes per
    /// request, and one slow flush would otherwise throttle an unthrottled device.
    fn exit(&self, ns: u64, op: Op) {
        self.in_flight.fetch_sub(1, Ordering::AcqRel);
        if op == Op::Flush {
            return;
        }
        let mut new = 0;
        let _ = self.avg_ns.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |a| {
            new = if a == 0 { ns } else { a - a / 8 + ns / 8 };
            Some(new)
        });
        self.max_avg_ns.fetch_max(new, Ordering::Relaxed);
    }

    pub fn fill(&self, f: &mut SimdbFile) {
        f.running_avg_io_ms = self.avg_ns.load(Ordering::Relaxed) as f64 / 1e6;
        f.max_running_avg_io_ms = self.max_avg_ns.load(Ordering::Relaxed) as f64 / 1e6;
        f.throttled = self.throttled.load(Ordering::Relaxed);
    }
}

/// When a user's current I/O started (ns since the start, plus one; 0: none in flight), on a
/// cache line of its own, so the run's clock can report an I/O that has not come back.
#[repr(align(64))]
#[derive(Default)]
pub struct Busy(pub AtomicU64);

/// What the users share besides the files: the clock, the stop flag, stalls and errors.
pub struct Ctx<'a> {
    pub start: Instant,
    pub stop: &'a AtomicBool,
    pub target_ns: u64,
    /// An I/O slower than this is a stall (`--stall-ms`).
    pub stall_ns: u64,
    pub stop_on_error: bool,
    pub stalls: Mutex<Vec<Stall>>,
    pub errors: Mutex<Vec<String>>,
    pub gauges: Vec<Gauge>,
    pub names: Vec<String>,
    /// One per user (`Meter::user`).
    pub busy: Vec<Busy>,
    /// Per user kind (`Meter::slot`), per second: the latency of its reads and writes. Each
    /// user hands its second over once it is past, so the lock is taken once a second.
    pub per_second: Vec<Mutex<Vec<SecondHist>>>,
}

impl Ctx<'_> {
    pub fn now_ns(&self) -> u64 {
        self.start.elapsed().as_nanos() as u64
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Records an error; with --stop-on-error it ends the run.
    pub fn error(&self, msg: String) {
        let mut e = self.errors.lock().unwrap_or_else(|e| e.into_inner());
        if e.len() < MAX_STALLS {
            e.push(msg);
        }
        if self.stop_on_error {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Counters of one file as one user saw it.
#[derive(Clone, Copy, Default)]
pub struct FileCount {
    pub reads: u64,
    pub scatter_reads: u64,
    pub writes: u64,
    pub gather_writes: u64,
    pub flushes: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    pub io_ns: u64,
    pub resizes: u64,
}

impl FileCount {
    pub fn add_to(&self, f: &mut SimdbFile) {
        f.reads += self.reads;
        f.scatter_reads += self.scatter_reads;
        f.writes += self.writes;
        f.gather_writes += self.gather_writes;
        f.flushes += self.flushes;
        f.bytes_read += self.bytes_read;
        f.bytes_written += self.bytes_written;
        f.total_io_ms += self.io_ns as f64 / 1e6;
        f.resizes += self.resizes;
    }
}

/// One user's measurements.
pub struct Meter {
    pub read: LatRec,
    pub write: LatRec,
    pub flush: LatRec,
    pub read_bytes: u64,
    pub write_bytes: u64,
    /// Index: data files, then the log.
    pub files: Vec<FileCount>,
    /// Per second since the start: read I/Os, write I/Os, bytes read, bytes written, and the
    /// slowest read or write (ns). Grown as seconds pass, up to `max_secs`, so memory follows
    /// the time run, not the time asked for.
    pub seconds: Vec<[u64; 5]>,
    max_secs: usize,
    /// Latency of this second's reads and writes, until handed over to `Ctx::per_second`.
    sec_hist: SecondHist,
    sec_now: usize,
    /// This user's kind's slot in `Ctx::per_second` (None: not kept).
    pub slot: Option<usize>,
    pub io_ns: u64,
    pub pages_written: u64,
    pub pages_checked: u64,
    /// This user's slot in `Ctx::busy`.
    pub user: usize,
}

impl Meter {
    pub fn new(files: usize, secs: usize) -> Meter {
        let mut m = Meter {
            read: LatRec::default(),
            write: LatRec::default(),
            flush: LatRec::default(),
            read_bytes: 0,
            write_bytes: 0,
            files: vec![FileCount::default(); files],
            seconds: vec![[0; 5]; 1],
            max_secs: secs.max(1),
            sec_hist: SecondHist::default(),
            sec_now: 0,
            slot: None,
            io_ns: 0,
            pages_written: 0,
            pages_checked: 0,
            user: 0,
        };
        for r in [&mut m.read, &mut m.write, &mut m.flush] {
            r.prefault();
        }
        m
    }

    /// Runs one I/O on file `fi` (`len` bytes at `off`, for the books), timed and counted.
    pub fn io(
        &mut self,
        ctx: &Ctx,
        fi: usize,
        op: Op,
        off: u64,
        len: usize,
        f: impl FnOnce() -> io::Result<usize>,
    ) -> io::Result<usize> {
        let g = &ctx.gauges[fi];
        g.enter(ctx.target_ns, ctx.stop);
        let t0 = Instant::now();
        let busy = &ctx.busy[self.user].0;
        busy.store((t0 - ctx.start).as_nanos() as u64 + 1, Ordering::Relaxed);
        let r = f();
        let ns = t0.elapsed().as_nanos() as u64;
        busy.store(0, Ordering::Relaxed);
        g.exit(ns, op);
        self.io_ns += ns;
        let sec = ((t0 - ctx.start).as_secs() as usize).min(self.max_secs - 1);
        if sec >= self.seconds.len() {
            // Once a second at most, and the Vec doubles: a new second costs no allocation
            // most of the time.
            self.seconds.resize(sec + 1, [0; 5]);
        }
        if op != Op::Flush {
            if sec != self.sec_now {
                self.hand_over(ctx);
                self.sec_now = sec;
            }
            self.sec_hist.record(ns);
            self.seconds[sec][4] = self.seconds[sec][4].max(ns);
        }
        let c = &mut self.files[fi];
        c.io_ns += ns;
        let done = *r.as_ref().unwrap_or(&0) as u64;
        match op {
            Op::Read | Op::ScatterRead => {
                if op == Op::Read {
                    c.reads += 1;
                } else {
                    c.scatter_reads += 1;
                }
                c.bytes_read += done;
                self.read.record(ns);
                self.read_bytes += done;
                self.seconds[sec][0] += 1;
                self.seconds[sec][2] += done;
            }
            Op::Write | Op::GatherWrite => {
                if op == Op::Write {
                    c.writes += 1;
                } else {
                    c.gather_writes += 1;
                }
                c.bytes_written += done;
                self.write.record(ns);
                self.write_bytes += done;
                self.seconds[sec][1] += 1;
                self.seconds[sec][3] += done;
            }
            Op::Flush => {
                c.flushes += 1;
                self.flush.record(ns);
            }
        }
        if ns > ctx.stall_ns {
            let mut s = ctx.stalls.lock().unwrap_or_else(|e| e.into_inner());
            if s.len() < MAX_STALLS {
                s.push(Stall {
                    file: ctx.names[fi].clone(),
                    offset: off,
                    op: op.name().into(),
                    ms: ns as f64 / 1e6,
                    at_s: (t0 - ctx.start).as_secs_f64(),
                });
            }
        }
        match &r {
            Err(e) => ctx.error(format!("{} of {len} bytes at {off} in {}: {e}", op.name(), ctx.names[fi])),
            Ok(n) if *n < len && matches!(op, Op::Write | Op::GatherWrite) => {
                ctx.error(format!("{} at {off} in {}: {n} of {len} bytes written", op.name(), ctx.names[fi]))
            }
            _ => {}
        }
        r
    }

    /// Gives the current second's latencies to the user kind's per-second histograms.
    pub fn hand_over(&mut self, ctx: &Ctx) {
        let Some(slot) = self.slot.filter(|_| !self.sec_hist.is_empty()) else { return };
        let mut all = ctx.per_second[slot].lock().unwrap_or_else(|e| e.into_inner());
        if all.len() <= self.sec_now {
            all.resize_with(self.sec_now + 1, SecondHist::default);
        }
        all[self.sec_now].add(&self.sec_hist);
        drop(all);
        self.sec_hist.clear();
    }

    pub fn read(&mut self, ctx: &Ctx, fi: usize, file: &File, buf: &mut [u8], off: u64) -> io::Result<usize> {
        let len = buf.len();
        self.io(ctx, fi, Op::Read, off, len, || vectored::read_at(file, buf, off))
    }

    pub fn write(&mut self, ctx: &Ctx, fi: usize, file: &File, buf: &[u8], off: u64) -> io::Result<usize> {
        self.io(ctx, fi, Op::Write, off, buf.len(), || vectored::write_at(file, buf, off))
    }

    pub fn flush(&mut self, ctx: &Ctx, fi: usize, file: &File) -> io::Result<()> {
        self.io(ctx, fi, Op::Flush, 0, 0, || vectored::flush(file).map(|_| 0)).map(|_| ())
    }
}

#[cfg(test)]
mod tests;

//! The log writer: sequential write-through records (512 B – 60 KB, O_DSYNC always, as a
//! database's log), each stamped with its LSN and the previous one's. When the log is full it
//! reads the pass back and checks the chain, then starts again at the beginning.

use super::io::{Ctx, Meter};
use super::log::{self, Broken};
use super::page_io::UserBuffers;
use super::{Kind, Sim};
use crate::result::verify::{Finding, FindingClass};
use rand::Rng;
use std::fs::File;
use std::sync::atomic::Ordering;

pub fn run(sim: &Sim, m: &mut Meter, h: &mut UserBuffers) {
    let unit = sim.cfg.unit;
    let li = sim.log_index();
    let mut lsn = 0u64;
    let mut off = 0u64;
    let mut pass_start = 1u64;
    let max_units = log::MAX_RECORD / unit;
    while !sim.ctx.stopped() {
        let len = h.rng.random_range(1..=max_units) * unit;
        if off + len as u64 > sim.log.size {
            check_pass(sim, m, h, pass_start, lsn);
            pass_start = lsn + 1;
            // The new pass is announced before any of its records is acknowledged, so a
            // journaled (acknowledged, pass start) pair never names a pass older than its LSN.
            sim.log.pass_start.store(pass_start, Ordering::Release);
            off = 0;
        }
        let buf = &mut h.buf.as_mut_slice()[..len];
        log::write_record(buf, sim.run_id, lsn + 1, lsn);
        match m.write(&sim.ctx, li, &sim.log.file, buf, off) {
            Ok(n) if n == len => {
                lsn += 1;
                off += len as u64;
                sim.log.acked.store(lsn, Ordering::Release);
                sim.log_records.fetch_add(1, Ordering::Relaxed);
            }
            _ => break,
        }
    }
    check_pass(sim, m, h, pass_start, lsn);
}

/// Reads the current pass back from offset 0: LSNs `first ..= last`, each after the one before.
fn check_pass(sim: &Sim, m: &mut Meter, h: &mut UserBuffers, first: u64, last: u64) {
    let w = Walk { ctx: &sim.ctx, fi: sim.log_index(), file: &sim.log.file, unit: sim.cfg.unit, run_id: sim.run_id };
    let (checked, bad) = w.walk(m, h.buf.as_mut_slice(), first, last, sim.log.size, sim.cfg.rereads, true);
    sim.log_checked.fetch_add(checked, Ordering::Relaxed);
    if let Some(f) = bad {
        sim.finding(Kind::Log, Finding { file: sim.log.path.display().to_string(), ..f });
    }
}

/// Reading a log's chain back.
pub struct Walk<'a> {
    pub ctx: &'a Ctx<'a>,
    pub fi: usize,
    pub file: &'a File,
    pub unit: usize,
    pub run_id: u64,
}

impl Walk<'_> {
    /// Reads records from offset 0, which must hold LSN `first`, until LSN `last` has been
    /// checked; stops at the first broken one and returns it as a finding (its `file` left for
    /// the caller) if `strict`, else as the end of the chain. Returns the records found intact
    /// too.
    #[allow(clippy::too_many_arguments)]
    pub fn walk(
        &self,
        m: &mut Meter,
        buf: &mut [u8],
        first: u64,
        last: u64,
        size: u64,
        rereads: u32,
        strict: bool,
    ) -> (u64, Option<Finding>) {
        let mut off = 0u64;
        let mut checked = 0;
        for want in first..=last {
            match self.one(m, buf, off, want, size) {
                Ok(len) => {
                    checked += 1;
                    off += len as u64;
                }
                Err(_) if !strict => return (checked, None),
                Err((len, broken)) => {
                    let mut bad_rereads = 0;
                    for _ in 0..rereads {
                        if self.one(m, buf, off, want, size).is_err() {
                            bad_rereads += 1;
                        }
                    }
                    let f = Finding {
                        file: String::new(),
                        offset: off,
                        len: len as u32,
                        class: FindingClass::Log,
                        expected_gen: want,
                        found_gen: broken.found_lsn(),
                        found_offset: None,
                        found_file: None,
                        diff_at: 0,
                        diff: broken.describe(want, want - 1),
                        rereads,
                        bad_rereads,
                        at_s: self.ctx.start.elapsed().as_secs_f64(),
                    };
                    return (checked, Some(f));
                }
            }
        }
        (checked, None)
    }

    /// One record at `off`: its length, or the length looked at and what is wrong.
    fn one(&self, m: &mut Meter, buf: &mut [u8], off: u64, want: u64, size: u64) -> Result<usize, (usize, Broken)> {
        let unit = self.unit;
        if off + unit as u64 > size {
            return Err((0, Broken::Missing));
        }
        buf[..unit].fill(0);
        if !matches!(m.read(self.ctx, self.fi, self.file, &mut buf[..unit], off), Ok(n) if n == unit) {
            return Err((unit, Broken::Missing));
        }
        let Some((len, ..)) = log::header(&buf[..unit], unit) else { return Err((unit, Broken::Missing)) };
        if len > unit {
            if off + len as u64 > size {
                return Err((unit, Broken::Missing));
            }
            let rest = &mut buf[unit..len];
            if !matches!(m.read(self.ctx, self.fi, self.file, rest, off + unit as u64), Ok(n) if n == len - unit) {
                return Err((len, Broken::Missing));
            }
        }
        log::check(&buf[..len], unit, self.run_id, want, want - 1).map_err(|b| (len, b))
    }
}

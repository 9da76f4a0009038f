//! A self-test of data verification (`run --verify --inject …`): wraps any engine and breaks a
//! chosen fraction of its I/Os, counting what it broke, so that a run can compare the faults
//! injected with the pages found bad, class by class. Seeded: a run repeats its faults.
//!
//! Each fault is placed on the side of the I/O where it is found as exactly one class:
//! - lost (writes): acknowledged, never issued → the next read finds the older page: stale;
//! - torn (writes): only the first half of the page (whole units) is written → torn; pages of
//!   a single unit cannot tear and are left alone;
//! - misdirect (reads): read from the neighbouring page → stamped for another address:
//!   misdirected. On the write side it would also leave the intended page stale, two findings
//!   for one fault;
//! - bitflip (reads): one bit of the data read is flipped → its unit's CRC fails: corrupt;
//! - unread (reads): acknowledged, never issued → the buffer keeps its marker: never read.
//!
//! Read faults are transient (a re-read finds the page good); write faults stay on the medium.

use super::{Completion, Engine, IoReq, OpKind};
use crate::result::verify::Injected;
use crate::workload::verify::Inject;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::io;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    Lost,
    /// The length the runner asked for; half of it was issued.
    Torn(u32),
    Misdirect,
    Bitflip,
    Unread,
}

pub struct Injecting<E> {
    inner: E,
    rates: Inject,
    rng: SmallRng,
    unit: u32,
    /// The tested region [start, end): a misdirected read stays inside it.
    region: (u64, u64),
    faults: Vec<Fault>,
    /// Completions of I/Os never handed to the inner engine (lost, unread).
    made_up: Vec<Completion>,
    injected: Injected,
}

impl<E: Engine> Injecting<E> {
    pub fn new(inner: E, rates: Inject, seed: u64, unit: u32, region: (u64, u64)) -> Self {
        let depth = inner.max_depth() as usize;
        Injecting {
            inner,
            rates,
            rng: SmallRng::seed_from_u64(seed ^ 0x1a7e_c7ed),
            unit,
            region,
            faults: vec![Fault::None; depth],
            made_up: Vec::with_capacity(depth),
            injected: Injected::default(),
        }
    }

    fn choose(&mut self, req: &IoReq) -> Fault {
        let u: f64 = self.rng.random();
        let r = &self.rates;
        match req.op {
            OpKind::Write if u < r.lost => Fault::Lost,
            OpKind::Write if u < r.lost + r.torn && req.len >= 2 * self.unit => Fault::Torn(req.len),
            OpKind::Read if u < r.misdirect && self.elsewhere(req).is_some() => Fault::Misdirect,
            OpKind::Read if u < r.misdirect + r.bitflip => Fault::Bitflip,
            OpKind::Read if u < r.misdirect + r.bitflip + r.unread => Fault::Unread,
            _ => Fault::None,
        }
    }

    /// The neighbouring page inside the region: the next one, or the previous at the end.
    fn elsewhere(&self, req: &IoReq) -> Option<u64> {
        let len = req.len as u64;
        if req.offset + 2 * len <= self.region.1 {
            Some(req.offset + len)
        } else if req.offset >= self.region.0 + len {
            Some(req.offset - len)
        } else {
            None
        }
    }
}

impl<E: Engine> Engine for Injecting<E> {
    fn max_depth(&self) -> u32 {
        self.inner.max_depth()
    }

    fn buffer(&mut self, slot: u32) -> &mut [u8] {
        self.inner.buffer(slot)
    }

    fn queue(&mut self, req: IoReq) {
        let fault = self.choose(&req);
        self.faults[req.slot as usize] = fault;
        match fault {
            Fault::Lost | Fault::Unread => self.made_up.push(Completion { slot: req.slot, result: req.len as i64 }),
            Fault::Torn(len) => {
                let half = (len / 2) / self.unit * self.unit;
                self.inner.queue(IoReq { len: half, ..req });
            }
            Fault::Misdirect => {
                let offset = self.elsewhere(&req).expect("chosen only with a neighbour");
                self.inner.queue(IoReq { offset, ..req });
            }
            Fault::None | Fault::Bitflip => self.inner.queue(req),
        }
    }

    fn submit_and_reap(&mut self, out: &mut [Completion], min: usize, timeout: Option<Duration>) -> io::Result<usize> {
        let mut n = 0;
        while n < out.len() {
            let Some(c) = self.made_up.pop() else { break };
            out[n] = c;
            n += 1;
        }
        // Made-up and real completions hold different slots, so the rest of `out` has room for
        // everything the inner engine holds; with none left it holds nothing.
        if n < out.len() {
            n += self.inner.submit_and_reap(&mut out[n..], if n > 0 { 0 } else { min }, timeout)?;
        }
        for c in &mut out[..n] {
            let slot = c.slot as usize;
            let fault = std::mem::replace(&mut self.faults[slot], Fault::None);
            let issued_whole = match fault {
                Fault::Torn(len) => {
                    let half = (len / 2) / self.unit * self.unit;
                    let ok = c.result == half as i64;
                    if ok {
                        c.result = len as i64;
                    }
                    ok
                }
                _ => c.result >= 0,
            };
            if !issued_whole {
                continue;
            }
            match fault {
                Fault::None => {}
                Fault::Lost => self.injected.lost += 1,
                Fault::Torn(_) => self.injected.torn += 1,
                Fault::Misdirect => self.injected.misdirect += 1,
                Fault::Unread => self.injected.unread += 1,
                Fault::Bitflip => {
                    let len = c.result as usize;
                    if len > 0 {
                        let bit = self.rng.random_range(0..len * 8);
                        self.inner.buffer(c.slot)[bit / 8] ^= 1 << (bit % 8);
                        self.injected.bitflip += 1;
                    }
                }
            }
        }
        Ok(n)
    }

    fn notice(&self) -> Option<String> {
        self.inner.notice()
    }
    fn take_submits(&mut self) -> u64 {
        self.inner.take_submits()
    }
    fn synchronous(&self) -> bool {
        self.inner.synchronous()
    }

    fn injected(&self) -> Option<Injected> {
        Some(self.injected)
    }
}

#[cfg(test)]
mod tests;

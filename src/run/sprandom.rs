//! fio's sprandom: preconditioning a flash device to its random-write steady state in one
//! pass over its physical capacity, after Desnoyers' model ("Analytic Models of SSD Write
//! Performance", ACM TOS 8(2), 2012).
//!
//! The device's physical size (logical × (1 + OP)) is cut into equal regions and each is
//! given the validity that curve puts at its place; the regions are then written in turn with
//! offsets of a random permutation of the logical blocks, and each offset written is, with the
//! region's invalid share as probability, written again at the start of the next region (with a
//! device cache, at the end of it, so that both writes are never in the cache together), which
//! leaves each region as invalid as the model says.

use crate::workload::sprandom::{physical_size, validity, Settings};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

/// The invalid share of a region in 1/PRECISION.
const PRECISION: u32 = 10_000;

/// The stream of block indices that preconditions one file.
pub struct SpRandom {
    invalid: Vec<u32>,
    region_writes: u64,
    cache: bool,
    region: usize,
    remaining: u64,
    /// Offsets to write again: kept while their region is written, then ready in the next.
    staged: Vec<u64>,
    ready: VecDeque<u64>,
    /// How many offsets each phase (the region being written, the next) holds back.
    held: [u64; 2],
    phase: usize,
    perm: Permutation,
    rng: SmallRng,
}

impl SpRandom {
    /// Over `blocks` logical blocks of `bs` bytes (checked with `check` before).
    pub fn new(s: Settings, blocks: u64, bs: u64, seed: u64) -> SpRandom {
        let v = validity(s.regions, s.op);
        let invalid = v.iter().map(|vi| ((1.0 - vi) * f64::from(PRECISION)).round() as u32).collect();
        let region_writes = (physical_size(s.op, blocks * bs, bs) / u64::from(s.regions.max(1)) / bs).max(1);
        // The held-back offsets of one region: its mean plus six standard deviations, twice
        // that when they wait a region longer for the cache.
        let p = 1.0 - v[0];
        let cap = (region_writes as f64 * p + 6.0 * (region_writes as f64 * p * (1.0 - p)).sqrt()).ceil() as usize;
        let cap = if s.cache > 0 { cap * 2 } else { cap } + 1;
        SpRandom {
            invalid,
            region_writes,
            cache: s.cache > 0,
            region: 0,
            remaining: region_writes,
            staged: Vec::with_capacity(cap),
            ready: VecDeque::with_capacity(cap),
            held: [0, 0],
            phase: 0,
            perm: Permutation::new(blocks, seed),
            rng: SmallRng::seed_from_u64(seed ^ 0x5350_5241_4e44),
        }
    }

    /// Starts over: a new pass of preconditioning (when a job writes on past the first).
    pub fn restart(&mut self, seed: u64) {
        self.region = 0;
        self.remaining = self.region_writes;
        self.staged.clear();
        self.ready.clear();
        self.held = [0, 0];
        self.phase = 0;
        self.perm = Permutation::new(self.perm.n, seed);
    }

    /// The next block to write; None once every region is written or every block was new.
    pub fn next(&mut self) -> Option<u64> {
        if !self.cache {
            // The previous region's invalidations come first in the next one.
            if let Some(b) = self.ready.pop_front() {
                self.hold(b, self.phase ^ 1);
                return Some(b);
            }
        }
        if self.remaining == 0 {
            if self.cache {
                if let Some(b) = self.ready.pop_front() {
                    self.hold(b, self.phase ^ 1);
                    return Some(b);
                }
            }
            if self.region >= self.invalid.len() {
                return None;
            }
            self.held[self.phase] = 0;
            self.region += 1;
            self.phase ^= 1;
            self.remaining = self.region_writes.saturating_sub(self.held[self.phase]);
            self.ready.extend(self.staged.drain(..));
        }
        let Some(b) = self.perm.next() else {
            return if self.cache { self.ready.pop_front() } else { None };
        };
        self.remaining = self.remaining.saturating_sub(1);
        self.hold(b, self.phase ^ 1);
        Some(b)
    }

    fn hold(&mut self, b: u64, phase: usize) {
        let share = self.invalid[self.region.min(self.invalid.len() - 1)];
        if self.rng.random_range(0..=PRECISION) <= share {
            self.staged.push(b);
            self.held[phase] += 1;
        }
    }
}

/// Every index below `n` once, in an order no plainer than a full-period LCG over the next
/// power of two gives (those at or past `n` skipped).
struct Permutation {
    x: u64,
    left: u64,
    n: u64,
    mask: u64,
    mul: u64,
    inc: u64,
}

impl Permutation {
    fn new(n: u64, seed: u64) -> Permutation {
        let mask = n.max(2).next_power_of_two() - 1;
        // Hull–Dobell: c odd, a ≡ 1 (mod 4) gives a full period modulo a power of two.
        let mul = (seed.rotate_left(17) & mask & !3) | 5;
        Permutation { x: seed & mask, left: n, n, mask, mul, inc: (seed >> 7) | 1 }
    }

    fn next(&mut self) -> Option<u64> {
        if self.left == 0 {
            return None;
        }
        loop {
            self.x = self.x.wrapping_mul(self.mul).wrapping_add(self.inc) & self.mask;
            if self.x < self.n {
                self.left -= 1;
                return Some(self.x);
            }
        }
    }
}

#[cfg(test)]
mod tests;

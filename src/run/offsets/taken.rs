//! fio's random map with several block sizes: which `align` units this pass has covered.

use super::Visit;
use rand::rngs::SmallRng;

pub(super) struct Taken {
    bits: Vec<u64>,
    units: u64,
    /// Units not yet covered this pass; at 0 a new pass starts.
    free: u64,
    visit: Visit,
}

impl Taken {
    pub(super) fn new(units: u64, rng: &mut SmallRng) -> Taken {
        Taken { bits: vec![0; units.div_ceil(64) as usize], units, free: units, visit: Visit::new(units, rng) }
    }

    /// A fresh pass from the visit's start (a strided walk's next zone).
    pub(super) fn restart(&mut self) {
        self.bits.fill(0);
        self.free = self.units;
        self.visit.restart();
    }

    #[inline]
    fn is_set(&self, u: u64) -> bool {
        self.bits[(u / 64) as usize] & (1 << (u % 64)) != 0
    }

    /// A uncovered unit in random order, and how many units from it (at most `want`) this I/O
    /// covers: it stops short of units already covered, as fio's mark_random_map shortens the
    /// I/O, so that a pass covers each unit exactly once.
    #[inline]
    pub(super) fn take(&mut self, want: u64) -> (u64, u64) {
        if self.free == 0 {
            self.bits.fill(0);
            self.free = self.units;
        }
        // The visit is a permutation of the units, so an uncovered one comes within a pass.
        let first = loop {
            let u = self.visit.next();
            if !self.is_set(u) {
                break u;
            }
        };
        let mut n = 0;
        while n < want && first + n < self.units && !self.is_set(first + n) {
            let u = first + n;
            self.bits[(u / 64) as usize] |= 1 << (u % 64);
            n += 1;
        }
        self.free -= n;
        (first, n)
    }
}

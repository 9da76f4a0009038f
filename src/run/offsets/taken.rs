//! fio's random map with several block sizes: which `align` units this pass has covered.

use rand::rngs::SmallRng;
use rand::Rng;

pub(super) struct Taken {
    bits: Vec<u64>,
    units: u64,
    /// Units a draw lands on: those where the smallest block still fits (fio's last_block).
    draws: u64,
    /// Units not yet covered this pass; at 0 a new pass starts.
    free: u64,
}

impl Taken {
    pub(super) fn new(units: u64, draws: u64) -> Taken {
        Taken { bits: vec![0; units.div_ceil(64) as usize], units, draws: draws.clamp(1, units.max(1)), free: units }
    }

    /// A fresh pass (a strided walk's next zone).
    pub(super) fn restart(&mut self) {
        self.bits.fill(0);
        self.free = self.units;
    }

    #[inline]
    fn is_set(&self, u: u64) -> bool {
        self.bits[(u / 64) as usize] & (1 << (u % 64)) != 0
    }

    /// The first uncovered unit after `u`, wrapping at the end (fio's axmap_next_free).
    #[inline]
    fn next_free(&self, u: u64) -> u64 {
        let from = if u + 1 >= self.units { 0 } else { u + 1 };
        let scan = |lo: u64, hi: u64| -> Option<u64> {
            let mut w = lo / 64;
            let mut mask = !0u64 << (lo % 64);
            while w * 64 < hi {
                let open = !self.bits[w as usize] & mask;
                if open != 0 {
                    let at = w * 64 + open.trailing_zeros() as u64;
                    return (at < hi).then_some(at);
                }
                (w, mask) = (w + 1, !0);
            }
            None
        };
        scan(from, self.units).or_else(|| scan(0, self.units)).expect("a pass ends when no unit is free")
    }

    /// A random uncovered unit, and how many units from it (at most `want`) this I/O covers.
    /// As fio's random map: a unit drawn at random, or the next uncovered one after it when it
    /// is covered; the I/O stops short of units already covered (fio's mark_random_map), so a
    /// pass covers each unit exactly once and its holes are filled from their start.
    #[inline]
    pub(super) fn take(&mut self, want: u64, rng: &mut SmallRng) -> (u64, u64) {
        if self.free == 0 {
            self.restart();
        }
        let u = rng.random_range(0..self.draws);
        let first = if self.is_set(u) { self.next_free(u) } else { u };
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

//! Where each I/O goes and what it is: read or write, its length and its offset. One generator
//! per worker, seeded from the spec's seed and the worker's index so runs repeat exactly.

use crate::engine::OpKind;
use crate::workload::{Pattern, RandomDist, Spec};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Zipf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use taken::Taken;

mod service;
mod taken;

pub use service::Walk;

enum Skew {
    Uniform,
    Zipf(Zipf<f64>),
    /// fio's pareto: rank = (n-1) · u^pow with pow = ln h / ln(1-h).
    Pareto(f64),
    /// fio's zoned: per zone (cumulative I/O percentage, start and length in percent of the range).
    Zoned(Vec<(u32, u64, u64)>),
    /// fio's sequence: block indices in turn, each round `step` blocks on (0: in place).
    Sequence(Vec<u64>, u64),
    /// fio's sprandom for writes: its stream of blocks, and alignment units per block.
    SpRandom(Box<super::sprandom::SpRandom>, u64),
}

pub struct OffsetGen {
    rng: SmallRng,
    pattern: Pattern,
    read_pct: u32,
    /// (size, cumulative percentage) per block size, for reads and for writes.
    blocks: [Vec<(u64, u32)>; 2],
    /// fio's bs_unaligned and bsrange: (smallest, largest, step) length of reads and of
    /// writes, any multiple of the step between (1 unaligned, the smallest for a bsrange).
    unaligned: [Option<(u64, u64, u64)>; 2],
    start: u64,
    len: u64,
    align: u64,
    skew: Skew,
    /// Odd multiplier coprime with the slot count: spreads the hot ranks of a skewed
    /// distribution over the whole range, as fio scrambles its zipf/pareto output.
    scatter: u64,
    seq_pos: u64,
    seq_skip: i64,
    /// I/Os drawn per direction, which fio's sequence distribution steps by.
    issued: [u64; 2],
    rand32: bool,
    /// The position the threads of a target share (DiskSpd's -si): each I/O takes the next
    /// step with one atomic add, no lock.
    shared: Option<Arc<AtomicU64>>,
    /// Every slot once per pass (fio's random map); None: independent draws.
    map: Option<Visit>,
    /// fio's strided zones: offsets are drawn in `len` (one zone) and moved to the zone.
    zones: Option<ZoneWalk>,
    /// The random map with several block sizes: every `align` unit once per pass.
    taken: Option<Taken>,
    /// Every I/O is a trim, followed by a write of the same range (fio's trimwrite).
    trim_write: bool,
    /// The write that follows the trim just returned.
    pending_write: Option<(u64, u32)>,
    /// Bytes one pass over the region moves (a sequential walk's whole blocks, a random map's
    /// covered blocks).
    pass: u64,
}

/// Where a strided walk stands: the zone's start in the region, bytes done in it, and the
/// walk's constants.
struct ZoneWalk {
    at: u64,
    done: u64,
    size: u64,
    step: u64,
    region: u64,
}

/// A full-period linear congruential sequence over the next power of two at or above the slot
/// count, values past the count skipped: a random order visiting every slot once per pass, in
/// constant memory however large the file. Its multiplier is 1 mod 4 and its increment odd
/// (Hull–Dobell), so no value repeats within a pass.
struct Visit {
    x: u64,
    /// Where the sequence began: a walk that restarts here starts a fresh pass.
    x0: u64,
    mul: u64,
    inc: u64,
    mask: u64,
    slots: u64,
}

impl Visit {
    fn new(slots: u64, rng: &mut SmallRng) -> Visit {
        let mask = slots.max(2).next_power_of_two() - 1;
        let x = rng.random::<u64>() & mask;
        Visit { x, x0: x, mul: (rng.random::<u64>() << 2) | 1, inc: rng.random::<u64>() | 1, mask, slots }
    }

    fn restart(&mut self) {
        self.x = self.x0;
    }

    #[inline]
    fn next(&mut self) -> u64 {
        loop {
            self.x = self.x.wrapping_mul(self.mul).wrapping_add(self.inc) & self.mask;
            if self.x < self.slots {
                return self.x;
            }
        }
    }
}

impl OffsetGen {
    /// `target_size` is the size of this worker's target; `worker` counts threads of a target.
    pub fn new(spec: &Spec, target_size: u64, worker: u32, seed_salt: u64) -> OffsetGen {
        // With an offset increment each worker has a region of its own (checked to fit).
        let start = spec.worker_offset(worker);
        let region = spec.range.unwrap_or(target_size - start);
        // A strided walk draws its offsets within one zone, then moves them to the zone.
        let zones = spec.strided.map(|z| ZoneWalk { at: 0, done: 0, size: z.size, step: z.range + z.skip, region });
        let len = spec.strided.map_or(region, |z| z.range.min(region));
        let align = spec.effective_align();
        let table = |b: &[crate::workload::BlockShare]| {
            let mut acc = 0;
            b.iter()
                .map(|b| {
                    acc += b.pct;
                    (b.size, acc)
                })
                .collect::<Vec<_>>()
        };
        let blocks = [table(&spec.blocks), table(spec.write_blocks.as_deref().unwrap_or(&spec.blocks))];
        let span =
            |b: &Vec<(u64, u32)>| (b.iter().map(|b| b.0).min().unwrap_or(0), b.iter().map(|b| b.0).max().unwrap_or(0));
        let unaligned = [0, 1].map(|d| {
            let (lo, hi) = span(&blocks[d]);
            (spec.unaligned || spec.ranged).then_some((lo, hi, if spec.unaligned { 1 } else { lo.max(1) }))
        });
        let slots = Self::slot_count(len, spec.min_block(), align);
        let skew = match spec.random_dist.clone() {
            RandomDist::Uniform => Skew::Uniform,
            RandomDist::Zipf { theta } => Skew::Zipf(Zipf::new(slots as f64, theta).expect("validated theta")),
            RandomDist::Pareto { h } => Skew::Pareto(h.ln() / (1.0 - h).ln()),
            RandomDist::Zoned { io, range, n } => {
                let (mut cum, mut at) = (0, 0);
                let zones = (0..n as usize).map(|i| {
                    cum += io[i] as u32;
                    at += range[i] as u64;
                    (cum, at - range[i] as u64, range[i] as u64)
                });
                Skew::Zoned(zones.collect())
            }
            RandomDist::Sequence { blocks, stride } => {
                let step = if stride { blocks.len() as u64 } else { 0 };
                Skew::Sequence(blocks.into_iter().map(u64::from).collect(), step)
            }
            RandomDist::SpRandom(s) => {
                let bs = blocks[1][0].0.max(align);
                let seed = spec.seed ^ seed_salt.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5350;
                Skew::SpRandom(Box::new(super::sprandom::SpRandom::new(s, len / bs, bs, seed)), bs / align)
            }
        };
        let scatter = [0x9e37_79b9_7f4a_7c15u64 | 1, 1_000_000_007, 998_244_353, 1_000_003]
            .into_iter()
            .find(|p| gcd(*p % slots.max(1), slots) == 1)
            .unwrap_or(1);
        // Sequential streams of one target start spread over a shared range, each wrapping
        // around it, so threads do not read the same blocks in lock step.
        let stride = if spec.offset_increment > 0 { 0 } else { (len / spec.threads as u64) / align * align };
        let mut rng = SmallRng::seed_from_u64(spec.seed ^ seed_salt.wrapping_mul(0x2545_f491_4f6c_dd1d));
        let one_size = spec.min_block() == spec.max_block();
        let mapped = spec.random_map && matches!(skew, Skew::Uniform);
        let map = (mapped && one_size).then(|| Visit::new(slots, &mut rng));
        // fio draws among the units where its smallest block still fits (its last_block).
        let draws = len.saturating_sub(spec.min_block().saturating_sub(align)) / align;
        let taken = (mapped && !one_size).then(|| Taken::new(len / align, draws));
        let bs = spec.min_block();
        let pass = match (spec.pattern, one_size) {
            (Pattern::Sequential, true) if spec.seq_skip > 0 && len >= bs => {
                ((len - bs) / (bs + spec.seq_skip as u64) + 1) * bs
            }
            (Pattern::Sequential, true) => len / bs * bs,
            (Pattern::Random, true) if map.is_some() => slots * bs,
            _ => len / align * align,
        };
        OffsetGen {
            rng,
            pattern: spec.pattern,
            read_pct: spec.read_pct,
            blocks,
            unaligned,
            start,
            len,
            align,
            skew,
            scatter,
            seq_pos: stride * worker as u64,
            seq_skip: spec.seq_skip,
            issued: [0; 2],
            rand32: spec.rand32,
            shared: None,
            map,
            zones,
            taken,
            trim_write: spec.trim_write,
            pending_write: None,
            pass,
        }
    }

    /// Walks sequentially from a position shared with the target's other threads.
    pub fn sharing(mut self, pos: Arc<AtomicU64>) -> OffsetGen {
        self.shared = Some(pos);
        self
    }

    pub fn pass_bytes(&self) -> u64 {
        self.pass
    }

    /// The next I/O is the write of the trim just returned.
    pub fn pending_write(&self) -> bool {
        self.pending_write.is_some()
    }

    fn slot_count(len: u64, bs: u64, align: u64) -> u64 {
        (len - bs) / align + 1
    }

    /// The next I/O: (read, write or trim, offset, length). With trim_write a trim, then the
    /// write of its range.
    #[inline]
    pub fn next_io(&mut self) -> (OpKind, u64, u32) {
        if let Some((off, len)) = self.pending_write.take() {
            return (OpKind::Write, off, len);
        }
        let (op, off, len) = self.draw();
        if self.trim_write {
            self.pending_write = Some((off, len));
            return (OpKind::Trim, off, len);
        }
        (op, off, len)
    }

    #[inline]
    fn draw(&mut self) -> (OpKind, u64, u32) {
        let op = if self.read_pct == 100 || (self.read_pct > 0 && self.rng.random_range(0..100) < self.read_pct) {
            OpKind::Read
        } else {
            OpKind::Write
        };
        let dir = usize::from(op == OpKind::Write);
        let blocks = &self.blocks[dir];
        let mut bs = if let Some((lo, hi, step)) = self.unaligned[dir] {
            // fio's draw: the smallest plus up to the largest, capped at the largest (which is
            // then the most frequent length unaligned), in whole steps.
            (lo + self.rng.random_range(0..hi)).min(hi) / step * step
        } else if blocks.len() == 1 {
            blocks[0].0
        } else {
            let r = self.rng.random_range(0..100);
            blocks.iter().find(|b| r < b.1).map_or(blocks[0].0, |b| b.0)
        };
        let off = match self.pattern {
            Pattern::Sequential if self.shared.is_some() => {
                // One block size (DiskSpd's -b): the region holds whole steps, and the shared
                // count wraps within them as DiskSpd's interlocked offset does.
                let step = (bs as i64 + self.seq_skip).max(bs as i64) as u64;
                let steps = ((self.len.saturating_sub(bs)) / step + 1).max(1);
                let n = self.shared.as_ref().map_or(0, |p| p.fetch_add(1, Ordering::Relaxed));
                (n % steps) * step
            }
            Pattern::Sequential => {
                if self.seq_pos + bs > self.len {
                    // fio draws lengths until one fits before the end; with none, it wraps.
                    let (pos, len) = (self.seq_pos, self.len);
                    let fits = match self.unaligned[dir] {
                        Some((lo, _, step)) => Some(len.saturating_sub(pos) / step * step).filter(|&rest| rest >= lo),
                        None => blocks.iter().map(|b| b.0).filter(|&s| pos + s <= len).max(),
                    };
                    match fits {
                        Some(s) => bs = s,
                        None => self.seq_pos = 0,
                    }
                }
                let o = self.seq_pos;
                let next = o as i64 + bs as i64 + self.seq_skip;
                // Stepping back past the start wraps to the last block, as fio's backwards I/O.
                self.seq_pos = if next < 0 { (self.len - bs) / self.align * self.align } else { next as u64 };
                o
            }
            Pattern::Random if self.taken.is_some() => {
                let t = self.taken.as_mut().expect("checked");
                let (unit, n) = t.take(bs.div_ceil(self.align), &mut self.rng);
                bs = bs.min(n * self.align);
                unit * self.align
            }
            Pattern::Random => {
                let slots = Self::slot_count(self.len, bs, self.align);
                let idx = self.random_slot(slots, dir);
                idx * self.align
            }
        };
        let zone = self.zones.as_mut().map_or(0, |z| z.at);
        if let Some(z) = &mut self.zones {
            z.done += bs;
            if z.done >= z.size {
                // The next zone, from the region's start again past its end; its I/O begins
                // where a zone's always does: a fresh pass, the first block.
                z.done = 0;
                z.at += z.step;
                if z.at + self.len > z.region {
                    z.at = 0;
                }
                self.seq_pos = 0;
                if let Some(m) = &mut self.map {
                    m.restart();
                }
                if let Some(t) = &mut self.taken {
                    t.restart();
                }
            }
        }
        (op, self.start + zone + off, bs as u32)
    }

    /// The slot a random I/O of direction `dir` lands on, out of `slots`, by the distribution.
    #[inline]
    fn random_slot(&mut self, slots: u64, dir: usize) -> u64 {
        if let (Skew::SpRandom(sp, per), 1) = (&mut self.skew, dir) {
            let b = match sp.next() {
                Some(b) => b,
                None => {
                    // Past one preconditioning pass (a job that writes on): another.
                    sp.restart(self.rng.random());
                    sp.next().unwrap_or(0)
                }
            };
            self.issued[dir] += 1;
            return b * *per;
        }
        let idx = match &self.skew {
            Skew::Uniform if self.map.is_some() => self.map.as_mut().map_or(0, Visit::next),
            // Scaled as fio scales its 32-bit generator's output to the range.
            Skew::Uniform if self.rand32 => ((u128::from(self.rng.random::<u32>()) * u128::from(slots)) >> 32) as u64,
            Skew::Uniform => self.rng.random_range(0..slots),
            Skew::Zipf(z) => {
                let rank = z.sample(&mut self.rng) as u64 - 1;
                scatter(rank, self.scatter, slots)
            }
            Skew::Pareto(pow) => {
                let u: f64 = self.rng.random();
                scatter(((slots - 1) as f64 * u.powf(*pow)) as u64, self.scatter, slots)
            }
            Skew::Zoned(zones) => {
                let r = self.rng.random_range(0..100);
                let &(_, start, len) = zones.iter().find(|z| r < z.0).unwrap_or(&zones[zones.len() - 1]);
                let first = slots * start / 100;
                let n = (slots * len / 100).max(1);
                (first + self.rng.random_range(0..n)).min(slots - 1)
            }
            Skew::SpRandom(..) => self.rng.random_range(0..slots),
            Skew::Sequence(seq, step) => {
                let n = self.issued[dir];
                let len = seq.len() as u64;
                // Past the range's end a strided walk starts over at its first group.
                (n / len * step + seq[(n % len) as usize]) % slots.max(1)
            }
        };
        self.issued[dir] += 1;
        idx
    }
}

#[inline]
fn scatter(rank: u64, mult: u64, slots: u64) -> u64 {
    ((rank as u128 * mult as u128) % slots as u128) as u64
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests;

//! Where each I/O goes and what it is: read or write, its length and its offset. One generator
//! per worker, seeded from the spec's seed and the worker's index so runs repeat exactly.

use crate::engine::OpKind;
use crate::workload::{Pattern, RandomDist, Spec};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Zipf};

enum Skew {
    Uniform,
    Zipf(Zipf<f64>),
    /// fio's pareto: rank = (n-1) · u^pow with pow = ln h / ln(1-h).
    Pareto(f64),
    /// fio's zoned: per zone (cumulative I/O percentage, start and length in percent of the range).
    Zoned(Vec<(u32, u64, u64)>),
}

pub struct OffsetGen {
    rng: SmallRng,
    pattern: Pattern,
    read_pct: u32,
    /// (size, cumulative percentage) per block size, for reads and for writes.
    blocks: [Vec<(u64, u32)>; 2],
    start: u64,
    len: u64,
    align: u64,
    skew: Skew,
    /// Odd multiplier coprime with the slot count: spreads the hot ranks of a skewed
    /// distribution over the whole range, as fio scrambles its zipf/pareto output.
    scatter: u64,
    seq_pos: u64,
    seq_skip: i64,
}

impl OffsetGen {
    /// `target_size` is the size of this worker's target; `worker` counts threads of a target.
    pub fn new(spec: &Spec, target_size: u64, worker: u32, seed_salt: u64) -> OffsetGen {
        // With an offset increment each worker has a region of its own (checked to fit).
        let start = spec.worker_offset(worker);
        let len = spec.range.unwrap_or(target_size - start);
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
        let slots = Self::slot_count(len, spec.min_block(), align);
        let skew = match spec.random_dist {
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
        };
        let scatter = [0x9e37_79b9_7f4a_7c15u64 | 1, 1_000_000_007, 998_244_353, 1_000_003]
            .into_iter()
            .find(|p| gcd(*p % slots.max(1), slots) == 1)
            .unwrap_or(1);
        // Sequential streams of one target start spread over a shared range, each wrapping
        // around it, so threads do not read the same blocks in lock step.
        let stride = if spec.offset_increment > 0 { 0 } else { (len / spec.threads as u64) / align * align };
        OffsetGen {
            rng: SmallRng::seed_from_u64(spec.seed ^ seed_salt.wrapping_mul(0x2545_f491_4f6c_dd1d)),
            pattern: spec.pattern,
            read_pct: spec.read_pct,
            blocks,
            start,
            len,
            align,
            skew,
            scatter,
            seq_pos: stride * worker as u64,
            seq_skip: spec.seq_skip,
        }
    }

    fn slot_count(len: u64, bs: u64, align: u64) -> u64 {
        (len - bs) / align + 1
    }

    /// The next I/O: (read or write, offset, length).
    #[inline]
    pub fn next_io(&mut self) -> (OpKind, u64, u32) {
        let op = if self.read_pct == 100 || (self.read_pct > 0 && self.rng.random_range(0..100) < self.read_pct) {
            OpKind::Read
        } else {
            OpKind::Write
        };
        let blocks = &self.blocks[usize::from(op == OpKind::Write)];
        let bs = if blocks.len() == 1 {
            blocks[0].0
        } else {
            let r = self.rng.random_range(0..100);
            blocks.iter().find(|b| r < b.1).map_or(blocks[0].0, |b| b.0)
        };
        let off = match self.pattern {
            Pattern::Sequential => {
                if self.seq_pos + bs > self.len {
                    self.seq_pos = 0;
                }
                let o = self.seq_pos;
                let next = o as i64 + bs as i64 + self.seq_skip;
                // Stepping back past the start wraps to the last block, as fio's backwards I/O.
                self.seq_pos = if next < 0 { (self.len - bs) / self.align * self.align } else { next as u64 };
                o
            }
            Pattern::Random => {
                let slots = Self::slot_count(self.len, bs, self.align);
                let idx = match &self.skew {
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
                };
                idx * self.align
            }
        };
        (op, self.start + off, bs as u32)
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
mod tests {
    use super::*;
    use crate::workload::BlockShare;

    fn spec(pattern: Pattern) -> Spec {
        Spec { targets: vec!["x".into()], pattern, ..Spec::default() }
    }

    #[test]
    fn random_offsets_aligned_and_in_range() {
        let s = Spec {
            offset: 8192,
            range: Some(1 << 20),
            blocks: vec![BlockShare { size: 4096, pct: 50 }, BlockShare { size: 65536, pct: 50 }],
            ..spec(Pattern::Random)
        };
        let mut g = OffsetGen::new(&s, 4 << 20, 0, 0);
        for _ in 0..20_000 {
            let (_, off, len) = g.next_io();
            assert_eq!(off % 4096, 0);
            assert!(off >= 8192 && off + len as u64 <= 8192 + (1 << 20), "{off} {len}");
        }
    }

    #[test]
    fn sequential_is_contiguous_and_wraps() {
        let s =
            Spec { size: 64 << 10, blocks: vec![BlockShare { size: 16384, pct: 100 }], ..spec(Pattern::Sequential) };
        let mut g = OffsetGen::new(&s, 64 << 10, 0, 0);
        let offs: Vec<u64> = (0..6).map(|_| g.next_io().1).collect();
        assert_eq!(offs, vec![0, 16384, 32768, 49152, 0, 16384]);
    }

    #[test]
    fn sequential_skips_and_steps_back() {
        // fio's rw=write:12k at 4k: one block written, three skipped.
        let s = Spec { seq_skip: 12288, size: 64 << 10, ..spec(Pattern::Sequential) };
        let mut g = OffsetGen::new(&s, 64 << 10, 0, 0);
        let offs: Vec<u64> = (0..5).map(|_| g.next_io().1 / 4096).collect();
        assert_eq!(offs, vec![0, 4, 8, 12, 0]);
        // fio's rw=read:-8k at 4k: backwards, wrapping from the start to the last block.
        let s = Spec { seq_skip: -8192, size: 32 << 10, ..spec(Pattern::Sequential) };
        let mut g = OffsetGen::new(&s, 32 << 10, 0, 0);
        let offs: Vec<u64> = (0..5).map(|_| g.next_io().1 / 4096).collect();
        assert_eq!(offs, vec![0, 7, 6, 5, 4]);
    }

    #[test]
    fn offset_increment_gives_each_worker_its_region() {
        let s = Spec {
            offset: 4096,
            offset_increment: 1 << 20,
            range: Some(64 << 10),
            threads: 3,
            ..spec(Pattern::Random)
        };
        for k in 0..3u32 {
            let mut g = OffsetGen::new(&s, 4 << 20, k, k as u64);
            let lo = 4096 + k as u64 * (1 << 20);
            let offs: Vec<u64> = (0..2000).map(|_| g.next_io().1).collect();
            assert!(offs.iter().all(|&o| o >= lo && o + 4096 <= lo + (64 << 10)), "worker {k}");
            assert_eq!(offs.iter().min(), Some(&lo), "worker {k} reaches its first block");
        }
        let s = Spec { offset_increment: 1 << 20, range: Some(8192), threads: 2, ..spec(Pattern::Sequential) };
        let mut g = OffsetGen::new(&s, 4 << 20, 1, 1);
        let offs: Vec<u64> = (0..3).map(|_| g.next_io().1).collect();
        assert_eq!(offs, vec![1 << 20, (1 << 20) + 4096, 1 << 20]);
    }

    #[test]
    fn reads_and_writes_take_their_own_block_sizes() {
        let b = |size| vec![BlockShare { size, pct: 100 }];
        let s = Spec { read_pct: 50, blocks: b(4096), write_blocks: Some(b(65536)), ..spec(Pattern::Random) };
        let mut g = OffsetGen::new(&s, 4 << 20, 0, 0);
        let (mut reads, mut writes) = (0, 0);
        for _ in 0..2000 {
            match g.next_io() {
                (OpKind::Read, off, 4096) if off % 4096 == 0 => reads += 1,
                (OpKind::Write, off, 65536) if off + 65536 <= 4 << 20 => writes += 1,
                other => panic!("{other:?}"),
            }
        }
        assert!(reads > 800 && writes > 800, "{reads} reads, {writes} writes");
    }

    #[test]
    fn zoned_puts_each_share_in_its_zone() {
        // fio's zoned:50/5:30/15:20/80 over 1,000 slots: half the I/Os in the first 5 %.
        let (mut io, mut range) = ([0u8; 16], [0u8; 16]);
        io[..3].copy_from_slice(&[50, 30, 20]);
        range[..3].copy_from_slice(&[5, 15, 80]);
        let s = Spec { random_dist: RandomDist::Zoned { io, range, n: 3 }, size: 4000 << 10, ..spec(Pattern::Random) };
        let mut g = OffsetGen::new(&s, 4000 << 10, 0, 0);
        let mut zone = [0u32; 3];
        for _ in 0..20_000 {
            let slot = g.next_io().1 / 4096;
            zone[match slot {
                0..50 => 0,
                50..200 => 1,
                _ => 2,
            }] += 1;
        }
        let share = zone.map(|z| z as f64 / 20_000.0);
        assert!((share[0] - 0.5).abs() < 0.02 && (share[1] - 0.3).abs() < 0.02, "{share:?}");
    }

    /// Share of draws that land on the most-hit 10 % of the 1,024 blocks of a 4 MiB range.
    fn hot_share(dist: RandomDist) -> f64 {
        let s = Spec { random_dist: dist, size: 4 << 20, ..spec(Pattern::Random) };
        let mut g = OffsetGen::new(&s, 4 << 20, 0, 0);
        let mut hits = vec![0u32; 1024];
        for _ in 0..20_000 {
            let (_, off, _) = g.next_io();
            assert!(off % 4096 == 0 && off < 4 << 20);
            hits[(off / 4096) as usize] += 1;
        }
        hits.sort_unstable_by(|a, b| b.cmp(a));
        hits[..102].iter().sum::<u32>() as f64 / 20_000.0
    }

    #[test]
    fn skewed_distributions_concentrate() {
        assert!(hot_share(RandomDist::Uniform) < 0.2);
        // fio's pareto:0.9 sends 90 % of I/Os to 10 % of the blocks.
        let p = hot_share(RandomDist::Pareto { h: 0.9 });
        assert!((0.85..0.95).contains(&p), "{p}");
        assert!(hot_share(RandomDist::Zipf { theta: 1.2 }) > 0.7);
    }
}

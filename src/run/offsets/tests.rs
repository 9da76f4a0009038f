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
    let s = Spec { size: 64 << 10, blocks: vec![BlockShare { size: 16384, pct: 100 }], ..spec(Pattern::Sequential) };
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
    let s =
        Spec { offset: 4096, offset_increment: 1 << 20, range: Some(64 << 10), threads: 3, ..spec(Pattern::Random) };
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

#[test]
fn a_random_map_visits_every_block_once_per_pass_in_no_plain_order() {
    for blocks in [256u64, 300, 1, 2] {
        let s = Spec { size: blocks * 4096, random_map: true, ..spec(Pattern::Random) };
        let mut g = OffsetGen::new(&s, blocks * 4096, 0, 7);
        for _pass in 0..2 {
            let offs: Vec<u64> = (0..blocks).map(|_| g.next_io().1 / 4096).collect();
            let mut seen = offs.clone();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len() as u64, blocks, "{offs:?}");
            let runs = offs.windows(2).filter(|w| w[1] == w[0] + 1).count();
            assert!(blocks < 256 || runs < 10, "{runs} sequential pairs: {offs:?}");
        }
    }
    // Without the map (fio's norandommap) draws repeat blocks within a pass.
    let s = Spec { size: 256 * 4096, ..spec(Pattern::Random) };
    let mut g = OffsetGen::new(&s, 256 * 4096, 0, 7);
    let mut offs: Vec<u64> = (0..256).map(|_| g.next_io().1).collect();
    offs.sort_unstable();
    offs.dedup();
    assert!(offs.len() < 256);
}

#[test]
fn strided_zones_keep_io_in_the_zone_then_move_on_and_wrap() {
    use crate::workload::Strided;
    // 64 KiB region, zones of 16 KiB every 32 KiB (a 16 KiB skip), 32 KiB of I/O per zone:
    // each zone's four blocks twice over, each pass visiting every block once.
    let s = Spec {
        strided: Some(Strided { range: 16 << 10, size: 32 << 10, skip: 16 << 10 }),
        random_map: true,
        ..spec(Pattern::Random)
    };
    let mut g = OffsetGen::new(&s, 64 << 10, 0, 0);
    for zone in [0u64, 32 << 10, 0] {
        for _pass in 0..2 {
            let mut seen: Vec<u64> = (0..4).map(|_| g.next_io().1).collect();
            assert!(seen.iter().all(|&o| o >= zone && o < zone + (16 << 10)), "zone {zone}: {seen:?}");
            seen.sort();
            assert_eq!(seen, (0..4).map(|b| zone + b * 4096).collect::<Vec<_>>());
        }
    }
    // Sequential I/O starts each zone at its first block.
    let s = Spec { strided: Some(Strided { range: 8192, size: 8192, skip: 0 }), ..spec(Pattern::Sequential) };
    let mut g = OffsetGen::new(&s, 32 << 10, 0, 0);
    let offs: Vec<u64> = (0..10).map(|_| g.next_io().1).collect();
    assert_eq!(offs, [0, 4096, 8192, 12288, 16384, 20480, 24576, 28672, 0, 4096]);
}

#[test]
fn trim_write_follows_each_trim_with_a_write_of_its_range() {
    let s = Spec { read_pct: 0, trim_write: true, size: 64 << 10, ..spec(Pattern::Sequential) };
    let mut g = OffsetGen::new(&s, 64 << 10, 0, 0);
    let ios: Vec<(OpKind, u64)> = (0..6).map(|_| g.next_io()).map(|(op, o, _)| (op, o / 4096)).collect();
    let (t, w) = (OpKind::Trim, OpKind::Write);
    assert_eq!(ios, [(t, 0), (w, 0), (t, 1), (w, 1), (t, 2), (w, 2)]);
}

#[test]
fn random_map_with_several_sizes_covers_each_unit_once_per_pass() {
    let sizes = [512u64, 1024, 2048, 4096].map(|size| BlockShare { size, pct: 25 });
    let s = Spec { random_map: true, direct: false, blocks: sizes.to_vec(), ..spec(Pattern::Random) };
    let mut g = OffsetGen::new(&s, 64 << 10, 0, 0);
    for pass in 0..2 {
        let mut units = [0u32; 128];
        let mut bytes = 0;
        while bytes < 64 << 10 {
            let (_, off, len) = g.next_io();
            assert!(len > 0 && off % 512 == 0 && off + len as u64 <= 64 << 10, "{off} {len}");
            for u in off / 512..(off + len as u64) / 512 {
                units[u as usize] += 1;
            }
            bytes += len as u64;
        }
        assert!(units.iter().all(|&n| n == 1), "pass {pass}: {units:?}");
    }
}

#[test]
fn sequential_takes_a_size_that_fits_before_the_end() {
    let sizes = [4096u64, 8192].map(|size| BlockShare { size, pct: 50 });
    let s = Spec { blocks: sizes.to_vec(), size: 12 << 10, ..spec(Pattern::Sequential) };
    let mut g = OffsetGen::new(&s, 12 << 10, 0, 0);
    let mut covered = 0;
    while covered < 12 << 10 {
        let (_, off, len) = g.next_io();
        assert_eq!(off, covered, "contiguous up to the end");
        covered += len as u64;
    }
    assert_eq!(covered, 12 << 10, "the last I/O ends at the end");
}

#[test]
fn random_map_fills_a_hole_from_its_start_as_fio_does() {
    // fio's randtrimwrite with bsrange=512-4k over 1 MiB makes 597 pairs (134 of them 512
    // bytes): a covered draw moves to the next free unit, the start of a hole, so I/Os are
    // rarely cut short. Drawing a random free unit instead splits holes: about 794, 360 short.
    let sizes = (1..=8u64).map(|k| BlockShare { size: 512 * k, pct: if k == 8 { 16 } else { 12 } });
    let s = Spec { random_map: true, direct: false, blocks: sizes.collect(), ..spec(Pattern::Random) };
    for seed in 0..8 {
        let mut g = OffsetGen::new(&Spec { seed, ..s.clone() }, 1 << 20, 0, 0);
        let (mut bytes, mut ios, mut smallest) = (0u64, 0, 0);
        while bytes < 1 << 20 {
            let (_, _, len) = g.next_io();
            (bytes, ios, smallest) = (bytes + len as u64, ios + 1, smallest + u32::from(len == 512));
        }
        assert!((540..=660).contains(&ios), "seed {seed}: {ios} I/Os");
        assert!(smallest < 200, "seed {seed}: {smallest} of 512 bytes");
    }
}

#[test]
fn a_walk_over_files_skips_the_done_ones_and_starts_again_once_all_are() {
    use crate::workload::{FileService, ServiceKind};
    // Files of 2, 1 and 3 blocks: round-robin until each is done, then all of them again.
    let s = Spec { blocks: vec![BlockShare { size: 4096, pct: 100 }], ..spec(Pattern::Sequential) };
    let gens = [2u64, 1, 3].map(|n| OffsetGen::new(&s, n * 4096, 0, 0)).into_iter().collect();
    let fs = FileService { files: 3, how: ServiceKind::RoundRobin, every: 1, ends: true };
    let mut w = Walk::new(gens, fs, 1);
    let order: Vec<(u32, u64)> = (0..12).map(|_| w.next_io()).map(|(f, _, off, _)| (f, off / 4096)).collect();
    let pass = [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (2, 2)];
    assert_eq!(order, [pass, pass].concat());
    // Without an end (time_based), a file is never done: sequential service stays on the first.
    let gens = [2u64, 1].map(|n| OffsetGen::new(&s, n * 4096, 0, 0)).into_iter().collect();
    let fs = FileService { files: 2, how: ServiceKind::Sequential, every: 1, ends: false };
    let mut w = Walk::new(gens, fs, 1);
    assert!((0..6).all(|_| w.next_io().0 == 0));
}

#[test]
fn interlocked_threads_take_turns_at_one_position() {
    let s = Spec {
        threads: 2,
        offset: 4096,
        blocks: vec![BlockShare { size: 16384, pct: 100 }],
        shared_seq: true,
        ..spec(Pattern::Sequential)
    };
    let pos = Arc::new(AtomicU64::new(0));
    let mut a = OffsetGen::new(&s, 4096 + (64 << 10), 0, 0).sharing(pos.clone());
    let mut b = OffsetGen::new(&s, 4096 + (64 << 10), 1, 1).sharing(pos.clone());
    // Whichever thread asks next gets the next block; past the region's end both wrap to its start.
    let mut gens = [&mut a, &mut b];
    let offs: Vec<u64> = [0, 1, 1, 0, 0, 1].into_iter().map(|k| gens[k].next_io().1).collect();
    assert_eq!(offs, vec![4096, 4096 + 16384, 4096 + 32768, 4096 + 49152, 4096, 4096 + 16384]);
    assert_eq!(pos.load(Ordering::Relaxed), 6);
}

#[test]
fn a_sequence_visits_its_blocks_in_turn_and_a_stride_walks_on() {
    // 12 blocks of 4 KiB, as fio's t/sequence.py.
    let blocks = |stride| {
        let dist = RandomDist::Sequence { blocks: vec![2, 0, 1], stride };
        let s = Spec { random_dist: dist, size: 48 << 10, ..spec(Pattern::Random) };
        let mut g = OffsetGen::new(&s, 48 << 10, 0, 0);
        (0..14).map(|_| g.next_io().1 / 4096).collect::<Vec<_>>()
    };
    assert_eq!(blocks(false), [2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
    // The fifth round would start at block 12, past the end: the walk starts over.
    assert_eq!(blocks(true), [2, 0, 1, 5, 3, 4, 8, 6, 7, 11, 9, 10, 2, 0]);
}

#[test]
fn fios_named_32_bit_generator_reaches_only_2_to_the_32_blocks() {
    // 2^40 one-byte blocks: 32 random bits scaled to them land on every 256th block only.
    let s =
        Spec { size: 1 << 40, blocks: vec![BlockShare { size: 1, pct: 100 }], align: Some(1), ..spec(Pattern::Random) };
    let draw = |rand32| {
        let mut g = OffsetGen::new(&Spec { rand32, ..s.clone() }, 1 << 40, 0, 0);
        (0..1000).map(|_| g.next_io().1).collect::<Vec<_>>()
    };
    assert!(draw(true).iter().all(|o| o % 256 == 0));
    assert!(draw(false).iter().filter(|o| *o % 256 != 0).count() > 900);
}

#[test]
fn a_range_draws_every_multiple_of_its_low_end_evenly() {
    // fio's bsrange=512:1m: 2048 lengths, each a multiple of 512, about as often as any other.
    let ends = vec![BlockShare { size: 512, pct: 50 }, BlockShare { size: 1 << 20, pct: 50 }];
    let s = Spec { ranged: true, blocks: ends, ..spec(Pattern::Random) };
    let mut g = OffsetGen::new(&s, 1 << 30, 0, 0);
    let lens: Vec<u64> = (0..20_000).map(|_| g.next_io().2 as u64).collect();
    assert!(lens.iter().all(|&l| l % 512 == 0 && (512..=1 << 20).contains(&l)));
    let small = lens.iter().filter(|&&l| l <= 512 << 10).count();
    assert!((9_000..11_000).contains(&small), "{small} of 20,000 at most 512 KiB");
    let mut seen = lens.clone();
    seen.sort_unstable();
    seen.dedup();
    assert!(seen.len() > 1_900, "{} lengths", seen.len());
}

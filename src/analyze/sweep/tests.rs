//! The sweep against a synthetic disk with known walls: latency-bound up to a knee, an IOPS cap
//! and a MB/s cap, time advancing by each step's warm-up and duration.

use super::{Step, Sweeper, QDS, SIZES};
use crate::result::{RunResult, TestResult};
use crate::workload::Spec;
use std::time::{Duration, Instant};

/// A disk: `lat_us` per I/O while latency-bound, at most `iops` and `mbps` (10^6 B/s); writes
/// at `write_share` of reads.
struct Disk {
    lat_us: f64,
    iops: f64,
    mbps: f64,
    write_share: f64,
}

fn template() -> TestResult {
    let r: RunResult =
        serde_json::from_str(include_str!("../../report/testdata/iolens_randrw_q4.json")).expect("fixture parses");
    r.tests.into_iter().next().expect("one test")
}

impl Disk {
    fn measure(&self, t: &TestResult, s: &Step) -> TestResult {
        let bs = s.spec.blocks[0].size as f64;
        let share = if s.spec.read_pct == 100 { 1.0 } else { self.write_share };
        let iops = (s.spec.qd as f64 * 1e6 / self.lat_us).min(self.iops).min(self.mbps * 1e6 / bs) * share;
        let mut r = t.clone();
        r.name = s.name.clone();
        r.spec = s.spec.clone();
        r.depth = s.spec.qd;
        r.threads.truncate(1);
        r.total.iops = iops;
        r.total.mbps = iops * bs / 1e6;
        r
    }
}

/// Runs the sweep to its end, every step at its full length; returns the steps and the
/// simulated seconds they took.
fn sweep(disk: &Disk, budget: f64, writes: bool) -> (Vec<Step>, f64) {
    sweep_settling(disk, budget, writes, |_| f64::INFINITY, 0.0)
}

/// As `sweep`, step `n` steady after `settle(n)` measured seconds (ending there, or at its full
/// length when that is shorter), `overhead` seconds between steps. No step repeats the one
/// before it.
fn sweep_settling(
    disk: &Disk,
    budget: f64,
    writes: bool,
    settle: impl Fn(usize) -> f64,
    overhead: f64,
) -> (Vec<Step>, f64) {
    let t = template();
    let mut sw = Sweeper::new(Spec::default(), budget, true, writes, 0);
    let start = Instant::now();
    let mut now = start;
    let (mut steps, mut done) = (Vec::new(), Vec::new());
    while let Some(s) = sw.next(&done, now) {
        let measured = s.spec.duration.min(settle(steps.len()));
        now += Duration::from_secs_f64(s.spec.warmup + measured + overhead);
        done.push(TestResult { duration_s: measured, ..disk.measure(&t, &s) });
        assert_ne!(steps.last(), Some(&s), "a step twice in a row");
        steps.push(s);
    }
    (steps, now.duration_since(start).as_secs_f64())
}

/// The block sizes of one direction's block-size climb, KiB (its first step is the 4K one).
fn sizes_kib(steps: &[Step], read: bool) -> Vec<u64> {
    let mine: Vec<&Step> = steps.iter().filter(|s| (s.spec.read_pct == 100) == read && !again(s)).collect();
    // The climb begins at the last 4K step (block sizes at the deep queue start there).
    let from = mine.iter().rposition(|s| s.spec.blocks[0].size == 4096).unwrap_or(mine.len());
    mine[from..].iter().map(|s| s.spec.blocks[0].size >> 10).collect()
}

/// The climbs' steps of one direction, without the points measured again.
fn qd_and_bs(steps: &[Step], read: bool) -> Vec<(u32, u64)> {
    steps
        .iter()
        .filter(|s| (s.spec.read_pct == 100) == read && !again(s))
        .map(|s| (s.spec.qd, s.spec.blocks[0].size))
        .collect()
}

fn again(s: &Step) -> bool {
    s.name.ends_with(" (again)")
}

#[test]
fn the_queue_depth_climb_stops_two_steps_past_the_knee_and_block_sizes_run_at_twice_it() {
    // 1 ms per I/O while latency-bound, 5,000 IOPS and 200 MB/s caps.
    let disk = Disk { lat_us: 1000.0, iops: 5000.0, mbps: 200.0, write_share: 1.0 };
    let (steps, secs) = sweep(&disk, 600.0, false);
    let reads = qd_and_bs(&steps, true);
    // QD 1, 2, 4 grow (1,000 → 4,000 IOPS); QD 8 reaches 5,000 (+25 %); QD 16 and 32 are flat.
    let qd: Vec<(u32, u64)> = [1, 2, 4, 8, 16, 32].iter().map(|q| (*q, 4096)).collect();
    assert_eq!(reads[..qd.len()], qd[..]);
    // The first flat step was QD 16, so the knee is QD 8 and block sizes run at 16.
    let bs: Vec<(u32, u64)> = reads[qd.len()..].to_vec();
    assert!(bs.iter().all(|(q, _)| *q == 16), "{bs:?}");
    // MB/s grows with the block size until 200 MB/s ÷ 5,000 IOPS = 40 KB; past 64K it is flat
    // twice, and 1M confirms the wall.
    let sizes: Vec<u64> = bs.iter().map(|(_, b)| *b).collect();
    assert_eq!(sizes, vec![4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 1 << 20]);
    assert!(qd_and_bs(&steps, false).is_empty());
    assert!(secs <= 600.0);
}

#[test]
fn without_a_wall_it_climbs_to_the_end_of_both_lists() {
    let disk = Disk { lat_us: 100.0, iops: f64::INFINITY, mbps: f64::INFINITY, write_share: 1.0 };
    let (steps, _) = sweep(&disk, 3600.0, false);
    let reads = qd_and_bs(&steps, true);
    assert_eq!(reads.len(), QDS.len() + SIZES.len());
    // No knee: block sizes at the default deep queue.
    assert!(reads[QDS.len()..].iter().all(|(q, _)| *q == 32));
}

#[test]
fn writes_follow_reads_and_the_budget_holds() {
    let disk = Disk { lat_us: 500.0, iops: 8000.0, mbps: 100.0, write_share: 0.5 };
    let (steps, secs) = sweep(&disk, 60.0, true);
    let (r, w) = (qd_and_bs(&steps, true), qd_and_bs(&steps, false));
    assert!(!r.is_empty() && !w.is_empty(), "reads {r:?} writes {w:?}");
    // Reads first, then writes, never interleaved.
    let first_write = steps.iter().position(|s| s.spec.read_pct == 0).unwrap();
    assert!(steps[first_write..].iter().all(|s| s.spec.read_pct == 0));
    // Step of 2.5 s (60 s ÷ 24): the sweep stops when less than 1.5 steps are left.
    assert!(secs <= 60.0, "{secs} s");
    assert!(secs >= 60.0 - 2.0 * 2.5 * 2.0 - 3.75, "stopped early: {secs} s");
}

#[test]
fn a_tight_budget_gives_the_reads_half_and_the_writes_the_rest() {
    let disk = Disk { lat_us: 100.0, iops: f64::INFINITY, mbps: f64::INFINITY, write_share: 1.0 };
    let (steps, _) = sweep(&disk, 24.0, true);
    let mut t = 0.0;
    let mut first_write_at = None;
    for s in &steps {
        if s.spec.read_pct == 0 && first_write_at.is_none() {
            first_write_at = Some(t);
        }
        t += s.spec.warmup + s.spec.duration;
    }
    // 24 s, 1 s steps: the reads' half pays for QD 1 to 4 and the five block sizes up to 1M;
    // the writes begin when those are done.
    let at = first_write_at.expect("writes ran");
    assert!((11.0..=14.0).contains(&at), "writes began at {at} s: {:?}", qd_and_bs(&steps, true));
    assert_eq!(sizes_kib(&steps, true), [4, 16, 64, 256, 1024], "{:?}", qd_and_bs(&steps, true));
}

#[test]
fn a_profile_before_the_sweep_is_not_counted_as_its_steps() {
    let t = template();
    let mut sw = Sweeper::new(Spec::default(), 60.0, true, false, 2);
    sw.prefix = "sweep ";
    let profile = vec![t.clone(), t];
    let s = sw.next(&profile, Instant::now()).unwrap();
    assert_eq!((s.spec.qd, s.spec.blocks[0].size, s.spec.read_pct), (1, 4096, 100));
    assert!(s.name.starts_with("sweep "), "{}", s.name);
}

#[test]
fn a_budget_too_short_for_every_block_size_still_measures_five_of_them_up_to_1m() {
    // check's 64 s on a 5,000 IOPS / 200 MB/s disk, no step ever steady: stepping through every
    // size would leave the writes at 32K, short of the MB/s cap.
    let disk = Disk { lat_us: 200.0, iops: 5000.0, mbps: 200.0, write_share: 1.0 };
    let (steps, secs) = sweep(&disk, 64.0, true);
    for read in [true, false] {
        // The five at least.
        let sizes = sizes_kib(&steps, read);
        let five: Vec<u64> = sizes.iter().copied().filter(|k| [4, 16, 64, 256, 1024].contains(k)).collect();
        assert_eq!(five, [4, 16, 64, 256, 1024], "read {read}: {sizes:?}");
        // And each direction ends measuring QD 1 again, in the time the climbs kept for it.
        let mine: Vec<&Step> = steps.iter().filter(|s| (s.spec.read_pct == 100) == read).collect();
        assert!(mine.last().is_some_and(|s| again(s) && s.spec.qd == 1), "read {read}");
        // The queue depths before them: QD 1 and 2 at least (QD 1 at the cap, QD 2 no more: the
        // knee), the climb cut short to leave them and the repeat of QD 1 room.
        let qds: Vec<u32> = qd_and_bs(&steps, read).iter().map(|(q, _)| *q).collect();
        assert_eq!(qds[..2], [1, 2], "read {read}: {qds:?}");
    }
    assert!(secs <= 64.0 + 2.0, "{secs} s");
}

#[test]
fn steps_that_end_steady_buy_every_queue_depth_and_more_block_sizes_in_the_same_budget() {
    // The same disk and budget; each step steady after 1 s measured (four samples of 250 ms),
    // a fifth of a second between steps.
    let disk = Disk { lat_us: 200.0, iops: 5000.0, mbps: 200.0, write_share: 1.0 };
    let (capped, capped_secs) = sweep(&disk, 64.0, true);
    let (steps, secs) = sweep_settling(&disk, 64.0, true, |_| 1.0, 0.2);
    for read in [true, false] {
        // QD 1 (5,000 IOPS at 200 µs), 2 and 4 flat: the knee at QD 1, block sizes at QD 16.
        let qds: Vec<u32> = qd_and_bs(&steps, read).iter().map(|(q, _)| *q).take(3).collect();
        assert_eq!(qds, [1, 2, 4], "read {read}");
        let sizes = sizes_kib(&steps, read);
        // MB/s grows to 200 MB/s ÷ 5,000 IOPS = 40 KB: 4K to 64K, then 128K and 256K flat and
        // 1M confirms the wall; every size on the way, more than the five of a capped sweep.
        assert_eq!(sizes, [4, 8, 16, 32, 64, 128, 256, 1024], "read {read}");
        assert!(sizes.len() > sizes_kib(&capped, read).len());
    }
    assert!(steps.iter().all(|s| s.spec.qd <= 4 || s.spec.qd == 16), "block sizes at twice the knee's QD");
    assert!(secs <= 64.0 && secs <= capped_secs, "{secs} s, capped {capped_secs} s");
}

#[test]
fn a_disk_still_growing_at_deep_queues_keeps_five_block_sizes_each_way_when_some_steps_never_settle() {
    // check's 64 s on a disk without a wall, as a fast file is: IOPS grow with every queue
    // depth. One step in three runs its full length; the others are steady after 1 s.
    let disk = Disk { lat_us: 50.0, iops: f64::INFINITY, mbps: f64::INFINITY, write_share: 0.5 };
    let (steps, secs) = sweep_settling(&disk, 64.0, true, |n| if n % 3 == 2 { f64::INFINITY } else { 1.0 }, 0.3);
    for read in [true, false] {
        let sizes = sizes_kib(&steps, read);
        let five: Vec<u64> = sizes.iter().copied().filter(|k| [4, 16, 64, 256, 1024].contains(k)).collect();
        assert_eq!(five, [4, 16, 64, 256, 1024], "read {read}: {sizes:?}");
    }
    assert!(secs <= 64.0 + 3.0, "{secs} s");
}

#[test]
fn quick_on_a_throttle_measures_five_block_sizes_in_twelve_seconds() {
    // check --quick on a block device: reads only, 12 s, 1 s steps (no shorter than the one
    // second a steady judgement takes). 2,000 IOPS and 40 MB/s caps.
    let disk = Disk { lat_us: 100.0, iops: 2000.0, mbps: 40.0, write_share: 1.0 };
    let (steps, secs) = sweep_settling(&disk, 12.0, false, |_| 1.0, 0.1);
    assert_eq!(sizes_kib(&steps, true), [4, 16, 64, 256, 1024], "{:?}", qd_and_bs(&steps, true));
    assert!(secs <= 12.0 + 1.0, "{secs} s");
}

#[test]
fn every_step_ends_once_its_iops_are_steady_or_at_its_full_length() {
    let sw = Sweeper::new(Spec::default(), 64.0, true, true, 0);
    for (qd, bs, full) in [(1, 4096, 64.0 / 24.0), (64, 1 << 20, 64.0 / 12.0)] {
        let s = sw.step(true, qd, bs).spec;
        assert_eq!(s.steady, Some(crate::workload::SteadyState::until_steady(5.0, 250, 1)));
        assert!((s.duration - full).abs() < 1e-9, "QD {qd}, {bs} B: {} s", s.duration);
    }
}

/// Runs the sweep on `disk`, the `n`th step's figures multiplied by `glitch(n)`; returns the
/// steps' names and what they measured.
fn sweep_glitching(disk: &Disk, budget: f64, glitch: impl Fn(usize) -> f64) -> (Vec<String>, Vec<TestResult>) {
    let t = template();
    let mut sw = Sweeper::new(Spec::default(), budget, true, false, 0);
    let mut now = Instant::now();
    let (mut names, mut done) = (Vec::new(), Vec::new());
    while let Some(s) = sw.next(&done, now) {
        now += Duration::from_secs_f64(s.spec.warmup + s.spec.duration);
        let mut r = disk.measure(&t, &s);
        r.total.iops *= glitch(names.len());
        r.total.mbps *= glitch(names.len());
        done.push(r);
        names.push(s.name);
    }
    (names, done)
}

#[test]
fn a_step_that_came_out_low_is_measured_again_before_the_climb_goes_on() {
    // 100 µs an I/O, no wall; the QD 4 step (the third) came out at a fifth, once.
    let disk = Disk { lat_us: 100.0, iops: f64::INFINITY, mbps: f64::INFINITY, write_share: 1.0 };
    let (names, done) = sweep_glitching(&disk, 600.0, |n| if n == 2 { 0.2 } else { 1.0 });
    assert_eq!(names[..4], ["RND4K Q1T1 Read", "RND4K Q2T1 Read", "RND4K Q4T1 Read", "RND4K Q4T1 Read (again)"]);
    // Then on up to QD 256 as a disk without a wall climbs, and QD 1 once more at the end.
    let again: Vec<&String> = names.iter().filter(|n| n.ends_with("(again)")).collect();
    assert_eq!(again, ["RND4K Q4T1 Read (again)", "RND4K Q1T1 Read (again)"], "{names:?}");
    assert!(names.contains(&"RND4K Q256T1 Read".to_string()), "{names:?}");
    // The analysis takes the second measurement: no knee at QD 2.
    let r = RunResult {
        command: "explain".into(),
        tests: done,
        ..serde_json::from_str(include_str!("../../report/testdata/iolens_randrw_q4.json")).unwrap()
    };
    let pts = crate::analyze::infer::of_result(&r, 0);
    let e = crate::analyze::explain(
        &pts,
        &crate::analyze::catalog::Catalog::load_with(None, None).unwrap(),
        &Default::default(),
        0.10,
        &Default::default(),
    )
    .unwrap();
    assert_eq!(e.walls.knee_qd, None, "{:?}", e.walls);
    assert_eq!(e.repeatability.unwrap().worst, "4K random read QD 4: 8,000, 40,000 IOPS");
}

#[test]
fn the_first_point_is_measured_again_at_the_climbs_end_unless_the_profile_did() {
    let disk = Disk { lat_us: 1000.0, iops: 5000.0, mbps: 200.0, write_share: 1.0 };
    let (names, _) = sweep_glitching(&disk, 600.0, |_| 1.0);
    // QD 1 … 32 (the knee at 8), block sizes at QD 16 up to 1M, then QD 1 again.
    let again = names.iter().position(|n| n.ends_with("(again)")).expect("a point measured again");
    assert_eq!(names[again - 1..], ["RND1M Q16T1 Read", "RND4K Q1T1 Read (again)"]);
    // check's RND4K Q1T1 before the sweep measured it already.
    let t = template();
    let mut sw = Sweeper::new(Spec::default(), 600.0, true, false, 1);
    let profile = TestResult { spec: sw.step(true, 1, 4096).spec, ..t.clone() };
    let mut done = vec![profile];
    let mut now = Instant::now();
    let mut names = Vec::new();
    while let Some(s) = sw.next(&done, now) {
        now += Duration::from_secs_f64(s.spec.warmup + s.spec.duration);
        done.push(disk.measure(&t, &s));
        names.push(s.name);
    }
    assert!(!names.iter().any(|n| n.ends_with("(again)")), "{names:?}");
}

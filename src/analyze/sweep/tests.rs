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
        r.total.iops = iops;
        r.total.mbps = iops * bs / 1e6;
        r
    }
}

/// Runs the sweep to its end; returns the steps and the simulated seconds they took.
fn sweep(disk: &Disk, budget: f64, writes: bool) -> (Vec<Step>, f64) {
    let t = template();
    let mut sw = Sweeper::new(Spec::default(), budget, true, writes, 0);
    let start = Instant::now();
    let mut now = start;
    let (mut steps, mut done) = (Vec::new(), Vec::new());
    while let Some(s) = sw.next(&done, now) {
        now += Duration::from_secs_f64(s.spec.warmup + s.spec.duration);
        done.push(disk.measure(&t, &s));
        steps.push(s);
    }
    (steps, now.duration_since(start).as_secs_f64())
}

fn qd_and_bs(steps: &[Step], read: bool) -> Vec<(u32, u64)> {
    steps.iter().filter(|s| (s.spec.read_pct == 100) == read).map(|s| (s.spec.qd, s.spec.blocks[0].size)).collect()
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
    // 24 s, 1 s steps: reads switch to writes once half the budget is spent.
    let at = first_write_at.expect("writes ran");
    assert!((12.0..=14.0).contains(&at), "writes began at {at} s");
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
fn a_budget_too_short_for_every_block_size_still_ends_each_climb_at_1m() {
    // check's 70 s on a 5,000 IOPS / 200 MB/s disk: stepping through every size would leave
    // the writes at 32K, short of the MB/s cap.
    let disk = Disk { lat_us: 200.0, iops: 5000.0, mbps: 200.0, write_share: 1.0 };
    let (steps, secs) = sweep(&disk, 70.0, true);
    for read in [true, false] {
        let sizes: Vec<u64> = qd_and_bs(&steps, read).iter().skip_while(|(_, b)| *b == 4096).map(|(_, b)| *b).collect();
        assert_eq!(sizes.last(), Some(&(1 << 20)), "read {read}: {sizes:?}");
        assert_eq!(sizes[0], 8 << 10, "read {read}: two sizes before the jump: {sizes:?}");
    }
    assert!(secs <= 70.0 + 2.0, "{secs} s");
}

use super::*;

/// Deterministic noise: roughly normal (sum of uniforms), mean 0, standard deviation 1.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> f64 {
        let mut s = 0.0;
        for _ in 0..12 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            s += (self.0 >> 11) as f64 / (1u64 << 53) as f64;
        }
        s - 6.0
    }
}

/// `levels` of (seconds, mean), each second scattered by `rel` of its mean.
fn series(levels: &[(usize, f64)], rel: f64, seed: u64) -> Vec<f64> {
    let mut n = Noise(seed);
    levels
        .iter()
        .flat_map(|&(len, m)| (0..len).map(move |_| m).collect::<Vec<_>>())
        .map(|m| m * (1.0 + rel * n.next()))
        .collect()
}

fn within(x: f64, want: f64, frac: f64) -> bool {
    (x / want - 1.0).abs() <= frac
}

#[test]
fn a_throttle_halved_mid_run_is_one_shift_at_its_second_with_both_levels() {
    for seed in 1..20 {
        let xs = series(&[(15, 2000.0), (15, 1000.0)], 0.04, seed);
        let s = in_series(&xs, Metric::Iops);
        assert_eq!(s.len(), 1, "seed {seed}: {s:?}");
        assert!(s[0].at_s.abs_diff(15) <= 2, "seed {seed}: at {}", s[0].at_s);
        assert!(within(s[0].before.mean, 2000.0, 0.03) && within(s[0].after.mean, 1000.0, 0.03), "{s:?}");
        assert!(s[0].stayed);
        assert!(within(s[0].change(), -0.5, 0.06), "{}", s[0].change());
    }
}

#[test]
fn a_burst_ending_is_found_and_a_raise_reads_as_a_raise() {
    let xs = series(&[(90, 4000.0), (60, 3200.0)], 0.03, 7);
    let s = in_series(&xs, Metric::Iops);
    assert_eq!(s.len(), 1, "{s:?}");
    assert!(s[0].at_s.abs_diff(90) <= 2);
    assert!(within(s[0].change(), -0.2, 0.03));
    let up = in_series(&series(&[(20, 1000.0), (20, 2000.0)], 0.05, 3), Metric::Iops);
    assert_eq!(up.len(), 1);
    assert!(up[0].change() > 0.9, "{up:?}");
}

#[test]
fn a_flat_noisy_run_has_no_shift_even_with_stalled_seconds() {
    for seed in 1..30 {
        let mut xs = series(&[(120, 5000.0)], 0.12, seed);
        // A stalled second now and then, as a busy host gives.
        for i in (7..120).step_by(23) {
            xs[i] *= 0.3;
        }
        let s = in_series(&xs, Metric::Iops);
        assert!(s.is_empty(), "seed {seed}: {s:?}");
    }
}

#[test]
fn a_small_change_or_a_short_run_is_not_a_shift() {
    // 5 % down: below MIN_CHANGE, however clean.
    assert!(in_series(&series(&[(30, 1000.0), (30, 950.0)], 0.005, 5), Metric::Iops).is_empty());
    // Fewer seconds than two levels need.
    assert!(in_series(&[1000.0, 1000.0, 500.0, 500.0, 500.0, 500.0], Metric::Iops).is_empty());
}

#[test]
fn a_dip_that_recovers_is_two_shifts_the_first_not_staying() {
    let xs = series(&[(20, 3000.0), (10, 1500.0), (20, 3000.0)], 0.03, 11);
    let s = in_series(&xs, Metric::Iops);
    assert_eq!(
        s.iter().map(|s| (s.at_s.abs_diff(20) <= 1 || s.at_s.abs_diff(30) <= 1, s.stayed)).collect::<Vec<_>>(),
        vec![(true, false), (true, true)],
        "{s:?}"
    );
}

#[test]
fn mbps_moving_with_iops_is_said_once_and_a_partial_last_second_is_left_out() {
    let xs = series(&[(15, 2000.0), (15, 1000.0)], 0.03, 2);
    let mut rows: Vec<SecondStats> = xs
        .iter()
        .enumerate()
        .map(|(i, &x)| SecondStats {
            second: i as u32 + 1,
            read_iops: x,
            write_iops: 0.0,
            iops: x,
            mbps: x * 4096.0 / 1e6,
            mibps: x * 4096.0 / 1048576.0,
            p50_us: Some(500.0),
            p99_us: None,
            latency_ns: Vec::new(),
        })
        .collect();
    // A last 0.2 s at a wild rate: left out.
    let mut last = rows[0].clone();
    (last.second, last.iops, last.mbps) = (31, 9e9, 9e9);
    rows.push(last);
    let s = find(&rows, 30.2);
    assert_eq!(s.iter().map(|s| s.metric).collect::<Vec<_>>(), vec![Metric::Iops], "{s:?}");
}

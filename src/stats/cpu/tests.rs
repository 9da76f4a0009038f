use super::*;

#[test]
fn windows_kernel_time_holds_idle_time() {
    // 100 ns units: 2 s user, 3 s kernel of which 1 s idle.
    let [user, sys, idle, total] = split_times(10_000_000, 30_000_000, 20_000_000);
    assert_eq!((user, sys, idle, total), (20_000_000, 20_000_000, 10_000_000, 50_000_000));
    // Inconsistent counters never go negative nor make idle exceed the total.
    assert_eq!(split_times(5, 3, -1), [0, 0, 3, 3]);
}

#[test]
fn per_cpu_split_over_a_window() {
    let start = CpuSnapshot { per_cpu: vec![split_times(0, 0, 0)], ..Default::default() };
    // One second of one CPU: 0.25 s user, 0.25 s kernel, 0.5 s idle.
    let end = CpuSnapshot { per_cpu: vec![split_times(5_000_000, 7_500_000, 2_500_000)], ..Default::default() };
    let s = end.since(&start, Duration::from_secs(1), 0);
    let c = &s.per_cpu[0];
    assert_eq!((c.usage_pct, c.user_pct, c.kernel_pct, c.idle_pct), (50.0, 25.0, 25.0, 50.0));
    assert_eq!(s.us_per_io, None);
}

#[test]
fn this_process_uses_some_cpu() {
    let start = CpuSnapshot::take();
    let mut x = 0u64;
    let t = std::time::Instant::now();
    while t.elapsed() < Duration::from_millis(100) {
        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
    }
    let s = CpuSnapshot::take().since(&start, t.elapsed(), 1000);
    assert!(s.user_pct + s.system_pct > 0.0, "{s:?}");
    assert!(s.us_per_io.is_some_and(|u| u > 0.0), "{s:?}");
    assert_eq!(s.per_cpu.len(), s.cores as usize, "{s:?}");
}

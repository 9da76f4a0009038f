use super::*;

/// Mean and coefficient of variation of the gaps between 100,000 scheduled starts.
fn gaps(process: RateProcess) -> (f64, f64) {
    let spec = Spec { rate_iops: Some(2000.0), rate_process: process, ..Spec::default() };
    let mut p = Pace::new(&spec, 0, 1, 7);
    let starts: Vec<f64> = (0..100_000).map(|_| p.next_intended(u64::MAX).unwrap() as f64).collect();
    let g: Vec<f64> = starts.windows(2).map(|w| w[1] - w[0]).collect();
    let mean = g.iter().sum::<f64>() / g.len() as f64;
    let var = g.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / g.len() as f64;
    (mean, var.sqrt() / mean)
}

#[test]
fn poisson_keeps_the_mean_rate_with_exponential_gaps() {
    let (mean, cv) = gaps(RateProcess::Linear);
    assert!((mean - 500_000.0).abs() < 1.0 && cv < 1e-6, "linear: mean {mean} ns, cv {cv}");
    let (mean, cv) = gaps(RateProcess::Poisson);
    // 2000/s: a 500 µs mean gap within 3 %, and the exponential's coefficient of variation 1.
    assert!((mean / 500_000.0 - 1.0).abs() < 0.03, "poisson: mean {mean} ns");
    assert!((cv - 1.0).abs() < 0.03, "poisson: cv {cv}");
}

#[test]
fn poisson_byte_schedule_keeps_the_mean() {
    let spec = Spec { rate_mbps: Some(4.096), rate_process: RateProcess::Poisson, ..Spec::default() };
    let mut p = Pace::new(&spec, 0, 1, 3);
    for _ in 0..50_000 {
        p.next_intended(u64::MAX).unwrap();
        p.took(4096);
    }
    // 4.096 MB/s of 4 KiB I/Os: 1,000 per second, 1 ms each on average.
    let per_io = p.due().unwrap() / 50_000.0;
    assert!((per_io / 1e6 - 1.0).abs() < 0.03, "{per_io} ns per I/O");
}

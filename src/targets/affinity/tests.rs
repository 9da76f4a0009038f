use super::*;

#[cfg(target_os = "linux")]
#[test]
fn a_thread_pinned_to_an_allowed_cpu_runs_only_there() {
    let allowed = allowed();
    assert!(!allowed.is_empty());
    let cpu = *allowed.last().unwrap();
    std::thread::spawn(move || {
        pin(cpu).unwrap();
        assert_eq!(super::allowed(), vec![cpu]);
        // SAFETY: sched_getcpu has no preconditions.
        assert_eq!(unsafe { libc::sched_getcpu() }, cpu as i32);
    })
    .join()
    .unwrap();
    assert!(pin(100_000).is_err());
}

#[test]
fn no_cpus_hold_nothing_and_a_cpu_past_the_set_is_refused_by_number() {
    assert_eq!(hold_worker(&[], 3), Ok(()));
    let e = std::thread::spawn(|| hold_worker(&[7, 100_000], 1)).join().unwrap().unwrap_err();
    assert!(e.starts_with("holding worker 1 to CPU 100000: "), "{e}");
}

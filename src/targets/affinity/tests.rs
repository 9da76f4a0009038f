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

use super::*;

#[test]
fn ranges_fold_runs_of_cpus() {
    assert_eq!(cpu_ranges(&[11, 0, 1, 2, 3, 8, 10, 1]), "0-3,8,10-11");
    assert_eq!(cpu_ranges(&[5]), "5");
    assert_eq!(cpu_ranges(&[]), "");
}

//! Outliers, picks and spreads on the field's figures.

use super::*;

#[test]
fn a_dip_or_a_spike_between_neighbours_is_an_outlier() {
    let x = [1, 2, 4, 8];
    assert!(!outlier(&x, &[10_000.0, 19_000.0, 37_000.0, 60_000.0], 1));
    assert!(outlier(&x, &[10_000.0, 5_000.0, 37_000.0, 60_000.0], 1));
    assert!(outlier(&x, &[10_000.0, 19_000.0, 80_000.0, 60_000.0], 2));
    // A plateau's noise within 10 % is no outlier.
    assert!(!outlier(&x, &[5_000.0, 4_700.0, 5_000.0, 5_100.0], 1));
}

#[test]
fn an_end_point_is_judged_by_the_step_no_device_takes() {
    // The field's writes: 1,556 IOPS at QD 1, 30,276 at QD 2: 19× for twice the I/Os.
    let x = [1, 2, 4];
    assert!(outlier(&x, &[1_556.0, 30_276.0, 31_000.0], 0));
    assert!(!outlier(&x, &[1_556.0, 30_276.0, 31_000.0], 1));
    assert!(!outlier(&x, &[16_000.0, 30_276.0, 31_000.0], 0));
    // The last one collapsing to a third.
    assert!(outlier(&x, &[16_000.0, 30_000.0, 10_000.0], 2));
}

#[test]
fn of_two_measurements_the_one_near_the_neighbours_counts() {
    assert_eq!(pick(&[1_556.0, 14_000.0], level(&[30_276.0])), 1);
    assert_eq!(pick(&[14_000.0, 1_556.0], level(&[30_276.0])), 0);
    assert_eq!(pick(&[3.0, 9.0, 5.0], None), 2);
    assert_eq!(pick(&[7.0], None), 0);
}

#[test]
fn spread_is_the_range_over_the_mean() {
    assert!((spread(&[11_340.0, 38_825.0]) - 109.58).abs() < 0.01);
    assert_eq!(spread(&[5.0]), 0.0);
    assert!((level(&[100.0, 400.0]).unwrap() - 200.0).abs() < 1e-9);
}

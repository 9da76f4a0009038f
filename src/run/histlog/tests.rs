//! fio's histogram log bins and windows.

use super::*;

#[test]
fn bins_are_fios() {
    // fio's plat_val_to_idx: exact below 128 ns, then 64 bins per power of two.
    assert_eq!([0, 1, 64, 127, 128, 130, 255, 256, 5177].map(bin), [0, 1, 64, 127, 128, 129, 191, 192, 464]);
    assert_eq!(bin(u64::MAX), PLAT_NR - 1);
}

#[test]
fn a_line_per_window_per_direction_of_the_ios_since_the_last() {
    let clat = "0, 100, 0, 4096, 0\n3, 100, 1, 4096, 0\n5, 200, 0, 4096, 0\n9, 300, 0, 4096, 0\n\
                12, 100, 0, 8192, 0\n14, 100, 0, 4096, 0\n";
    let out = lines(clat, 5, 6);
    let rows: Vec<Vec<u64>> = out.lines().map(|l| l.split(", ").map(|v| v.parse().unwrap()).collect()).collect();
    // Reads: the window 0..5 ends at the sample at 5 ms (two I/Os), the next at 12 ms
    // (two more); the write's window never ends, nor the last read's.
    assert_eq!(rows.iter().map(|r| r[..3].to_vec()).collect::<Vec<_>>(), [[5, 0, 4096], [12, 0, 8192]]);
    assert_eq!(rows.iter().map(|r| r.len() - 3).collect::<Vec<_>>(), [29, 29], "1856 bins in groups of 64");
    // 100 ns falls in the second group of 64 bins (bin 100), 200 ns in the third (164),
    // 300 ns in the fourth (203).
    assert_eq!((rows[0][4], rows[0][5], rows[1][4], rows[1][6]), (1, 1, 1, 1));
    assert_eq!(rows.iter().map(|r| r[3..].iter().sum::<u64>()).collect::<Vec<_>>(), [2, 2]);
    assert_eq!(lines(clat, 0, 0), "", "log_hist_msec=0: fio's file stays empty");
}

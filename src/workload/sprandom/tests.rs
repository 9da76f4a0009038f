use super::*;

#[test]
fn validity_runs_from_the_collected_blocks_up_to_whole() {
    // OP 0.15: WA = 0.5/0.15 + 0.7 ≈ 4.03, so the collected block is 75.2 % valid.
    let v = validity(100, 0.15);
    assert_eq!(v.len(), 100);
    assert!((v[0] - (1.0 - 1.0 / (0.5 / 0.15 + 0.7))).abs() < 1e-9, "{}", v[0]);
    assert!((v[99] - 1.0).abs() < 1e-9);
    assert!(v.windows(2).all(|w| w[0] <= w[1]), "least valid first");
    // Less valid blocks hold more of the device: more regions sit low than high.
    let low = v.iter().filter(|&&x| x < (v[0] + 1.0) / 2.0).count();
    assert!(low > 50, "{low} of 100 regions below the midpoint");
}

#[test]
fn settings_that_cannot_work_are_named_as_fio_names_them() {
    let ok = Settings { op: 0.10, regions: 100, cache: 32 << 10 };
    assert_eq!(check(ok, 32 << 20, 4096), Ok(()));
    let e = check(Settings { regions: 2000, ..ok }, 32 << 20, 4096).unwrap_err();
    assert!(e.starts_with("spr_cs: 32768 bytes must be smaller than a region"), "{e}");
    let e = check(Settings { regions: 50, cache: 32 << 20, ..ok }, 32 << 20, 4096).unwrap_err();
    assert!(e.starts_with("spr_cs:"), "{e}");
    let e = check(Settings { op: 1.5, ..ok }, 32 << 20, 4096).unwrap_err();
    assert!(e.starts_with("spr_op:"), "{e}");
}

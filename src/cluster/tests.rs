#[test]
fn targets_are_all_shared_or_all_per_rank() {
    let of = |t: &[&str]| super::shared_targets(t.iter().map(|s| s.to_string()).collect::<Vec<_>>().iter());
    assert!(of(&["/nfs/a", "/nfs/b"]).unwrap());
    assert!(!of(&["/data/f.{rank}", "/dev/loop{rank}"]).unwrap());
    let e = of(&["/data/f.{rank}", "/nfs/shared"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "--mpi: targets with {rank} (one per rank) and without (shared, split among the ranks) cannot be mixed"
    );
}

#[test]
fn rank_placeholder_is_expanded_everywhere() {
    assert_eq!(super::expand_rank("/dev/loop{rank}", 2), "/dev/loop2");
    assert_eq!(super::expand_rank("d{rank}/f.{rank}", 11), "d11/f.11");
    assert_eq!(super::expand_rank("/data", 3), "/data");
    assert_eq!(super::rank_file("t.{rank}.csv", 1, 3), "t.1.csv");
    assert_eq!(super::rank_file("t.csv", 2, 3), "t.csv.2");
    assert_eq!(super::rank_file("t.csv", 0, 1), "t.csv");
}

#[test]
fn a_shared_region_is_split_into_whole_blocks_without_overlap() {
    use crate::workload::{BlockShare, Spec};
    let spec = Spec { blocks: vec![BlockShare { size: 65536, pct: 100 }], offset: 4096, ..Spec::default() };
    // 10 MiB + 4 KiB, 4096 of it skipped: 10 MiB over 3 ranks is 53.33 blocks of 64 KiB each.
    let parts: Vec<(u64, u64)> = (0..3)
        .map(|r| super::share_region(&spec, (10 << 20) + 4096, r, 3).unwrap())
        .map(|s| (s.offset, s.range.unwrap()))
        .collect();
    let part = 53 * 65536;
    assert_eq!(parts, [(4096, part), (4096 + part, part), (4096 + 2 * part, part)]);
    let ranged = Spec { range: Some(1 << 20), ..spec.clone() };
    assert_eq!(super::share_region(&ranged, 1 << 30, 1, 4).unwrap().offset, 4096 + (256 << 10));
    let e = super::share_region(&spec, 128 << 10, 0, 3).unwrap_err();
    assert_eq!(e, "its region of 124KiB holds fewer than 3 blocks of 64KiB; give a larger --size");
}

#[test]
fn targets_without_rank_are_shared_but_directories() {
    assert!(super::is_shared("/dev/loop0"));
    assert!(!super::is_shared("/dev/loop{rank}"));
    assert!(!super::is_shared(std::env::temp_dir().to_str().unwrap()));
}

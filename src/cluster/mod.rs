//! Multi-host runs: the same Spec on every MPI rank, each on its own target, started together
//! and gathered into one result on rank 0. `combine` (pure) merges the ranks' tests; `comm`
//! holds every MPI call and exists only with the `mpi` feature, so a default build links no MPI.

use crate::workload::size::format_size;
use crate::workload::Spec;

pub mod combine;
#[cfg(feature = "mpi")]
pub mod comm;
#[cfg(feature = "mpi")]
mod group;
#[cfg(feature = "mpi")]
pub mod run;
#[cfg(feature = "mpi")]
mod wall;

/// When the ranks of a run stop measuring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stonewall {
    /// Each rank runs its own course.
    None,
    /// Every rank stops when the first one is done: all measure the same window.
    FirstDone,
    /// Every rank goes on until it has done as many I/Os as the most any rank had done when
    /// the first was done (IOR's stoneWallingWearOut).
    WearOut,
}

/// A target with `{rank}` in it names one target per rank: `/dev/loop{rank}`, `dir/file.{rank}`.
pub fn expand_rank(target: &str, rank: u32) -> String {
    target.replace("{rank}", &rank.to_string())
}

/// Whether a target is one that every rank shares (no `{rank}` in it, and not a directory,
/// where each rank makes a file of its own): the ranks then split its region.
pub fn is_shared(target: &str) -> bool {
    !target.contains("{rank}") && !std::path::Path::new(target).is_dir()
}

/// Rank `rank`'s part of a region shared by `size` ranks: the spec with its own offset and
/// range, a whole number of the largest block (aligned) each, so that no I/O of one rank
/// touches another's part; what does not divide evenly is left untested at the end. `target`
/// is the shared target's usable size. Err: the region is too small to split.
pub fn share_region(spec: &Spec, target: u64, rank: u32, size: u32) -> Result<Spec, String> {
    let len = spec.range.unwrap_or(target.saturating_sub(spec.offset));
    let align = spec.effective_align().max(1);
    let unit = spec.max_block().div_ceil(align) * align;
    let part = len / size as u64 / unit * unit;
    if part == 0 {
        return Err(format!(
            "its region of {} holds fewer than {size} blocks of {}; give a larger --size",
            format_size(len),
            format_size(unit)
        ));
    }
    Ok(Spec { offset: spec.offset + rank as u64 * part, range: Some(part), ..spec.clone() })
}

/// A file each rank writes for itself (`--trace`): `{rank}` expanded, or `.RANK` appended when
/// the name has none and there are several ranks, so ranks never write over each other.
pub fn rank_file(path: &str, rank: u32, size: u32) -> String {
    if path.contains("{rank}") || size <= 1 {
        expand_rank(path, rank)
    } else {
        format!("{path}.{rank}")
    }
}

/// Whether the ranks share their targets (none has `{rank}`): refused when a test mixes
/// shared targets with per-rank ones, as one region cannot be split for some of them only.
pub fn shared_targets<'a>(targets: impl Iterator<Item = &'a String>) -> Result<bool, crate::error::UsageError> {
    let mut kinds = targets.map(|t| is_shared(t));
    let first = kinds.next().unwrap_or(false);
    if kinds.any(|k| k != first) {
        return crate::error::usage(
            "--mpi",
            "targets with {rank} (one per rank) and without (shared, split among the ranks) cannot be mixed",
        );
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
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
}

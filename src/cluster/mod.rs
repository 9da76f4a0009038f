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
mod tests;

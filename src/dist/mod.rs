//! Multi-host runs: the same Spec on every MPI rank, each on its own target, started together
//! and gathered into one result on rank 0. `combine` (pure) merges the ranks' tests; `comm`
//! holds every MPI call and exists only with the `mpi` feature, so a default build links no MPI.

pub mod combine;
#[cfg(feature = "mpi")]
pub mod comm;

/// A target with `{rank}` in it names one target per rank: `/dev/loop{rank}`, `dir/file.{rank}`.
pub fn expand_rank(target: &str, rank: u32) -> String {
    target.replace("{rank}", &rank.to_string())
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

#[cfg(test)]
mod tests {
    #[test]
    fn rank_placeholder_is_expanded_everywhere() {
        assert_eq!(super::expand_rank("/dev/loop{rank}", 2), "/dev/loop2");
        assert_eq!(super::expand_rank("d{rank}/f.{rank}", 11), "d11/f.11");
        assert_eq!(super::expand_rank("/data", 3), "/data");
        assert_eq!(super::rank_file("t.{rank}.csv", 1, 3), "t.1.csv");
        assert_eq!(super::rank_file("t.csv", 2, 3), "t.csv.2");
        assert_eq!(super::rank_file("t.csv", 0, 1), "t.csv");
    }
}

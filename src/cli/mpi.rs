//! `--mpi` and `--mpi-stonewall`: the command on every MPI rank (launched by mpirun or srun),
//! each rank on its own target, started together, and one combined result printed and saved by
//! rank 0 (`cluster`); without them, on this host (`session`). Without the `mpi` cargo feature
//! the option is refused in one line.

use crate::cluster::Stonewall;
use crate::error::{usage, UsageError};
use crate::session::Request;
use clap::Args;

const NO_MPI: &str = "this build of iolens lacks MPI; build it with `cargo build --release --features mpi`";

#[derive(Args, Debug, Clone, Default)]
pub struct MpiArgs {
    /// Run on every MPI rank (launch with mpirun or srun): each rank runs the same test on its
    /// own target, `{rank}` in a target becoming the rank (/dev/loop{rank}, dir/file.{rank});
    /// rank 0 prints and saves one result with a row per rank
    #[arg(long)]
    pub mpi: bool,
    /// With --mpi, when ranks stop: none (each runs its own course), first-done (all stop when
    /// the first rank is done, as IOR's stonewalling), wear-out (all go on to the I/O count of
    /// the rank that had done the most by then); also --mpi-stonewall, the name `fio` takes
    /// (its --stonewall is fio's own)
    #[arg(long, alias = "mpi-stonewall", value_name = "MODE", requires = "mpi", value_parser = stonewall)]
    pub stonewall: Option<Stonewall>,
}

impl MpiArgs {
    /// None for a single-host run; refused when this build has no MPI.
    pub fn check(&self) -> Result<Option<Stonewall>, UsageError> {
        if !self.mpi {
            if self.stonewall.is_some() {
                return usage("--mpi-stonewall", "applies to --mpi runs only; add --mpi");
            }
            return Ok(None);
        }
        if cfg!(windows) {
            return usage("--mpi", "runs on Linux only (MPI across hosts); on Windows run each host on its own");
        }
        if !cfg!(feature = "mpi") {
            return usage("--mpi", NO_MPI);
        }
        Ok(Some(self.stonewall.unwrap_or(Stonewall::None)))
    }
}

pub(super) fn stonewall(v: &str) -> Result<Stonewall, UsageError> {
    match v {
        "none" => Ok(Stonewall::None),
        "first-done" => Ok(Stonewall::FirstDone),
        "wear-out" => Ok(Stonewall::WearOut),
        v => usage("--stonewall", format!("'{v}' is not allowed; use none, first-done or wear-out")),
    }
}

/// Runs `items` on every rank and reports on rank 0 (`mpi`: the checked `--mpi`), or on this
/// host. Returns the exit code, the same on every rank.
pub fn execute(req: &Request, mpi: Option<Stonewall>) -> anyhow::Result<i32> {
    match mpi {
        #[cfg(feature = "mpi")]
        Some(wall) => crate::cluster::run::execute(req, wall),
        #[cfg(not(feature = "mpi"))]
        Some(_) => Ok(usage("--mpi", NO_MPI)?),
        None => crate::session::execute(req),
    }
}

#[cfg(test)]
mod tests;

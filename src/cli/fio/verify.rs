//! fio's verify state across runs: where a job's state file lies (fio's --aux-path, else the
//! current directory), and what a loaded state bounds: a verify_only job checks no more writes
//! than the saved job completed.

use crate::error::{usage, UsageError};
use crate::frontends::fio::FioJob;
use crate::verify::state;

/// Gives each verifying job its aux directory and state file, and bounds the I/O of a job that
/// loads a state to the writes it records. A state that cannot be read is refused before
/// anything runs.
pub(super) fn settle(jobs: &mut [FioJob], aux: Option<&str>) -> Result<(), UsageError> {
    let mut index = 0u64;
    for j in jobs.iter_mut() {
        let first = index;
        index += u64::from(j.spec.threads);
        let threads = u64::from(j.spec.threads.max(1));
        let Some(f) = j.spec.verify.as_mut().and_then(|v| v.fio.as_mut()) else { continue };
        f.aux = aux.map(str::to_string);
        let p = state::path(aux, &j.name, first);
        (f.state_file, f.index) = (Some(p.display().to_string()), first);
        if !f.state_load {
            continue;
        }
        let saved = state::load(&p).map_err(|e| UsageError::new("verify_state_load", e))?;
        if saved.name != j.name {
            return usage(
                "verify_state_load",
                format!("{} holds the state of job '{}', not of '{}'", p.display(), saved.name, j.name),
            );
        }
        // The saved job's writes, shared by this job's clones as fio's numberio is per job.
        let per = saved.writes.div_ceil(threads);
        if f.only {
            j.spec.number_ios = Some(j.spec.number_ios.map_or(per, |n| n.min(per)));
        }
    }
    Ok(())
}

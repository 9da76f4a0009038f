//! Explaining results that were measured already: a finished `explain` or `check` run from its
//! own tests, and stored results (`explain ID|LABEL|FILE…`) from their sweeps' points together.

use super::{explain, infer, matching::HostFit, Catalog, Config};
use crate::error::UsageError;
use crate::result::analysis::Explanation;
use crate::result::RunResult;

/// Sets `r.analysis` to the walls, matches and advice of its own tests.
pub fn annotate(r: &mut RunResult, cat: &Catalog, cfg: &Config, tol: f64) -> Result<(), UsageError> {
    let pts = infer::of_result(r, 0);
    r.analysis = Some(explain(&pts, cat, cfg, tol, &HostFit::of(&r.host))?);
    Ok(())
}

/// What `results` show together. Results from several hosts rule out only what none of them
/// can be: nothing. An error naming RESULT when they hold nothing to explain.
pub fn explain_results(
    results: &[RunResult],
    cat: &Catalog,
    cfg: &Config,
    tol: f64,
) -> Result<Explanation, UsageError> {
    let pts = infer::points(results);
    if pts.is_empty() {
        return Err(UsageError::new(
            "RESULT",
            "these results hold no pure read or write test of one block size to explain",
        ));
    }
    let host = match results.split_first() {
        Some((r, rest)) if rest.iter().all(|o| o.host.hostname == r.host.hostname) => HostFit::of(&r.host),
        _ => HostFit::default(),
    };
    explain(&pts, cat, cfg, tol, &host)
}

#[cfg(test)]
mod tests;

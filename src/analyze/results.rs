//! Explaining results that were measured already: a finished `explain` or `check` run from its
//! own tests, and stored results (`explain ID|LABEL|FILE…`) from their sweeps' points together.

use super::{explain, infer, matching::HostFit, shifts, Catalog, Config};
use crate::error::UsageError;
use crate::result::analysis::Explanation;
use crate::result::RunResult;

/// Sets `r.analysis` to the walls, matches and advice of its own tests.
pub fn annotate(r: &mut RunResult, cat: &Catalog, cfg: &Config, tol: f64) -> Result<(), UsageError> {
    let pts = infer::of_result(r, 0);
    let mut e = explain(&pts, cat, cfg, tol, &HostFit::of(&r.host))?;
    e.over_time = shifts::explained(r.tests.iter(), cat, cfg, tol);
    // The run's own tests carry the causes too, so its stored result says them.
    for (t, said) in r.tests.iter_mut().filter_map(|t| {
        let said = e.over_time.iter().find(|o| o.test == t.name)?;
        Some((t, said))
    }) {
        t.shifts = said.shifts.clone();
    }
    r.analysis = Some(e);
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
    let over_time = shifts::explained(results.iter().flat_map(|r| &r.tests), cat, cfg, tol);
    if pts.is_empty() && !over_time.is_empty() {
        return Ok(Explanation { over_time, tolerance_pct: tol * 100.0, ..Explanation::default() });
    }
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
    Ok(Explanation { over_time, ..explain(&pts, cat, cfg, tol, &host)? })
}

#[cfg(test)]
mod tests;

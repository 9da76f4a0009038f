//! After the last test: the one result built, written to its file, saved in the store and
//! printed; the exit code says whether pages were bad or the run was cut short.

use super::{Annotate, Output};
use crate::error::{defer_write_failure, EXIT_FINDINGS, EXIT_INTERRUPTED};
use crate::report;
use crate::result::Kind;
use crate::result::{RunResult, TargetInfo, TestResult, SCHEMA_VERSION};
use crate::store::Store;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// Where and how a result is kept: the checked `--label`, `--tag`, `--store` and `--no-store`.
#[derive(Debug, Clone, Default)]
pub struct StoreOpts {
    pub label: Option<String>,
    pub tags: Vec<(String, String)>,
    /// None = do not save.
    pub path: Option<PathBuf>,
}

/// Saves the result, once the store has read it back; `receipt`: say where it went. A store
/// that cannot be written fails the command once the rest is done (`EXIT_WRITE`), not the
/// measurement: the other outputs are still written.
pub fn save(r: &RunResult, opts: &StoreOpts, receipt: bool) {
    let Some(path) = &opts.path else { return };
    match Store::open(path).and_then(|mut s| s.save(r)) {
        Ok(id) if receipt => eprintln!("saved as result {id} in {}", path.display()),
        Ok(_) => {}
        Err(e) => defer_write_failure(format!("the result was not saved in {}: {e:#}", path.display())),
    }
}

/// Builds the one result, prints it and saves it; the exit code says whether it was cut short.
pub fn finish(
    command: Kind,
    started_at: String,
    targets: Vec<TargetInfo>,
    tests: Vec<TestResult>,
    interrupt: &AtomicBool,
    output: &Output,
    annotate: Annotate,
) -> anyhow::Result<i32> {
    let mut result = RunResult {
        schema_version: SCHEMA_VERSION,
        iolens_version: env!("CARGO_PKG_VERSION").into(),
        build: Some(crate::result::build::Build::this()),
        command: command.name().into(),
        // A path that is not UTF-8 is kept as near as text allows; the run itself had it whole.
        args: std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect(),
        started_at,
        host: crate::targets::host::detect(targets),
        interrupted: interrupt.load(Ordering::Relaxed) || tests.iter().any(|t| t.interrupted),
        tests,
        label: output.store.label.clone(),
        tags: output.store.tags.clone(),
        source: None,
        analysis: None,
        simdb: None,
    };
    for t in &mut result.tests {
        t.shifts = crate::analyze::shifts::find(&t.seconds, t.duration_s);
    }
    annotate(&mut result)?;
    // The file and the store first: under mpirun, stdout goes through mpirun, which stops
    // forwarding it when it aborts the job (a rank died) and kills the ranks a second later.
    let wrote = output.out.as_ref().map_or(Ok(()), |(path, f)| {
        report::write_text(&(output.preamble.clone() + &report::render(&result, *f)), path)
    });
    save(&result, &output.store, output.chatty);
    if output.terminal {
        print!("{}", report::render(&result, output.format));
    }
    if let Err(e) = wrote {
        defer_write_failure(format!("{e:#}"));
    }
    // Bad pages outrank an interruption: what was found stays found.
    let found = result.tests.iter().any(|t| t.verify.as_ref().is_some_and(|v| !v.clean()));
    Ok(if found {
        EXIT_FINDINGS
    } else if result.interrupted {
        EXIT_INTERRUPTED
    } else {
        0
    })
}

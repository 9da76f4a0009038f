//! simdb's run: a new run's directory checked, the simulator (or `--verify-only`'s check of
//! what a killed run left) run, and its result finished like any other, with its summary.

use super::{finish, install_interrupt, Output};
use crate::error::{usage, UsageError, EXIT_FAIL, EXIT_FINDINGS};
use crate::result::Kind;
use crate::simdb::{self, Config};
use crate::workload::size::format_size;
use std::io::IsTerminal;

/// A new run needs a clean directory with room for its files.
fn check_room(c: &Config) -> Result<(), UsageError> {
    let dir = c.dir.display().to_string();
    let left = simdb::leftovers(&c.dir);
    if !left.is_empty() || c.journal.exists() {
        return usage(
            &dir,
            "holds the files of an earlier simdb run (iolens-simdb-*); check them with --verify-only, or remove them",
        );
    }
    let need = simdb::needed_bytes(c.data_files, c.data_size, c.log_size, c.page);
    match crate::targets::free_space(&c.dir) {
        Ok((_, free)) if free < need => usage(
            &dir,
            format!("has {} free; the data files, log and journal need {}", format_size(free), format_size(need)),
        ),
        Ok(_) => Ok(()),
        Err(e) => usage(&dir, format!("cannot tell its free space: {e}")),
    }
}

/// Runs simdb on `cfg` (or checks what a killed run left, `verify_only`), reports and saves;
/// `keep` keeps its files. Returns the exit code: 3 for findings, 1 for I/O errors.
pub fn run_simdb(cfg: &Config, output: &Output, verify_only: bool, keep: bool) -> anyhow::Result<i32> {
    if verify_only {
        if !cfg.journal.is_file() {
            return Err(UsageError::new(
                "--verify-only",
                format!(
                    "no journal at {}: nothing to check (use --journal PATH if it was elsewhere)",
                    cfg.journal.display()
                ),
            )
            .into());
        }
    } else {
        check_room(cfg)?;
    }
    let interrupt = install_interrupt();
    let progress = !output.quiet && std::io::stderr().is_terminal();
    let started_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let out = if verify_only {
        simdb::crash::verify_only(&cfg.dir, &cfg.journal, cfg.buffered, cfg.rereads)?
    } else {
        simdb::run(cfg, &interrupt, keep, progress)?
    };
    let targets = out.paths.iter().map(|(p, size)| crate::targets::host::describe(p, *size, true)).collect();
    let summary = out.summary.clone();
    let code = finish(Kind::Simdb, started_at, targets, out.tests.clone(), &interrupt, output, &|r| {
        r.simdb = Some(summary.clone());
        Ok(())
    })?;
    if verify_only || keep {
        eprintln!("files kept in {} (iolens-simdb-*; the journal {})", cfg.dir.display(), cfg.journal.display());
    }
    let findings = out.tests.iter().filter_map(|t| t.verify.as_ref()).any(|v| !v.clean());
    Ok(if findings {
        EXIT_FINDINGS
    } else if !out.summary.errors.is_empty() {
        EXIT_FAIL
    } else {
        code
    })
}

//! Command-line front end: clap definitions, one file per subcommand. Turns arguments into
//! workloads (or queries) and hands them to `session` (or `cluster`, with `--mpi`), which runs
//! them and reports; it makes no platform call and runs no test itself. Errors
//! come back to `main`, which maps them to exit codes once.

mod capture;
mod catalog;
mod cdm;
mod check;
mod common;
mod compare;
mod diskspd;
mod explain;
mod fio;
mod history;
mod import_export;
mod mpi;
mod pattern;
mod plan;
mod replay;
mod run;
mod simdb;
mod sqlio;
mod stored;
mod sweep;
mod values;

use crate::error::EXIT_USAGE;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "iolens", version = crate::result::build::VERSION, about = "A storage performance lab in one command", propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The main job: CrystalDiskMark's tests plus a short explain sweep (about 2 minutes; --quick
    /// 20 s): the table, the walls, the catalog matches, advice, and an HTML report
    Check(check::CheckArgs),
    /// Measure one workload on files or block devices (fio/DiskSpd-style options)
    #[command(
        allow_negative_numbers = true,
        after_help = "Exit status: 0 success, 1 error, 2 bad input, 3 --verify found bad pages, 130 interrupted."
    )]
    Run(run::RunArgs),
    /// Issue a captured trace's I/Os again (fio's iolog v2/v3, blktrace, iolens's traces), its timing
    /// kept, scaled or dropped; reports the lag behind the trace's clock as percentiles
    Replay(replay::ReplayArgs),
    /// Record a block device's requests from the kernel's block tracepoints (tracefs) for
    /// --duration, as a trace `iolens replay` issues again
    Capture(capture::CaptureArgs),
    /// CrystalDiskMark's tests and table: SEQ1M Q8T1, RND4K Q32T1 … read and write, best of N passes
    Cdm(cdm::CdmArgs),
    /// A DiskSpd command line, run by iolens and reported in DiskSpd's layout
    Diskspd(diskspd::DiskspdArgs),
    /// Results side by side (ids, labels or JSON files), with verdicts against the first
    Compare(compare::CompareArgs),
    /// Stored results, newest first: id, time, host, label, command, headline figures
    History(history::HistoryArgs),
    /// Print a stored result (text or json)
    Show(history::ShowArgs),
    /// Remove a stored result
    Delete(history::ShowArgs),
    /// Save iolens JSON results from other machines into the store, keeping their host
    Import(import_export::ImportArgs),
    /// Write stored results out (json or text)
    Export(import_export::ExportArgs),
    /// fio job files or fio's command line, jobs of a group at the same time; --output-format=json as fio
    Fio(fio::FioArgs),
    /// A database's I/O pattern (oltp, log, readahead, checkpoint, backup, restore, dss, tempdb)
    Pattern(pattern::PatternArgs),
    /// The SQLIO matrix: block sizes × threads × sequential/random × read/write
    Sqlio(sqlio::SqlioArgs),
    /// Iometer-style sweeps: lists for --bs, --qd, --threads or --read-pct, one row per point
    #[command(allow_negative_numbers = true)]
    Sweep(sweep::SweepArgs),
    /// Why a disk gives what it gives: sweep it (or read stored results), find the knee, the IOPS
    /// and MB/s caps, match the cloud catalog, advise
    Explain(explain::ExplainArgs),
    /// Configurations (disk type × disks striped × VM size) that meet a target, or what a named
    /// one gives: --iops N --mbps M, or --disk P30 --count 3 --vm D2s_v4
    Plan(plan::PlanArgs),
    /// A database's I/O simulated as SQLIOSim does (random access, read-ahead, bulk update, lazy
    /// writer, checkpoint, log writer, grow/shrink, audit users) on stamped pages: every lost,
    /// torn, stale, misdirected or corrupt page named; --verify-only after a crash
    Simdb(simdb::SimdbArgs),
    /// The published limits of cloud disks and VM sizes iolens knows, with their sources
    Catalog(catalog::CatalogArgs),
}

/// Parses the command line and runs the command; Ok(exit code), or the error `main` maps to one.
pub fn main() -> anyhow::Result<i32> {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return Ok(0);
        }
        Err(e) => {
            // A value refused by one of iolens's value parsers: its own line, as it is.
            if let Some(u) = std::error::Error::source(&e).and_then(|s| s.downcast_ref::<crate::error::UsageError>()) {
                return Err(u.clone().into());
            }
            // One line, as for every other bad input: clap's message whole (the arguments it
            // names follow on lines of their own), its usage and hints left to --help.
            let text = e.render().to_string();
            let kept = text.lines().take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"));
            // clap's paragraphs (the error, a tip) stay apart: "found; tip: …".
            let paragraphs: Vec<String> = kept
                .collect::<Vec<_>>()
                .split(|l| l.trim().is_empty())
                .map(|p| p.iter().flat_map(|l| l.split_whitespace()).collect::<Vec<_>>().join(" "))
                .filter(|p| !p.is_empty())
                .collect();
            let msg =
                if paragraphs.is_empty() { "error: invalid arguments".to_string() } else { paragraphs.join("; ") };
            eprintln!("{} (see --help)", crate::error::one_line(&msg));
            return Ok(EXIT_USAGE);
        }
    };
    match cli.command {
        Command::Check(args) => check::main(args),
        Command::Run(args) => run::main(args),
        Command::Replay(args) => replay::main(args),
        Command::Capture(args) => capture::main(args),
        Command::Simdb(args) => simdb::main(args),
        Command::Cdm(args) => cdm::main(args),
        Command::Sweep(args) => sweep::main(args),
        Command::Explain(args) => explain::main(args),
        Command::Plan(args) => plan::main(args),
        Command::Catalog(args) => catalog::main(args),
        Command::Sqlio(args) => sqlio::main(args),
        Command::Diskspd(args) => diskspd::main(args),
        Command::Pattern(args) => pattern::main(args),
        Command::Fio(args) => fio::main(args),
        Command::History(args) => history::history(args),
        Command::Compare(args) => compare::main(args),
        Command::Import(args) => import_export::import(args),
        Command::Export(args) => import_export::export(args),
        Command::Show(args) => history::show(args),
        Command::Delete(args) => history::delete(args),
    }
}

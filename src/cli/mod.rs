//! Command-line front end: clap definitions, one file per subcommand. Turns arguments into a
//! Spec, hands it to the runner and the result to a report; does no I/O or formatting itself.

mod cdm;
mod check;
mod common;
mod compare;
mod diskspd;
mod dist;
#[cfg(feature = "mpi")]
mod dist_run;
#[cfg(feature = "mpi")]
mod dist_wall;
mod exec;
mod explain;
mod fio;
mod history;
mod pattern;
mod plan;
mod run;
mod simdb;
mod sqlio;
mod stored;
mod sweep;
mod transfer;

use clap::{Parser, Subcommand};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(Parser)]
#[command(name = "iolens", version, about = "A storage performance lab in one command", propagate_version = true)]
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
    Import(transfer::ImportArgs),
    /// Write stored results out (json or text)
    Export(transfer::ExportArgs),
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
    Catalog(plan::CatalogArgs),
}

/// Exit codes: 0 success, 1 failure, 2 bad input, 3 data verification found bad pages or log
/// records, 130 interrupted (as shells report Ctrl-C).
pub const EXIT_FAIL: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_INTERRUPTED: i32 = 130;
/// Data verification found bad pages (lost, torn, misdirected, corrupt or never read).
pub const EXIT_FINDINGS: i32 = 3;

pub fn main() -> i32 {
    // A closed pipe (`iolens show 3 | head`) ends the program quietly, as it does for cat.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return 0;
        }
        Err(e) => {
            // One line, as for every other bad input; clap's first line names the argument.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: invalid arguments");
            eprintln!("{first} (see --help)");
            return EXIT_USAGE;
        }
    };
    match cli.command {
        Command::Check(args) => check::main(args),
        Command::Run(args) => run::main(args),
        Command::Simdb(args) => simdb::main(args),
        Command::Cdm(args) => cdm::main(args),
        Command::Sweep(args) => sweep::main(args),
        Command::Explain(args) => explain::main(args),
        Command::Plan(args) => plan::main(args),
        Command::Catalog(args) => plan::catalog(args),
        Command::Sqlio(args) => sqlio::main(args),
        Command::Diskspd(args) => diskspd::main(args),
        Command::Pattern(args) => pattern::main(args),
        Command::Fio(args) => fio::main(args),
        Command::History(args) => history::history(args),
        Command::Compare(args) => compare::main(args),
        Command::Import(args) => transfer::import(args),
        Command::Export(args) => transfer::export(args),
        Command::Show(args) => history::show(args),
        Command::Delete(args) => history::delete(args),
    }
}

/// Set by `--mpi` (unless --keep): the first Ctrl-C or SIGTERM removes the test files at once.
/// mpirun kills the ranks a second after it stopped them, or within tens of milliseconds when
/// three or more ranks died at once, and a rank may be stuck sending to a rank 0 that is gone;
/// workers still running lose only the names of their files.
pub static REMOVE_AT_STOP: AtomicBool = AtomicBool::new(false);

/// Ctrl-C (and SIGTERM) set a flag the runner polls; a second one removes the test files and
/// exits at once. One flag per process: every call returns it (a handler can be set only once,
/// and `--mpi` needs the flag before the targets are prepared).
pub fn install_interrupt() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        let _ = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::SeqCst) {
                crate::targets::remove_all_created();
                std::process::exit(EXIT_INTERRUPTED);
            }
            if REMOVE_AT_STOP.load(Ordering::SeqCst) {
                crate::targets::remove_all_created();
            }
        });
        flag
    })
    .clone()
}

/// Prints an error the iolens way and returns its exit code.
pub fn fail(e: &anyhow::Error) -> i32 {
    if let Some(u) = e.downcast_ref::<crate::error::UsageError>() {
        eprintln!("error: {u}");
        return EXIT_USAGE;
    }
    if e.downcast_ref::<crate::targets::Interrupted>().is_some() {
        eprintln!("interrupted");
        return EXIT_INTERRUPTED;
    }
    eprintln!("error: {e:#}");
    EXIT_FAIL
}

//! `iolens simdb [DIR]`: the database I/O simulator (SQLIOSim's users, stamped pages, a
//! generation journal), and `--verify-only` for the files a killed run left behind.

use super::values::{block, given, seconds, size, within, Given};
use crate::error::{usage, UsageError};
use crate::session::{self, Output};
use crate::simdb::{self, Config};
use crate::workload::size::format_size;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct SimdbArgs {
    /// Directory for the data files, the log and the journal [default: .]
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Data files
    #[arg(long, default_value = "2", value_name = "N", value_parser = within::<u32>("--data-files", 1, 64))]
    pub data_files: u32,
    /// Size of each data file at its largest (grow/shrink moves it by an eighth)
    #[arg(long, default_value = "256m", value_name = "SIZE", value_parser = given(size("--data-size")))]
    pub data_size: Given<u64>,
    /// Size of the log file (written as a circle of records)
    #[arg(long, default_value = "64m", value_name = "SIZE", value_parser = given(size("--log-size")))]
    pub log_size: Given<u64>,
    /// Database page: a multiple of the device's sector (512 B or its logical block)
    #[arg(long, default_value = "8k", value_name = "SIZE", value_parser = given(block("--page")))]
    pub page: Given<u64>,
    /// Random access users; one read-ahead, bulk update, lazy writer, checkpoint, log writer, grow/shrink and audit user run beside them
    #[arg(long, default_value = "8", value_name = "N", value_parser = within::<u32>("--users", 1, 256))]
    pub users: u32,
    /// Seconds the users run (60, 2.5, 500ms, 5m)
    #[arg(long, short = 'd', default_value = "60", value_name = "SECS", value_parser = given(seconds("--duration")))]
    pub duration: Given<f64>,
    /// Seed of the users' choices
    #[arg(long, value_name = "N", value_parser = within::<u64>("--seed", 0, u64::MAX))]
    pub seed: Option<u64>,
    /// Open data files with O_DSYNC: every acknowledged write is durable (and journaled at once)
    #[arg(long)]
    pub write_through: bool,
    /// Go through the page cache instead of O_DIRECT
    #[arg(long)]
    pub buffered: bool,
    /// I/O time users aim for: above it (as a running average) they cut their outstanding I/O
    #[arg(long, default_value = "100", value_name = "MS", value_parser = within::<f64>("--target-io-ms", 0.001, 3_600_000.0))]
    pub target_io_ms: f64,
    /// An I/O taking longer than this is a stall, reported with its file, offset and duration (SQLIOSim: 15 s)
    #[arg(long, default_value = "15000", value_name = "MS", value_parser = within::<f64>("--stall-ms", 1.0, 3_600_000.0))]
    pub stall_ms: f64,
    /// End the run at the first finding or I/O error
    #[arg(long)]
    pub stop_on_error: bool,
    /// Check the files an earlier run left (killed, or --keep) against its journal; write nothing
    #[arg(long)]
    pub verify_only: bool,
    /// The generation journal [default: DIR/iolens-simdb.journal]; put it on another device to survive this one
    #[arg(long, value_name = "PATH")]
    pub journal: Option<PathBuf>,
    /// Re-reads of a bad page, to tell transient faults from persistent ones
    #[arg(long, default_value = "3", value_name = "N", value_parser = within::<u32>("--rereads", 0, 100))]
    pub rereads: u32,
    #[command(flatten)]
    pub common: super::common::CommonArgs,
}

/// Arguments → Config, checked against the directory; nothing is created.
pub fn to_config(a: &SimdbArgs) -> Result<Config, UsageError> {
    let dir = a.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    if !dir.is_dir() {
        return usage(&dir.display().to_string(), "is not a directory; simdb needs a directory for its files");
    }
    let unit = crate::targets::host::describe(&dir, 0, false).logical_block_size.unwrap_or(512).max(512) as usize;
    let page = a.page.value as usize;
    if !page.is_multiple_of(unit) || page > 64 << 10 {
        return usage(
            "--page",
            format!(
                "'{}' is not a multiple of the sector ({unit} B here) up to 64k; use 4k, 8k, 16k, 32k or 64k",
                a.page.text
            ),
        );
    }
    let data_size = a.data_size.value;
    if data_size < 16 * page as u64 {
        return usage(
            "--data-size",
            format!(
                "'{}' is below 16 pages of {} ({}); the users need room to work",
                a.data_size.text,
                format_size(page as u64),
                format_size(16 * page as u64)
            ),
        );
    }
    let log_size = a.log_size.value;
    if log_size < 4 * simdb::log::MAX_RECORD as u64 {
        return usage("--log-size", format!("'{}' is below 240KiB, four of the largest log records", a.log_size.text));
    }
    let duration = a.duration.value;
    if duration <= 0.0 {
        return usage("--duration", format!("'{}' is not allowed; the users need some time", a.duration.text));
    }
    let journal = a.journal.clone().unwrap_or_else(|| simdb::default_journal(&dir));
    if let Some(parent) = journal.parent().filter(|p| !p.as_os_str().is_empty()) {
        if !parent.is_dir() {
            return usage("--journal", format!("directory {} does not exist", parent.display()));
        }
    }
    Ok(Config {
        dir,
        data_files: a.data_files,
        data_size: data_size / page as u64 * page as u64,
        log_size: log_size / unit as u64 * unit as u64,
        page,
        unit,
        users: a.users,
        duration,
        seed: a.seed.unwrap_or(crate::workload::Spec::default().seed),
        write_through: a.write_through,
        buffered: a.buffered,
        target_io_ms: a.target_io_ms,
        stall_ms: a.stall_ms,
        stop_on_error: a.stop_on_error,
        journal,
        rereads: a.rereads,
    })
}

pub fn main(a: SimdbArgs) -> anyhow::Result<i32> {
    let cfg = to_config(&a)?;
    let output: Output = a.common.output(None)?;
    session::run_simdb(&cfg, &output, a.verify_only, a.common.keep)
}

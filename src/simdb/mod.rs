//! A database I/O simulator in the manner of SQLIOSim: users of several kinds work at once on
//! stamped data files and a log (random access, read-ahead scans, bulk update, a lazy writer,
//! a checkpoint, a log writer, file grow/shrink, an audit), every page read is checked against
//! the generation last acknowledged for it, and a generation journal lets a later
//! `--verify-only` tell pages lost in a crash from pages whose writes were never acknowledged.
//!
//! - `setup`: the files, their initial stamping, the journal header;
//! - `users`: a run of the users, from their start to the outcome, and the loops of the plain
//!   kinds; `checkpoint`, `resize` (grow/shrink), `logwriter` (with the log's chain check): the
//!   users with work of their own; `page_io`: what every user works with (buffers, claims,
//!   one I/O on claimed pages);
//! - `io`: timing, counting and throttling of every I/O; `journal`, `log`: on-disk formats;
//! - `crash`: `--verify-only`; `assemble`: the measurements as tests and a per-file summary.

mod assemble;
mod checkpoint;
pub mod crash;
mod io;
pub mod journal;
pub mod log;
mod logwriter;
mod page_io;
mod resize;
mod setup;
mod users;

use crate::engine::AlignedBuf;
use crate::result::verify::Finding;
use crate::result::{simdb::Simdb, TestResult};
use crate::verify::{check_page, mark_unread, Expect, PageMap};
use io::{Ctx, Meter};
use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

pub use setup::{default_journal, file_names, leftovers, needed_bytes};

/// What to simulate, checked by the front end.
#[derive(Debug, Clone)]
pub struct Config {
    pub dir: PathBuf,
    pub data_files: u32,
    /// Bytes per data file, a whole number of pages.
    pub data_size: u64,
    pub log_size: u64,
    pub page: usize,
    /// Bytes per stamped unit: the device's logical block (512 at least).
    pub unit: usize,
    /// Random access users; one of every other kind runs beside them.
    pub users: u32,
    pub duration: f64,
    pub seed: u64,
    pub write_through: bool,
    pub buffered: bool,
    pub target_io_ms: f64,
    /// An I/O slower than this is a stall, reported (15 s, as SQLIOSim).
    pub stall_ms: f64,
    pub stop_on_error: bool,
    pub journal: PathBuf,
    pub rereads: u32,
}

/// The kinds of users, as SQLIOSim has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Random,
    ReadAhead,
    Bulk,
    Lazy,
    Checkpoint,
    Log,
    Resize,
    Audit,
}

impl Kind {
    pub const ALL: [Kind; 8] =
        [Kind::Random, Kind::ReadAhead, Kind::Bulk, Kind::Lazy, Kind::Checkpoint, Kind::Log, Kind::Resize, Kind::Audit];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Random => "random access",
            Kind::ReadAhead => "read-ahead",
            Kind::Bulk => "bulk update",
            Kind::Lazy => "lazy writer",
            Kind::Checkpoint => "checkpoint",
            Kind::Log => "log writer",
            Kind::Resize => "grow/shrink",
            Kind::Audit => "audit",
        }
    }
}

/// One data file while the simulator runs.
pub struct DataFile {
    pub path: PathBuf,
    pub file: File,
    /// Pages at the largest size.
    pub pages: usize,
    /// Pages in use now (grow/shrink moves it; the pages past it are held by that user).
    pub live: AtomicUsize,
    pub map: PageMap,
}

pub struct LogFile {
    pub path: PathBuf,
    pub file: File,
    pub size: u64,
    /// The last acknowledged LSN, and the LSN of the record at offset 0 of the current pass.
    pub acked: AtomicU64,
    pub pass_start: AtomicU64,
}

/// Everything the users share.
pub struct Sim<'a> {
    pub cfg: &'a Config,
    pub run_id: u64,
    pub ctx: Ctx<'a>,
    pub data: Vec<DataFile>,
    pub log: LogFile,
    pub journal: journal::Journal,
    /// Findings with the index of the user kind that made them (the bad path only).
    pub findings: Mutex<Vec<(Kind, Finding)>>,
    pub log_records: AtomicU64,
    pub log_checked: AtomicU64,
}

impl Sim<'_> {
    /// The index of the log in per-file tables (after the data files).
    pub fn log_index(&self) -> usize {
        self.data.len()
    }

    pub fn expect(&self, fi: usize, page: usize, generation: u64, pending: u64) -> Expect {
        Expect {
            run_id: self.run_id,
            file_id: fi as u32 + 1,
            address: (page * self.cfg.page) as u64,
            generation,
            pending,
        }
    }

    pub fn finding(&self, kind: Kind, f: Finding) {
        self.findings.lock().unwrap_or_else(|e| e.into_inner()).push((kind, f));
        if self.cfg.stop_on_error {
            self.ctx.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Checks a page read back; a bad one is re-read (`--rereads`) into `scratch` and
    /// reported. Returns whether it was good.
    #[allow(clippy::too_many_arguments)]
    pub fn check(
        &self,
        kind: Kind,
        m: &mut Meter,
        fi: usize,
        page: usize,
        got: &[u8],
        e: &Expect,
        scratch: &mut AlignedBuf,
    ) -> bool {
        m.pages_checked += 1;
        let unit = self.cfg.unit;
        let Some(bad) = check_page(got, unit, e) else { return true };
        let mut bad_rereads = 0;
        let file = &self.data[fi].file;
        for _ in 0..self.cfg.rereads {
            let buf = &mut scratch.as_mut_slice()[..self.cfg.page];
            mark_unread(buf, unit);
            let _ = m.read(&self.ctx, fi, file, buf, e.address);
            if check_page(buf, unit, e).is_some() {
                bad_rereads += 1;
            }
        }
        self.finding(
            kind,
            bad.finding(
                self.data[fi].path.display().to_string(),
                (page * self.cfg.page) as u64,
                self.cfg.page as u32,
                // A page found bad before expects any generation up to its last acknowledged one.
                e.generation + e.pending,
                (self.cfg.rereads, bad_rereads),
                self.ctx.start.elapsed().as_secs_f64(),
            ),
        );
        false
    }
}

/// What a run measured and found.
pub struct Outcome {
    pub tests: Vec<TestResult>,
    pub summary: Simdb,
    pub paths: Vec<(PathBuf, u64)>,
}

/// Creates and stamps the files, runs the users for `cfg.duration` seconds (or until `stop`),
/// checks the log, and removes the files unless `keep`.
pub fn run(cfg: &Config, stop: &AtomicBool, keep: bool, progress: bool) -> anyhow::Result<Outcome> {
    let prepared = match setup::create(cfg, progress) {
        Ok(p) => p,
        Err(e) => {
            // Half-made files are no evidence of anything.
            setup::remove(cfg);
            return Err(e);
        }
    };
    let out = users::run_all(cfg, prepared, stop);
    let paths = setup::all_paths(cfg);
    if !keep {
        setup::remove(cfg);
    }
    let (tests, summary) = out?;
    Ok(Outcome { tests, summary, paths })
}

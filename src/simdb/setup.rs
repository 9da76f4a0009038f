//! The simulator's files: data files created and stamped at generation 0 (as SQLIOSim
//! initialises its files), a log file allocated, and the journal's header made durable before
//! any user starts, so that a crash at any later moment leaves something to check.

use super::io::{Ctx, Gauge, Meter};
use super::journal::{Header, Journal};
use super::{Config, DataFile, LogFile};
use crate::engine::vectored::{self, Open};
use crate::engine::AlignedBuf;
use crate::verify::{stamp_page, PageMap, Stamp};
use anyhow::Context;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize};

pub const PREFIX: &str = "iolens-simdb";

/// The data files' and the log's paths in `dir`.
pub fn file_names(dir: &Path, data_files: u32) -> (Vec<PathBuf>, PathBuf) {
    let data = (1..=data_files).map(|i| dir.join(format!("{PREFIX}-data{i}.mdf"))).collect();
    (data, dir.join(format!("{PREFIX}-log.ldf")))
}

pub fn default_journal(dir: &Path) -> PathBuf {
    dir.join(format!("{PREFIX}.journal"))
}

/// Files of an earlier run left in `dir` (a run killed before its end leaves them).
pub fn leftovers(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut v: Vec<PathBuf> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(PREFIX)))
        .collect();
    v.sort();
    v
}

/// Bytes the files take: the data files at their largest, the log, and room for the journal.
pub fn needed_bytes(data_files: u32, data_size: u64, log_size: u64, page: usize) -> u64 {
    let pages = data_files as u64 * data_size / page as u64;
    data_files as u64 * data_size + log_size + 4096 + pages * 2 * super::journal::RECORD as u64
}

pub fn all_paths(cfg: &Config) -> Vec<(PathBuf, u64)> {
    let (data, log) = file_names(&cfg.dir, cfg.data_files);
    let mut v: Vec<(PathBuf, u64)> = data.into_iter().map(|p| (p, cfg.data_size)).collect();
    v.push((log, cfg.log_size));
    v
}

pub fn remove(cfg: &Config) {
    for (p, _) in all_paths(cfg) {
        let _ = std::fs::remove_file(p);
    }
    let _ = std::fs::remove_file(&cfg.journal);
}

/// The files ready for the users, with what stamping them cost.
pub struct Prepared {
    pub run_id: u64,
    pub data: Vec<DataFile>,
    pub log: LogFile,
    pub journal: Journal,
    /// The initial writes, counted in the per-file summary.
    pub init: Meter,
    pub gauges: Vec<Gauge>,
}

pub fn create(cfg: &Config, progress: bool) -> anyhow::Result<Prepared> {
    let run_id = cfg.seed.rotate_left(32)
        ^ std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1);
    let (data_paths, log_path) = file_names(&cfg.dir, cfg.data_files);
    let data_open = Open { create: true, write: true, direct: !cfg.buffered, dsync: cfg.write_through };
    let pages = (cfg.data_size / cfg.page as u64) as usize;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let gauges: Vec<Gauge> = (0..=cfg.data_files).map(|_| Gauge::default()).collect();
    let mut names: Vec<String> = data_paths.iter().map(|p| p.display().to_string()).collect();
    names.push(log_path.display().to_string());
    let ctx = Ctx {
        start: std::time::Instant::now(),
        stop: &stop,
        target_ns: u64::MAX,
        stall_ns: u64::MAX,
        stop_on_error: true,
        stalls: Default::default(),
        errors: Default::default(),
        gauges: (0..=cfg.data_files).map(|_| Gauge::default()).collect(),
        names,
        busy: vec![Default::default()],
        per_second: Vec::new(),
    };
    let mut init = Meter::new(cfg.data_files as usize + 1, 1);
    let chunk_pages = (1 << 20) / cfg.page;
    let mut buf = AlignedBuf::try_new(chunk_pages * cfg.page)?;
    let mut data = Vec::new();
    for (fi, path) in data_paths.iter().enumerate() {
        let file = vectored::open(path, data_open).with_context(|| format!("creating {}", path.display()))?;
        vectored::allocate(&file, 0, cfg.data_size).with_context(|| format!("allocating {}", path.display()))?;
        let mut p = 0;
        while p < pages {
            let n = chunk_pages.min(pages - p);
            let b = &mut buf.as_mut_slice()[..n * cfg.page];
            let address = (p * cfg.page) as u64;
            for (k, pg) in b.chunks_mut(cfg.page).enumerate() {
                let s = Stamp {
                    run_id,
                    file_id: fi as u32 + 1,
                    writer: u16::MAX,
                    address: address + (k * cfg.page) as u64,
                    generation: 0,
                    time_ns: 0,
                };
                stamp_page(pg, cfg.unit, &s);
            }
            init.write(&ctx, fi, &file, b, address)
                .with_context(|| format!("stamping {} at {address}", path.display()))?;
            p += n;
            if progress {
                eprint!("\rpreparing {}: {} %  ", path.display(), p * 100 / pages);
            }
        }
        init.flush(&ctx, fi, &file).with_context(|| format!("flushing {}", path.display()))?;
        init.pages_written += pages as u64;
        data.push(DataFile {
            path: path.clone(),
            file,
            pages,
            live: AtomicUsize::new(pages),
            map: PageMap::new(pages, 0),
        });
    }
    if progress {
        eprint!("\r\x1b[2K");
    }
    if let Some(e) = ctx.errors.lock().unwrap_or_else(|e| e.into_inner()).first() {
        anyhow::bail!("preparing the data files: {e}");
    }
    let log_open = Open { create: true, write: true, direct: !cfg.buffered, dsync: true };
    let lf = vectored::open(&log_path, log_open).with_context(|| format!("creating {}", log_path.display()))?;
    vectored::allocate(&lf, 0, cfg.log_size).with_context(|| format!("allocating {}", log_path.display()))?;
    init.flush(&ctx, cfg.data_files as usize, &lf).with_context(|| format!("flushing {}", log_path.display()))?;
    vectored::flush_dir(&cfg.dir).with_context(|| format!("flushing {}", cfg.dir.display()))?;
    let header = Header {
        run_id,
        page: cfg.page as u32,
        unit: cfg.unit as u32,
        data_size: cfg.data_size,
        data_files: cfg.data_files,
        log_size: cfg.log_size,
        write_through: cfg.write_through,
    };
    let journal = Journal::create(&cfg.journal, &header, cfg.write_through)
        .with_context(|| format!("creating the journal {}", cfg.journal.display()))?;
    let log = LogFile {
        path: log_path,
        file: lf,
        size: cfg.log_size,
        acked: AtomicU64::new(0),
        pass_start: AtomicU64::new(1),
    };
    Ok(Prepared { run_id, data, log, journal, init, gauges })
}

//! `simdb --verify-only`: the files an earlier run left (killed, or kept) checked against its
//! journal. A page must hold at least the generation journaled for it: older, or gone (the
//! file cut short), is a write acknowledged before a completed flush and lost since (stale).
//! Newer generations, whole or torn among themselves, are writes the run had issued but not
//! yet seen flushed: allowed. The log must hold its chain up to the LSN journaled.

use super::io::{Ctx, Gauge, Meter};
use super::journal::{self, Header, Replayed};
use super::logwriter::Walk;
use super::setup::file_names;
use super::{assemble, log, Config, Kind, Outcome};
use crate::engine::vectored::{self, Open};
use crate::engine::AlignedBuf;
use crate::result::simdb::{Simdb, SimdbFile};
use crate::result::verify::{Finding, FindingClass, Verification, MAX_FINDINGS};
use crate::verify::{check_page, mark_unread, Expect};
use crate::workload::Pattern;
use anyhow::Context;
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

/// Generations past the journaled one that may be on the medium after a crash: any.
const ANY_NEWER: u64 = 1 << 40;
const CHUNK_PAGES: usize = 64;

/// The journal as found, or why it cannot be used.
pub fn read_journal(path: &Path) -> anyhow::Result<Replayed> {
    journal::replay(path)
        .with_context(|| format!("reading the journal {}", path.display()))?
        .ok_or_else(|| anyhow::anyhow!("{} is not an iolens simdb journal", path.display()))
}

pub fn verify_only(dir: &Path, journal_path: &Path, buffered: bool, rereads: u32) -> anyhow::Result<Outcome> {
    let j = read_journal(journal_path)?;
    let h = &j.header;
    let cfg = config_of(dir, journal_path, h, buffered, rereads);
    let (data_paths, log_path) = file_names(dir, h.data_files);
    let mut targets: Vec<String> = data_paths.iter().map(|p| p.display().to_string()).collect();
    targets.push(log_path.display().to_string());
    let stop = AtomicBool::new(false);
    let ctx = quiet_ctx(&stop, targets.clone());
    let mut r = Reader {
        ctx: &ctx,
        m: Meter::new(data_paths.len() + 1, 1),
        v: Verification { unit: h.unit, page: h.page, rereads, ..Default::default() },
        buf: AlignedBuf::try_new(CHUNK_PAGES.max(log::MAX_RECORD / cfg.page + 1) * cfg.page)?,
        scratch: AlignedBuf::try_new(cfg.page)?,
        open: Open { create: false, write: false, direct: !buffered, dsync: false },
        run_id: h.run_id,
        page: cfg.page,
        unit: cfg.unit,
        rereads,
    };
    r.m.slot = Some(0);
    let cpu0 = crate::stats::cpu::CpuSnapshot::take();
    let mut files: Vec<SimdbFile> =
        data_paths.iter().enumerate().map(|(fi, path)| r.data_file(fi, path, j.live[fi], &j.generations[fi])).collect();
    let (log_row, log_checked) = r.log(data_paths.len(), &log_path, j.log, h.log_size);
    files.push(log_row);
    let wall = ctx.start.elapsed();
    let cpu = (cpu0, crate::stats::cpu::CpuSnapshot::take(), wall);
    let Reader { mut m, mut v, .. } = r;
    for (i, f) in files.iter_mut().enumerate() {
        m.files[i].add_to(f);
    }
    v.pages_checked = m.pages_checked;
    let block = (CHUNK_PAGES * cfg.page) as u64;
    let spec = assemble::base_spec(&cfg, Kind::Audit, block, Pattern::Sequential, 100, 1, targets);
    m.hand_over(&ctx);
    let hists = std::mem::take(&mut *ctx.per_second[0].lock().unwrap_or_else(|e| e.into_inner()));
    let test =
        assemble::test("simdb verify-only".into(), spec, &[&m], &hists, wall.as_secs_f64(), &cpu, false, Some(v));
    let summary = Simdb {
        page: h.page,
        unit: h.unit,
        users: Vec::new(),
        write_through: h.write_through,
        buffered,
        journal: journal_path.display().to_string(),
        verify_only: true,
        files,
        stall_ms: cfg.stall_ms,
        stalls: Vec::new(),
        errors: std::mem::take(&mut *ctx.errors.lock().unwrap_or_else(|e| e.into_inner())),
        log_records: j.log.map(|l| l.0).unwrap_or(0),
        log_records_checked: log_checked,
    };
    let mut paths: Vec<(PathBuf, u64)> = data_paths.into_iter().map(|p| (p, h.data_size)).collect();
    paths.push((log_path, h.log_size));
    Ok(Outcome { tests: vec![test], summary, paths })
}

/// The run the journal describes, as far as a check of its files needs it.
fn config_of(dir: &Path, journal_path: &Path, h: &Header, buffered: bool, rereads: u32) -> Config {
    Config {
        dir: dir.to_path_buf(),
        data_files: h.data_files,
        data_size: h.data_size,
        log_size: h.log_size,
        page: h.page as usize,
        unit: h.unit as usize,
        users: 0,
        duration: 0.0,
        seed: 0,
        write_through: h.write_through,
        buffered,
        target_io_ms: 0.0,
        stall_ms: crate::result::simdb::STALL_MS,
        stop_on_error: false,
        journal: journal_path.to_path_buf(),
        rereads,
    }
}

/// The timing and counting of a check: one reader, no throttle, no stall watch.
fn quiet_ctx(stop: &AtomicBool, names: Vec<String>) -> Ctx<'_> {
    Ctx {
        start: Instant::now(),
        stop,
        target_ns: u64::MAX,
        stall_ns: u64::MAX,
        stop_on_error: false,
        stalls: Mutex::new(Vec::new()),
        errors: Mutex::new(Vec::new()),
        gauges: (0..names.len()).map(|_| Gauge::default()).collect(),
        names,
        busy: vec![Default::default()],
        per_second: vec![Mutex::new(Vec::new())],
    }
}

/// Reading an earlier run's files back: its meter, what it found, and its buffers.
struct Reader<'a> {
    ctx: &'a Ctx<'a>,
    m: Meter,
    v: Verification,
    buf: AlignedBuf,
    scratch: AlignedBuf,
    open: Open,
    run_id: u64,
    page: usize,
    unit: usize,
    rereads: u32,
}

impl Reader<'_> {
    /// Checks the `live` pages of data file `fi` against the generations journaled for them,
    /// `CHUNK_PAGES` a read; returns the file's row of the summary.
    fn data_file(&mut self, fi: usize, path: &Path, live: u64, gens: &BTreeMap<u64, u64>) -> SimdbFile {
        let page = self.page;
        let file = vectored::open(path, self.open).ok();
        let len = file.as_ref().and_then(|f| f.metadata().ok()).map(|md| md.len()).unwrap_or(0);
        let gen_of = |p: u64| gens.get(&p).copied().unwrap_or(0);
        // Pages the file still holds are read; the rest are lost, each one, and are not read.
        let held = live.min(len / page as u64);
        let mut p = 0u64;
        while p < held {
            let n = CHUNK_PAGES.min((held - p) as usize);
            let b = &mut self.buf.as_mut_slice()[..n * page];
            mark_unread(b, self.unit);
            let got = match &file {
                Some(f) => self.m.read(self.ctx, fi, f, b, p * page as u64).unwrap_or(0),
                None => 0,
            };
            for k in 0..n {
                let e = self.expect(fi, (p + k as u64) * page as u64, gen_of(p + k as u64));
                self.check(fi, path, file.as_ref(), (k * page, got, len), &e);
            }
            p += n as u64;
        }
        // A journal may claim more pages than any file could hold: once the findings are full,
        // the lost pages past the end are counted, not walked one by one.
        while p < live && self.v.findings.len() < MAX_FINDINGS {
            let e = self.expect(fi, p * page as u64, gen_of(p));
            self.m.pages_checked += 1;
            self.v.add(lost(path, &e, page, len, self.rereads));
            p += 1;
        }
        self.m.pages_checked += live - p;
        self.v.findings_dropped += live - p;
        // The size the journal gives the file; a shorter file shows in the findings.
        SimdbFile {
            path: path.display().to_string(),
            kind: "data".into(),
            size: live.saturating_mul(page as u64),
            ..Default::default()
        }
    }

    fn expect(&self, fi: usize, address: u64, generation: u64) -> Expect {
        Expect { run_id: self.run_id, file_id: fi as u32 + 1, address, generation, pending: ANY_NEWER }
    }

    /// Checks the page at `at` in the buffer, of which `got` bytes were read from a file of
    /// `len` bytes; a bad one is read again `rereads` times.
    fn check(&mut self, fi: usize, path: &Path, file: Option<&File>, (at, got, len): (usize, usize, u64), e: &Expect) {
        let (page, unit, rereads) = (self.page, self.unit, self.rereads);
        self.m.pages_checked += 1;
        if e.address + page as u64 > len && at + page > got {
            self.v.add(lost(path, e, page, len, rereads));
            return;
        }
        let Some(bad) = check_page(&self.buf.as_slice()[at..at + page], unit, e) else { return };
        let mut bad_rereads = 0;
        for _ in 0..rereads {
            let s = &mut self.scratch.as_mut_slice()[..page];
            mark_unread(s, unit);
            if let Some(f) = file {
                let _ = self.m.read(self.ctx, fi, f, s, e.address);
            }
            if check_page(s, unit, e).is_some() {
                bad_rereads += 1;
            }
        }
        self.v.add(bad.finding(
            path.display().to_string(),
            e.address,
            page as u32,
            e.generation,
            (rereads, bad_rereads),
            self.ctx.start.elapsed().as_secs_f64(),
        ));
    }

    /// Reads the log (file `li`) back along its chain up to the LSN journaled (`log`: the
    /// last acknowledged LSN and its pass's first); returns its row of the summary and the
    /// records found intact.
    fn log(&mut self, li: usize, path: &Path, log: Option<(u64, u64)>, size: u64) -> (SimdbFile, u64) {
        let lf = vectored::open(path, self.open).ok();
        let row = SimdbFile {
            path: path.display().to_string(),
            kind: "log".into(),
            size: lf.as_ref().and_then(|f| f.metadata().ok()).map(|md| md.len()).unwrap_or(0),
            ..Default::default()
        };
        let (Some((acked, pass_start)), Some(f)) = (log, &lf) else { return (row, 0) };
        let unit = self.unit;
        let b = self.buf.as_mut_slice();
        let first_at_0 = match self.m.read(self.ctx, li, f, &mut b[..unit], 0) {
            Ok(n) if n == unit => log::header(&b[..unit], unit).map(|(_, _, lsn, _)| lsn),
            _ => None,
        };
        let w = Walk { ctx: self.ctx, fi: li, file: f, unit, run_id: self.run_id };
        let checked = match first_at_0 {
            // A log that wrapped after the journal was written holds newer records at its
            // start and the acknowledged ones were overwritten, as a log is meant to be: its
            // chain is read as far as it goes, with nothing it must reach.
            Some(first) if first > acked => w.walk(&mut self.m, b, first, u64::MAX - 1, size, self.rereads, false).0,
            _ => {
                let (checked, bad) = w.walk(&mut self.m, b, pass_start, acked, size, self.rereads, true);
                if let Some(bad) = bad {
                    self.v.add(Finding { file: path.display().to_string(), ..bad });
                }
                checked
            }
        };
        (row, checked)
    }
}

/// A page past the end of its file: the file was cut after the page was flushed.
fn lost(path: &Path, e: &Expect, page: usize, len: u64, rereads: u32) -> Finding {
    Finding {
        file: path.display().to_string(),
        offset: e.address,
        len: page as u32,
        class: FindingClass::Stale,
        expected_gen: e.generation,
        found_gen: None,
        found_offset: None,
        found_file: None,
        diff_at: 0,
        diff: format!("expected generation {} / found nothing: the file ends at {len}", e.generation),
        rereads,
        bad_rereads: rereads,
        at_s: 0.0,
    }
}

//! `simdb --verify-only`: the files an earlier run left (killed, or kept) checked against its
//! journal. A page must hold at least the generation journaled for it: older, or gone (the
//! file cut short), is a write acknowledged before a completed flush and lost since (stale).
//! Newer generations, whole or torn among themselves, are writes the run had issued but not
//! yet seen flushed: allowed. The log must hold its chain up to the LSN journaled.

use super::io::{Ctx, Gauge, Meter};
use super::journal::{self, Replayed};
use super::logwriter::Walk;
use super::setup::file_names;
use super::{assemble, Config, Kind, Outcome};
use crate::engine::vectored::{self, Open};
use crate::engine::AlignedBuf;
use crate::result::simdb::{Simdb, SimdbFile};
use crate::result::verify::{Finding, FindingClass, Verification};
use crate::verify::{check_page, mark_unread, Expect};
use crate::workload::Pattern;
use anyhow::Context;
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
    let (page, unit) = (h.page as usize, h.unit as usize);
    let cfg = Config {
        dir: dir.to_path_buf(),
        data_files: h.data_files,
        data_size: h.data_size,
        log_size: h.log_size,
        page,
        unit,
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
    };
    let (data_paths, log_path) = file_names(dir, h.data_files);
    let mut names: Vec<String> = data_paths.iter().map(|p| p.display().to_string()).collect();
    names.push(log_path.display().to_string());
    let stop = AtomicBool::new(false);
    let ctx = Ctx {
        start: Instant::now(),
        stop: &stop,
        target_ns: u64::MAX,
        stall_ns: u64::MAX,
        stop_on_error: false,
        stalls: Mutex::new(Vec::new()),
        errors: Mutex::new(Vec::new()),
        gauges: (0..names.len()).map(|_| Gauge::default()).collect(),
        names,
        busy: vec![Default::default()],
        per_second: vec![Mutex::new(Vec::new())],
    };
    let mut m = Meter::new(data_paths.len() + 1, 1);
    m.slot = Some(0);
    let mut v = Verification { unit: h.unit, page: h.page, rereads, ..Default::default() };
    let mut buf = AlignedBuf::try_new(CHUNK_PAGES.max(super::log::MAX_RECORD / page + 1) * page)?;
    let mut scratch = AlignedBuf::try_new(page)?;
    let open = Open { create: false, write: false, direct: !buffered, dsync: false };
    let cpu0 = crate::stats::cpu::CpuSnapshot::take();
    let mut files = Vec::new();
    for (fi, path) in data_paths.iter().enumerate() {
        let live = j.live[fi] as usize;
        let file = vectored::open(path, open).ok();
        let len = file.as_ref().and_then(|f| f.metadata().ok()).map(|md| md.len()).unwrap_or(0);
        // The size the journal gives the file; a shorter file shows in the findings.
        files.push(SimdbFile {
            path: path.display().to_string(),
            kind: "data".into(),
            size: (live * page) as u64,
            ..Default::default()
        });
        let gens = &j.generations[fi];
        let expect = |p: usize| Expect {
            run_id: h.run_id,
            file_id: fi as u32 + 1,
            address: (p * page) as u64,
            generation: gens[p],
            pending: ANY_NEWER,
        };
        let mut p = 0;
        while p < live {
            let n = CHUNK_PAGES.min(live - p);
            let b = &mut buf.as_mut_slice()[..n * page];
            mark_unread(b, unit);
            let got = match &file {
                Some(f) if ((p * page) as u64) < len => m.read(&ctx, fi, f, b, (p * page) as u64).unwrap_or(0),
                _ => 0,
            };
            for k in 0..n {
                let e = expect(p + k);
                m.pages_checked += 1;
                let at = k * page;
                if e.address + page as u64 > len && at + page > got {
                    v.add(lost(path, &e, page, len, rereads));
                    continue;
                }
                let Some(bad) = check_page(&b[at..at + page], unit, &e) else { continue };
                let mut bad_rereads = 0;
                for _ in 0..rereads {
                    let s = &mut scratch.as_mut_slice()[..page];
                    mark_unread(s, unit);
                    if let Some(f) = &file {
                        let _ = m.read(&ctx, fi, f, s, e.address);
                    }
                    if check_page(s, unit, &e).is_some() {
                        bad_rereads += 1;
                    }
                }
                v.add(bad.finding(
                    path.display().to_string(),
                    e.address,
                    page as u32,
                    e.generation,
                    (rereads, bad_rereads),
                    ctx.start.elapsed().as_secs_f64(),
                ));
            }
            p += n;
        }
    }
    let mut log_checked = 0;
    let lf = vectored::open(&log_path, open).ok();
    files.push(SimdbFile {
        path: log_path.display().to_string(),
        kind: "log".into(),
        size: lf.as_ref().and_then(|f| f.metadata().ok()).map(|md| md.len()).unwrap_or(0),
        ..Default::default()
    });
    if let (Some((acked, pass_start)), Some(f)) = (j.log, &lf) {
        let li = data_paths.len();
        let b = buf.as_mut_slice();
        let first_at_0 = match m.read(&ctx, li, f, &mut b[..unit], 0) {
            Ok(n) if n == unit => super::log::header(&b[..unit], unit).map(|(_, _, lsn, _)| lsn),
            _ => None,
        };
        let w = Walk { ctx: &ctx, fi: li, file: f, unit, run_id: h.run_id };
        match first_at_0 {
            // A log that wrapped after the journal was written holds newer records at its
            // start and the acknowledged ones were overwritten, as a log is meant to be: its
            // chain is read as far as it goes, with nothing it must reach.
            Some(first) if first > acked => {
                log_checked = w.walk(&mut m, b, first, u64::MAX - 1, h.log_size, rereads, false).0;
            }
            _ => {
                let (checked, bad) = w.walk(&mut m, b, pass_start, acked, h.log_size, rereads, true);
                log_checked = checked;
                if let Some(bad) = bad {
                    v.add(Finding { file: log_path.display().to_string(), ..bad });
                }
            }
        }
    }
    let wall = ctx.start.elapsed();
    let cpu = (cpu0, crate::stats::cpu::CpuSnapshot::take(), wall);
    for (i, f) in files.iter_mut().enumerate() {
        m.files[i].add_to(f);
    }
    v.pages_checked = m.pages_checked;
    let mut targets: Vec<String> = data_paths.iter().map(|p| p.display().to_string()).collect();
    targets.push(log_path.display().to_string());
    let block = (CHUNK_PAGES * page) as u64;
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

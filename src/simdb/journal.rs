//! The generation journal: what a crash must not lose. A header describes the run (run id,
//! page and unit sizes, the files); then fixed 32-byte records, each with its own CRC-32C:
//!
//! - a page's acknowledged generation, as of a completed flush (or, with write-through, as
//!   soon as the write is acknowledged);
//! - a data file's live size (it grows and shrinks), with a sequence number;
//! - the log's last acknowledged LSN and the LSN at the start of its current pass.
//!
//! Writers reserve their place with one atomic add and write without a lock; a record torn or
//! left as a hole by a crash fails its CRC and is skipped. Replaying takes, per page, the
//! highest generation recorded: generations only grow, so the order of records does not matter,
//! and a journal that lags behind the data is safe (a newer page is allowed after a crash, an
//! older one is a lost write).

use crate::engine::vectored;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

const MAGIC: [u8; 4] = *b"IOLJ";
const HEADER_MAGIC: [u8; 8] = *b"IOLSIMDB";
pub const RECORD: usize = 32;
/// Records start here; the header fits before.
const START: u64 = 4096;

const PAGE: u8 = 1;
const LIVE: u8 = 2;
const LOG: u8 = 3;

/// What the journal says about the run, written once before the workload starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub run_id: u64,
    pub page: u32,
    pub unit: u32,
    /// Bytes of each data file at its largest.
    pub data_size: u64,
    pub data_files: u32,
    pub log_size: u64,
    pub write_through: bool,
}

impl Header {
    fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64);
        b.extend_from_slice(&HEADER_MAGIC);
        b.extend_from_slice(&self.run_id.to_le_bytes());
        b.extend_from_slice(&self.page.to_le_bytes());
        b.extend_from_slice(&self.unit.to_le_bytes());
        b.extend_from_slice(&self.data_size.to_le_bytes());
        b.extend_from_slice(&self.data_files.to_le_bytes());
        b.extend_from_slice(&self.log_size.to_le_bytes());
        b.push(self.write_through as u8);
        let c = crc32c::crc32c(&b);
        b.extend_from_slice(&c.to_le_bytes());
        b
    }

    fn decode(b: &[u8]) -> Option<Header> {
        let n = 8 + 8 + 4 + 4 + 8 + 4 + 8 + 1;
        if b.len() < n + 4 || b[..8] != HEADER_MAGIC || crc32c::crc32c(&b[..n]).to_le_bytes() != b[n..n + 4] {
            return None;
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        let h = Header {
            run_id: u64_at(8),
            page: u32_at(16),
            unit: u32_at(20),
            data_size: u64_at(24),
            data_files: u32_at(32),
            log_size: u64_at(36),
            write_through: b[44] != 0,
        };
        // Only what `simdb` itself accepts: a page of 0 would divide by zero, 2^32 files
        // would be named before any is looked at.
        let (page, unit) = (h.page as u64, h.unit as u64);
        let sane = unit >= 512
            && unit.is_power_of_two()
            && (unit..=64 << 10).contains(&page)
            && page.is_multiple_of(unit)
            && (1..=64).contains(&h.data_files)
            && h.data_size >= page
            && h.data_size.is_multiple_of(page);
        sane.then_some(h)
    }
}

/// One record, to append.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A page's acknowledged generation.
    Page { file: u32, page: u64, generation: u64 },
    /// A data file's live pages; the highest `seq` wins.
    Live { file: u32, pages: u64, seq: u64 },
    /// The log: last acknowledged LSN, the LSN of the record at offset 0 of its pass.
    Log { acked: u64, pass_start: u64 },
}

pub fn encode(e: Entry, out: &mut [u8]) {
    let (kind, file, a, b) = match e {
        Entry::Page { file, page, generation } => (PAGE, file, page, generation),
        Entry::Live { file, pages, seq } => (LIVE, file, pages, seq),
        Entry::Log { acked, pass_start } => (LOG, 0, acked, pass_start),
    };
    out[..4].copy_from_slice(&MAGIC);
    out[4] = kind;
    out[5..8].fill(0);
    out[8..12].copy_from_slice(&file.to_le_bytes());
    out[12..20].copy_from_slice(&a.to_le_bytes());
    out[20..28].copy_from_slice(&b.to_le_bytes());
    let c = crc32c::crc32c(&out[..28]);
    out[28..32].copy_from_slice(&c.to_le_bytes());
}

fn decode(r: &[u8]) -> Option<Entry> {
    if r[..4] != MAGIC || crc32c::crc32c(&r[..28]).to_le_bytes() != r[28..32] {
        return None;
    }
    let file = u32::from_le_bytes(r[8..12].try_into().unwrap());
    let a = u64::from_le_bytes(r[12..20].try_into().unwrap());
    let b = u64::from_le_bytes(r[20..28].try_into().unwrap());
    match r[4] {
        PAGE => Some(Entry::Page { file, page: a, generation: b }),
        LIVE => Some(Entry::Live { file, pages: a, seq: b }),
        LOG => Some(Entry::Log { acked: a, pass_start: b }),
        _ => None,
    }
}

pub struct Journal {
    pub path: PathBuf,
    file: File,
    next: AtomicU64,
}

impl Journal {
    /// Creates the journal (it must not exist) and makes the header durable. With `dsync`
    /// every append is durable when it returns.
    pub fn create(path: &Path, h: &Header, dsync: bool) -> io::Result<Journal> {
        let file = vectored::open(path, vectored::Open { create: true, write: true, direct: false, dsync })?;
        vectored::write_at(&file, &h.encode(), 0)?;
        vectored::flush(&file)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            vectored::flush_dir(dir)?;
        }
        Ok(Journal { path: path.to_path_buf(), file, next: AtomicU64::new(START) })
    }

    /// Appends encoded records (`RECORD` bytes each) at a place of their own.
    pub fn append(&self, records: &[u8]) -> io::Result<()> {
        debug_assert_eq!(records.len() % RECORD, 0);
        if records.is_empty() {
            return Ok(());
        }
        let at = self.next.fetch_add(records.len() as u64, Ordering::Relaxed);
        let n = vectored::write_at(&self.file, records, at)?;
        if n != records.len() {
            return Err(io::Error::other(format!("journal: {n} of {} bytes written", records.len())));
        }
        Ok(())
    }

    /// Makes every append so far durable.
    pub fn sync(&self) -> io::Result<()> {
        vectored::flush(&self.file)
    }
}

/// The journal as replayed after a run or a crash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    pub header: Header,
    /// Per data file, the pages with a record: the highest acknowledged generation recorded.
    /// A page without one holds generation 0 (the initial stamping, which the header's presence
    /// vouches for). Kept sparse so that memory grows with the journal on disk, not with the
    /// size its header claims.
    pub generations: Vec<BTreeMap<u64, u64>>,
    /// Per data file: its live pages.
    pub live: Vec<u64>,
    /// The log's last acknowledged LSN and its pass's first LSN, if any record was journaled.
    pub log: Option<(u64, u64)>,
    pub records: u64,
    /// Records that failed their CRC (torn by a crash, or damaged).
    pub skipped: u64,
}

/// Reads a journal back. None when it has no valid header (not a journal of this tool).
pub fn replay(path: &Path) -> io::Result<Option<Replayed>> {
    // A FIFO or a device named as the journal would block or never end.
    if !std::fs::metadata(path)?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    // Streamed: a journal grows with the run, and nothing here needs it whole.
    let mut f = io::BufReader::with_capacity(1 << 20, File::open(path)?);
    let mut head = vec![0u8; START as usize];
    let got = read_full(&mut f, &mut head)?;
    let Some(header) = Header::decode(&head[..got]) else { return Ok(None) };
    let pages = header.data_size / header.page as u64;
    let mut r = Replayed {
        generations: vec![BTreeMap::new(); header.data_files as usize],
        live: vec![pages; header.data_files as usize],
        header,
        log: None,
        records: 0,
        skipped: 0,
    };
    let mut live_seq = vec![0u64; r.live.len()];
    let mut rec = [0u8; RECORD];
    while got == START as usize && read_full(&mut f, &mut rec)? == RECORD {
        r.apply(&rec, pages, &mut live_seq);
    }
    Ok(Some(r))
}

impl Replayed {
    fn apply(&mut self, rec: &[u8; RECORD], pages: u64, live_seq: &mut [u64]) {
        if rec.iter().all(|&b| b == 0) {
            // A place reserved but never written (the writer was killed first).
            return;
        }
        let Some(e) = decode(rec) else {
            self.skipped += 1;
            return;
        };
        self.records += 1;
        match e {
            Entry::Page { file, page, generation } => {
                if let Some(f) = self.generations.get_mut(file as usize).filter(|_| page < pages) {
                    let g = f.entry(page).or_insert(0);
                    *g = (*g).max(generation);
                }
            }
            Entry::Live { file, pages: n, seq } => {
                let f = file as usize;
                if f < self.live.len() && seq >= live_seq[f] && n <= pages {
                    live_seq[f] = seq;
                    self.live[f] = n;
                }
            }
            Entry::Log { acked, pass_start } => {
                if self.log.is_none_or(|(a, _)| acked >= a) {
                    self.log = Some((acked, pass_start));
                }
            }
        }
    }
}

/// Fills `buf` as far as the reader goes; the count read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests;

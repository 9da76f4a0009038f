//! Linux blktrace captures, read directly: the per-CPU files `blktrace -d DEV` writes
//! (DEV.blktrace.0, .1, …), each a run of `struct blk_io_trace` records (48 bytes, then
//! `pdu_len` bytes of payload) in the byte order of the machine that captured them.
//!
//! As fio's read_iolog, the I/Os are the queue (Q) events: what the application asked for,
//! before the block layer merged or split it. The capture's own latency comes from the issue
//! (D) and complete (C) events, matched by device and sector, which is what the device took.

use super::{Parsed, TraceIo, TraceOp};
use crate::error::UsageError;

/// `BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION`, as blktrace writes it.
pub const MAGIC: u32 = 0x6561_7400;
pub const VERSION: u32 = 0x07;
/// The fixed part of a record; its payload follows.
pub const RECORD: usize = 48;
/// The most records a capture may hold (all its files together): a few minutes of a busy disk,
/// far below what would strain memory.
pub const RECORD_LIMIT: usize = 4_000_000;

// Categories (the action's upper 16 bits) and actions (its lower 16), from blktrace_api.h.
const TC_WRITE: u32 = 1 << 1;
const TC_FLUSH: u32 = 1 << 2;
const TC_NOTIFY: u32 = 1 << 10;
const TC_DISCARD: u32 = 1 << 13;
const TA_QUEUE: u32 = 1;
const TA_ISSUE: u32 = 7;
const TA_COMPLETE: u32 = 8;

/// Whether `data` starts as a blktrace capture does, in either byte order.
pub fn is_blktrace(data: &[u8]) -> bool {
    let Some(head) = data.get(..4) else { return false };
    let head: [u8; 4] = head.try_into().unwrap_or_default();
    [u32::from_le_bytes(head), u32::from_be_bytes(head)].iter().any(|m| m & !0xff == MAGIC)
}

/// One record's fields that replay needs.
#[derive(Debug, Clone, Copy)]
struct Event {
    time: u64,
    sector: u64,
    bytes: u32,
    action: u32,
    device: u32,
}

/// The events of one per-CPU file, in file order; errors name `shown`, the byte offset and
/// what was expected there. `budget` is what is left of `RECORD_LIMIT`.
fn events(data: &[u8], shown: &str, budget: usize, out: &mut Vec<Event>) -> Result<(), UsageError> {
    let bad = |at: usize, what: String| UsageError::new(shown, format!("byte {at}: expected {what}"));
    let big_endian = match data.get(..4).map(|h| [h[0], h[1], h[2], h[3]]) {
        // A CPU that saw no I/O leaves its file empty.
        None if data.is_empty() => return Ok(()),
        Some(h) if u32::from_le_bytes(h) & !0xff == MAGIC => false,
        Some(h) if u32::from_be_bytes(h) & !0xff == MAGIC => true,
        _ => return Err(bad(0, format!("a blk_io_trace record (magic {MAGIC:#x})"))),
    };
    let u32_at = |b: &[u8], o: usize| {
        let v = [b[o], b[o + 1], b[o + 2], b[o + 3]];
        if big_endian {
            u32::from_be_bytes(v)
        } else {
            u32::from_le_bytes(v)
        }
    };
    let u64_at = |b: &[u8], o: usize| {
        let v: [u8; 8] = b[o..o + 8].try_into().unwrap_or_default();
        if big_endian {
            u64::from_be_bytes(v)
        } else {
            u64::from_le_bytes(v)
        }
    };
    let (mut at, mut n) = (0usize, 0usize);
    while at < data.len() {
        let Some(r) = data.get(at..at + RECORD) else {
            return Err(bad(at, format!("a {RECORD}-byte record; the file ends {} bytes on", data.len() - at)));
        };
        let magic = u32_at(r, 0);
        if magic & !0xff != MAGIC {
            return Err(bad(at, format!("a record's magic {MAGIC:#x}, found {magic:#010x}")));
        }
        if magic & 0xff != VERSION {
            return Err(bad(at, format!("blk_io_trace version {VERSION}, found {}", magic & 0xff)));
        }
        let pdu = if big_endian { u16::from_be_bytes([r[46], r[47]]) } else { u16::from_le_bytes([r[46], r[47]]) };
        let left = data.len() - at - RECORD;
        if pdu as usize > left {
            return Err(bad(
                at,
                format!("a payload of at most {left} bytes (what the file holds), found pdu_len {pdu}"),
            ));
        }
        n += 1;
        if n > budget {
            return Err(bad(at, format!("no more than {RECORD_LIMIT} records in the capture")));
        }
        let (sector, bytes) = (u64_at(r, 16), u32_at(r, 24));
        // No file or device holds a byte past i64::MAX: such a request could only fail.
        if sector.checked_mul(512).and_then(|o| o.checked_add(bytes.into())).is_none_or(|end| end > i64::MAX as u64) {
            return Err(bad(
                at,
                format!("a request that ends below 2^63 bytes, found sector {sector} of {bytes} bytes"),
            ));
        }
        out.push(Event { time: u64_at(r, 8), sector, bytes, action: u32_at(r, 28), device: u32_at(r, 36) });
        at += RECORD + pdu as usize;
    }
    Ok(())
}

/// The trace's name for a captured device (the kernel's dev_t: MAJOR << 20 | MINOR), as
/// blkparse shows it.
fn device_name(dev: u32) -> String {
    format!("dev {},{}", dev >> 20, dev & 0xf_ffff)
}

/// A capture's per-CPU files, merged by time: its I/Os (one file of the trace per device,
/// named "dev MAJOR,MINOR"), and each issued request's latency where it completed.
pub fn parse_blktrace(files: &[(&str, &[u8])]) -> Result<Parsed, UsageError> {
    let mut all = Vec::new();
    for (shown, data) in files {
        events(data, shown, RECORD_LIMIT - all.len(), &mut all)?;
    }
    // Per-CPU files are each in time order; a stable sort keeps a CPU's own order on ties.
    all.sort_by_key(|e| e.time);
    let mut p = Parsed { format: super::Format::Blktrace, files: Vec::new(), ios: Vec::new(), capture_ns: Vec::new() };
    let mut devices: Vec<u32> = Vec::new();
    let mut issued: std::collections::HashMap<(u32, u64), u64> = Default::default();
    let t0 = all.iter().find(|e| e.action & 0xffff == TA_QUEUE && e.action >> 16 & TC_NOTIFY == 0).map(|e| e.time);
    for e in &all {
        let (cat, act) = (e.action >> 16, e.action & 0xffff);
        if cat & TC_NOTIFY != 0 {
            continue;
        }
        match act {
            TA_ISSUE => {
                issued.insert((e.device, e.sector), e.time);
            }
            TA_COMPLETE => {
                if let Some(t) = issued.remove(&(e.device, e.sector)) {
                    p.capture_ns.push(e.time.saturating_sub(t));
                }
            }
            TA_QUEUE => {
                let op = if cat & TC_DISCARD != 0 {
                    TraceOp::Trim
                } else if cat & TC_FLUSH != 0 {
                    TraceOp::Flush
                } else if cat & TC_WRITE != 0 {
                    TraceOp::Write
                } else {
                    TraceOp::Read
                };
                // fio skips queued bios without data that are not flushes, and so does iolens.
                if e.bytes == 0 && op != TraceOp::Flush {
                    continue;
                }
                let file = match devices.iter().position(|d| *d == e.device) {
                    Some(i) => i,
                    None if devices.len() == super::parse::MAX_FILES => {
                        let msg = format!("more than {} devices in one capture", super::parse::MAX_FILES);
                        return Err(UsageError::new(files.first().map_or("", |f| f.0), msg));
                    }
                    None => {
                        devices.push(e.device);
                        p.files.push(device_name(e.device));
                        devices.len() - 1
                    }
                } as u32;
                let (offset, len) = if op == TraceOp::Flush { (0, 0) } else { (e.sector * 512, e.bytes) };
                let at_ns = e.time.saturating_sub(t0.unwrap_or(e.time));
                p.ios.push(TraceIo { at_ns, offset, len, file, op });
            }
            _ => {}
        }
    }
    Ok(p)
}

/// The files a capture named `path` stands for: the file itself when it exists; else several,
/// separated by ':' (as fio's read_iolog takes them); else the per-CPU files of a prefix,
/// `PREFIX.blktrace.N` or `PREFIX.N` (as blkparse -i takes it), in CPU order.
pub fn capture_files(path: &std::path::Path) -> Vec<std::path::PathBuf> {
    use std::path::{Path, PathBuf};
    let Some(s) = path.to_str().filter(|_| !path.exists()) else { return vec![path.to_path_buf()] };
    if s.contains(':') {
        return s.split(':').map(PathBuf::from).collect();
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return vec![path.to_path_buf()] };
    for stem in [format!("{name}.blktrace."), format!("{name}.")] {
        let mut cpus: Vec<(u32, PathBuf)> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok())
            .filter_map(|e| Some((e.file_name().to_str()?.strip_prefix(&stem)?.parse().ok()?, e.path())))
            .collect();
        if !cpus.is_empty() {
            cpus.sort();
            return cpus.into_iter().map(|(_, p)| p).collect();
        }
    }
    vec![path.to_path_buf()]
}

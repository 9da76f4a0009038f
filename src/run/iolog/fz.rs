//! fio's log_store_compressed files (`.log.fz`): its binary samples (iolog.h `struct
//! io_sample`, then the offset with log_offset), in zlib streams one after another; and fio's
//! `--inflate-log`, which prints them as the text log.

use miniz_oxide::inflate::stream::{inflate as inflate_stream, InflateState};
use miniz_oxide::{DataFormat, MZFlush, MZStatus};
use std::fmt::Write as _;

/// iolog.h's flags in a sample's direction word.
const OFFSET_BIT: u32 = 0x8000_0000;
const PRIO_BIT: u32 = 0x4000_0000;

/// Appends one sample in fio's layout (little-endian, 32 bytes, 40 with the offset).
pub fn encode(b: &mut Vec<u8>, ms: u64, v: u64, ddir: u32, bs: u64, offset: Option<u64>, prio: (bool, u16)) {
    let flags = if offset.is_some() { OFFSET_BIT } else { 0 } | if prio.0 { PRIO_BIT } else { 0 };
    b.extend_from_slice(&ms.to_le_bytes());
    b.extend_from_slice(&v.to_le_bytes());
    b.extend_from_slice(&(ddir | flags).to_le_bytes());
    // The priority, then the padding before bs.
    b.extend_from_slice(&prio.1.to_le_bytes());
    b.extend_from_slice(&[0; 2]);
    b.extend_from_slice(&bs.to_le_bytes());
    if let Some(o) = offset {
        b.extend_from_slice(&o.to_le_bytes());
    }
}

pub fn deflate(raw: Vec<u8>) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(&raw, 6)
}

/// The text of a `.log.fz` file: every zlib stream in it inflated, its samples printed.
pub fn inflate(packed: &[u8]) -> Result<String, String> {
    let mut t = Vec::new();
    inflate_to(packed, &mut t).expect("a Vec takes every write")?;
    Ok(String::from_utf8(t).expect("printed samples are ASCII"))
}

/// `inflate` printed to `out` as the streams inflate, so memory stays at one buffer however far
/// the file inflates (a few MiB of zlib can stand for many GiB of samples). The outer error is
/// `out` failing, the inner one the file not being fio's.
pub fn inflate_to(packed: &[u8], out: &mut dyn std::io::Write) -> std::io::Result<Result<(), String>> {
    let mut rest = packed;
    let mut buf = vec![0u8; 1 << 16];
    // Inflated bytes not yet printed: at most one partial sample between reads.
    let mut raw = Vec::with_capacity(1 << 16);
    let mut layout = None;
    let mut text = String::new();
    while !rest.is_empty() {
        let mut st = InflateState::new_boxed(DataFormat::Zlib);
        loop {
            let r = inflate_stream(&mut st, rest, &mut buf, MZFlush::None);
            raw.extend_from_slice(&buf[..r.bytes_written]);
            rest = &rest[r.bytes_consumed..];
            let used = print(&raw, &mut layout, &mut text);
            raw.drain(..used);
            out.write_all(text.as_bytes())?;
            text.clear();
            match r.status {
                Ok(MZStatus::StreamEnd) => break,
                Ok(_) if r.bytes_consumed == 0 && r.bytes_written == 0 => {
                    return Ok(Err("the file ends inside a stream".into()))
                }
                Ok(_) => {}
                Err(e) => return Ok(Err(format!("not a zlib stream at byte {} ({e:?})", packed.len() - rest.len()))),
            }
        }
    }
    Ok(Ok(()))
}

/// fio's flush_samples over inflated samples, as many whole ones as `raw` holds; the first
/// sample's flags give every one's layout. Returns the bytes printed.
fn print(raw: &[u8], layout: &mut Option<(bool, bool)>, t: &mut String) -> usize {
    let word = |at: usize| u64::from_le_bytes(raw[at..at + 8].try_into().expect("8 bytes"));
    let (with_offset, prio) = match *layout {
        Some(l) => l,
        None => {
            let Some(first) = raw.get(16..20) else { return 0 };
            let flags = u32::from_le_bytes(first.try_into().expect("4 bytes"));
            *layout.insert((flags & OFFSET_BIT != 0, flags & PRIO_BIT != 0))
        }
    };
    let size = if with_offset { 40 } else { 32 };
    for at in (0..raw.len() / size).map(|i| i * size) {
        let ddir = u32::from_le_bytes(raw[at + 16..at + 20].try_into().expect("4 bytes")) & !(OFFSET_BIT | PRIO_BIT);
        let offset = with_offset.then(|| word(at + 32));
        let ioprio = u16::from_le_bytes(raw[at + 20..at + 22].try_into().expect("2 bytes"));
        let (ms, v, bs) = (word(at), word(at + 8), word(at + 24));
        format_line(t, &Row { ms, v, v1: None, ddir, bs, offset, prio: (prio, ioprio), issue: None });
    }
    raw.len() / size * size
}

/// One line of a log: time (ms), value, the window's largest value (log_window_value=both),
/// direction, size, offset (log_offset), priority (with log_prio its value, else whether it is
/// real-time) and issue time (log_issue_time, ns).
pub struct Row {
    pub ms: u64,
    pub v: u64,
    pub v1: Option<u64>,
    pub ddir: u32,
    pub bs: u64,
    pub offset: Option<u64>,
    pub prio: (bool, u16),
    pub issue: Option<u64>,
}

/// One line as fio's flush_samples prints it.
pub fn format_line(t: &mut String, r: &Row) {
    let _ = write!(t, "{}, {}", r.ms, r.v);
    if let Some(v1) = r.v1 {
        let _ = write!(t, ", {v1}");
    }
    let _ = write!(t, ", {}, {}", r.ddir, r.bs);
    if let Some(o) = r.offset {
        let _ = write!(t, ", {o}");
    }
    let _ = if r.prio.0 { write!(t, ", 0x{:04x}", r.prio.1) } else { write!(t, ", {}", u8::from(r.prio.1 >> 13 == 1)) };
    if let Some(i) = r.issue {
        let _ = write!(t, ", {i}");
    }
    t.push('\n');
}

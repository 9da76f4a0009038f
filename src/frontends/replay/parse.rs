//! Reading text traces: fio's iolog versions 2 and 3 (as fio's `read_iolog`) and iolens's own
//! CSV (written by `--trace`, and with time stamps and latencies by `iolens capture`). Where fio passes over a line it cannot read
//! with a message, iolens stops: a replay that silently drops I/Os would measure another
//! workload. Errors name the file, the line and what was expected.

use super::{Parsed, TraceIo, TraceOp};
use crate::error::UsageError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    FioV2,
    FioV3,
    Iolens,
    Blktrace,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::FioV2 => "fio iolog v2",
            Format::FioV3 => "fio iolog v3",
            Format::Iolens => "iolens trace",
            Format::Blktrace => crate::workload::trace::BLKTRACE,
        }
    }
}

/// Files one trace may name.
pub const MAX_FILES: usize = 1024;

/// The header `engine::trace` writes above its CSV.
pub const IOLENS_HEADER: &str = "worker,file,op,offset,length";
/// The same with each I/O's time (ns after the first) and, where the capture saw it complete,
/// its latency (ns; empty when not), as `iolens capture` writes it.
pub const TIMED_HEADER: &str = "worker,file,op,offset,length,time_ns,latency_ns";

/// One row under `TIMED_HEADER`, newline included.
pub fn timed_row(op: TraceOp, offset: u64, len: u32, time_ns: u64, latency_ns: Option<u64>) -> String {
    let op = match op {
        TraceOp::Read => "read",
        TraceOp::Write => "write",
        TraceOp::Trim => "trim",
        TraceOp::Flush => "fsync",
    };
    let lat = latency_ns.map_or(String::new(), |l| l.to_string());
    format!("0,0,{op},{offset},{len},{time_ns},{lat}\n")
}

/// The trace's format, its file names in order of first appearance, its I/Os in order, and
/// the latencies it recorded.
pub fn parse(text: &str, shown: &str) -> Result<Parsed, UsageError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty());
    let bad = |n: usize, what: &str| UsageError::new(shown, format!("line {n}: expected {what}"));
    let limit = |n: usize, why: &str| UsageError::new(shown, format!("line {n}: {why}"));
    let Some((n, head)) = lines.next() else {
        return Err(bad(1, &format!("'fio version 2 iolog', 'fio version 3 iolog' or '{IOLENS_HEADER}'")));
    };
    let format = match head {
        "fio version 2 iolog" => Format::FioV2,
        "fio version 3 iolog" => Format::FioV3,
        h if h == IOLENS_HEADER || h == TIMED_HEADER => Format::Iolens,
        _ => {
            return Err(bad(
                n,
                &format!("'fio version 2 iolog', 'fio version 3 iolog' or '{IOLENS_HEADER}' as the first line"),
            ))
        }
    };
    let timed = head == TIMED_HEADER;
    let mut t = Reader { files: Vec::new(), ios: Vec::new(), at_ns: 0, t0: None, lat: Vec::new(), beyond: None };
    for (n, line) in lines {
        let (read, expected) = match format {
            Format::FioV2 => {
                (t.fio(line, false), "'FILE add|open|close' or 'FILE read|write|trim|sync|datasync|wait OFFSET LENGTH'")
            }
            Format::FioV3 => (
                t.fio(line, true),
                "'TIME_US FILE add|open|close' or 'TIME_US FILE read|write|trim|sync|datasync OFFSET LENGTH'",
            ),
            _ if timed => (
                t.iolens(line, true),
                "worker,file,op,offset,length,time_ns,latency_ns (op read, write, fsync or trim; time_ns not going back)",
            ),
            _ => (t.iolens(line, false), "worker,file,op,offset,length (op read, write, fsync or trim)"),
        };
        if read.is_none() {
            return Err(t.beyond.map_or_else(|| bad(n, expected), |why| limit(n, why)));
        }
    }
    Ok(Parsed { format, files: t.files, ios: t.ios, capture_ns: t.lat })
}

struct Reader {
    files: Vec<String>,
    ios: Vec<TraceIo>,
    /// The schedule so far, ns after the trace's first time stamp.
    at_ns: u64,
    /// A v3 trace's first time stamp, µs.
    t0: Option<u64>,
    /// Latencies the trace recorded, ns.
    lat: Vec<u64>,
    /// Why a line that reads well cannot be replayed.
    beyond: Option<&'static str>,
}

impl Reader {
    /// The file's index; None past `MAX_FILES` (each is a target opened at once, and the
    /// lookup is a scan).
    fn file(&mut self, name: &str) -> Option<u32> {
        match self.files.iter().position(|f| f == name) {
            Some(i) => Some(i as u32),
            None if self.files.len() < MAX_FILES => {
                self.files.push(name.to_string());
                Some(self.files.len() as u32 - 1)
            }
            None => {
                self.beyond = Some("more than 1024 files in one trace");
                None
            }
        }
    }

    /// One line of a fio iolog; None when it is not one.
    fn fio(&mut self, line: &str, v3: bool) -> Option<()> {
        let mut f = line.split_whitespace();
        if v3 {
            let us: u64 = f.next()?.parse().ok()?;
            let t0 = *self.t0.get_or_insert(us);
            // fio waits for no time stamp that goes backwards.
            self.at_ns = self.at_ns.max(us.saturating_sub(t0).saturating_mul(1000));
        }
        let (name, act) = (f.next()?, f.next()?);
        let rest: Vec<&str> = f.collect();
        let op = match act {
            "add" | "open" | "close" if rest.is_empty() => {
                self.file(name)?;
                return Some(());
            }
            "read" => TraceOp::Read,
            "write" => TraceOp::Write,
            "trim" => TraceOp::Trim,
            "sync" | "datasync" => TraceOp::Flush,
            // fio's version 2 pause, µs after the previous one; version 3 has time stamps.
            "wait" if !v3 => TraceOp::Read,
            _ => return None,
        };
        let [offset, len] = rest[..] else { return None };
        let offset: u64 = offset.parse().ok()?;
        let len: u64 = len.parse().ok()?;
        if act == "wait" {
            // fio discards waits below 100 µs.
            if offset >= 100 {
                self.at_ns = self.at_ns.saturating_add(offset.saturating_mul(1000));
            }
            return Some(());
        }
        self.push(name, op, offset, len)
    }

    fn push(&mut self, name: &str, op: TraceOp, offset: u64, len: u64) -> Option<()> {
        let len: u32 = match op {
            TraceOp::Flush => 0,
            _ => u32::try_from(len).ok().filter(|l| *l > 0)?,
        };
        let offset = if op == TraceOp::Flush { 0 } else { offset };
        // No file holds a byte past i64::MAX: such an I/O could only fail, and its end overflows.
        if offset.checked_add(len as u64).is_none_or(|end| end > i64::MAX as u64) {
            self.beyond = Some("the I/O ends past 2^63 - 1, the largest offset a file has");
            return None;
        }
        let file = self.file(name)?;
        self.ios.push(TraceIo { at_ns: self.at_ns, offset, len, file, op });
        Some(())
    }

    /// One row of iolens's CSV: each (worker, file) pair is a file of the trace, named so.
    fn iolens(&mut self, line: &str, timed: bool) -> Option<()> {
        let f: Vec<&str> = line.split(',').collect();
        let (worker, file, op, offset, len) = match (timed, &f[..]) {
            (false, [w, f, o, off, l]) => (w, f, o, off, l),
            (true, [w, f, o, off, l, time, lat]) => {
                let time: u64 = time.parse().ok()?;
                if time < self.at_ns {
                    return None;
                }
                self.at_ns = time;
                if !lat.is_empty() {
                    self.lat.push(lat.parse().ok()?);
                }
                (w, f, o, off, l)
            }
            _ => return None,
        };
        let (worker, file): (u32, u32) = (worker.parse().ok()?, file.parse().ok()?);
        let op = match *op {
            "read" => TraceOp::Read,
            "write" => TraceOp::Write,
            "trim" => TraceOp::Trim,
            "fsync" => TraceOp::Flush,
            _ => return None,
        };
        self.push(&format!("worker {worker} file {file}"), op, offset.parse().ok()?, len.parse().ok()?)
    }
}

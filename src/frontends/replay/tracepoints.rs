//! What `iolens capture` makes of the kernel's block tracepoints as tracefs prints them
//! (trace_pipe): each request issued to the device (`block_rq_issue`), matched with its
//! completion (`block_rq_complete`) by sector, written as iolens's timed trace.
//!
//! A line reads, after the task, CPU and flags, `SECS.USECS: block_rq_issue: 7,0 RS 4096 ()
//! 7904 + 8 be,0,4 [fio]`, or `… block_rq_complete: 7,0 RS () 7904 + 8 be,0,4 [0]`: device,
//! rwbs (the request's flags: F preflush, W/R/D/N the operation, F FUA, S sync …), bytes (issue
//! only), the passthrough command in parentheses, sector, `+`, sectors.

use super::parse::{timed_row, TIMED_HEADER};
use super::TraceOp;
use std::collections::HashMap;

/// One captured request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    /// When it was issued, ns after the first request.
    pub at_ns: u64,
    pub op: TraceOp,
    pub offset: u64,
    pub len: u32,
    /// Issue → complete, ns; None when the capture ended first.
    pub latency_ns: Option<u64>,
}

/// The requests captured so far, in issue order.
#[derive(Debug, Default)]
pub struct Capture {
    pub requests: Vec<Request>,
    /// Events the kernel dropped (its buffer was full): requests the capture misses.
    pub lost: u64,
    /// The first request's time stamp, ns of the trace clock.
    t0: Option<u64>,
    /// Requests issued and not yet complete: (sector, is a flush) → index into `requests`.
    pending: HashMap<(u64, bool), usize>,
}

impl Capture {
    /// Takes one line of trace_pipe; lines of other kinds are passed over. False once
    /// `limit` requests are held (the rest are not kept).
    pub fn line(&mut self, line: &str, limit: usize) -> bool {
        if let Some(n) = line.split("[LOST ").nth(1).and_then(|r| r.split_whitespace().next()) {
            self.lost += n.parse::<u64>().unwrap_or(0);
            return true;
        }
        let (issue, rest) = if let Some(i) = line.find(": block_rq_issue: ") {
            (true, (i, &line[i + ": block_rq_issue: ".len()..]))
        } else if let Some(i) = line.find(": block_rq_complete: ") {
            (false, (i, &line[i + ": block_rq_complete: ".len()..]))
        } else {
            return true;
        };
        let (at, fields) = rest;
        let Some(ns) = line[..at].rsplit(' ').next().and_then(stamp_ns) else { return true };
        let Some(e) = event(fields, issue) else { return true };
        let key = (e.sector, e.op == TraceOp::Flush);
        if !issue {
            if let Some(i) = self.pending.remove(&key) {
                let r = &mut self.requests[i];
                r.latency_ns = Some(ns.saturating_sub(self.t0.unwrap_or(ns) + r.at_ns));
            }
            return true;
        }
        if self.requests.len() >= limit {
            return false;
        }
        let t0 = *self.t0.get_or_insert(ns);
        let (offset, len) = if e.op == TraceOp::Flush { (0, 0) } else { (e.sector * 512, e.bytes) };
        self.pending.insert(key, self.requests.len());
        self.requests.push(Request { at_ns: ns.saturating_sub(t0), op: e.op, offset, len, latency_ns: None });
        true
    }

    /// The capture as iolens's timed trace (`TIMED_HEADER`), which `iolens replay` reads.
    pub fn write_csv(&self, mut w: impl std::io::Write) -> std::io::Result<()> {
        writeln!(w, "{TIMED_HEADER}")?;
        for r in &self.requests {
            w.write_all(timed_row(r.op, r.offset, r.len, r.at_ns, r.latency_ns).as_bytes())?;
        }
        w.flush()
    }

    pub fn csv(&self) -> String {
        let mut out = Vec::new();
        let _ = self.write_csv(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// How many requests of `op` were captured.
    pub fn count(&self, op: TraceOp) -> usize {
        self.requests.iter().filter(|r| r.op == op).count()
    }
}

/// The trace clock's `SECS.USECS` as ns.
fn stamp_ns(s: &str) -> Option<u64> {
    let (secs, frac) = s.split_once('.')?;
    let digits = frac.len() as u32;
    if digits == 0 || digits > 9 {
        return None;
    }
    let frac: u64 = frac.parse().ok()?;
    secs.parse::<u64>().ok()?.checked_mul(1_000_000_000)?.checked_add(frac * 10u64.pow(9 - digits))
}

struct Event {
    op: TraceOp,
    sector: u64,
    bytes: u32,
}

/// The fields after the event's name; None for what is no read, write, discard or flush.
fn event(fields: &str, issue: bool) -> Option<Event> {
    let mut f = fields.split_whitespace();
    let (_dev, rwbs) = (f.next()?, f.next()?);
    let bytes: u32 = if issue { f.next()?.parse().ok()? } else { 0 };
    // The passthrough command may hold spaces: the sector follows its closing parenthesis.
    let after = fields.split_once(") ")?.1;
    let mut f = after.split_whitespace();
    let sector: u64 = f.next()?.parse().ok()?;
    let op = if rwbs.contains('D') {
        TraceOp::Trim
    } else if rwbs.contains('W') {
        TraceOp::Write
    } else if rwbs.contains('R') {
        TraceOp::Read
    } else if rwbs.starts_with('F') {
        TraceOp::Flush
    } else {
        return None;
    };
    if issue && bytes == 0 && op != TraceOp::Flush {
        return None;
    }
    sector.checked_mul(512)?;
    Some(Event { op, sector, bytes })
}

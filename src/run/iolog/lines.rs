//! One fio log file's lines, as fio's flush_samples prints them: `time, value, ddir, bs,
//! [offset, ]prio`, time in ms since the run's start. Without log_avg_msec a line per I/O;
//! with it one line per direction per window that saw I/O (bs and offset then 0).

use super::fz::Row;
use crate::engine::OpKind;
use crate::workload::iolog::{IoLogs, LogKind};

/// One completed I/O as the logs see it. Times are ns since the run's start.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub op: OpKind,
    pub offset: u64,
    pub len: u32,
    pub queued: u64,
    /// When it was due: its queueing, or its paced start when that came earlier.
    pub due: u64,
    pub submitted: u64,
    pub completed: u64,
    pub ioprio: u16,
}

impl Sample {
    /// fio's data direction number; None for what fio does not log (fsync).
    fn ddir(&self) -> Option<usize> {
        crate::run::stages::ddir(self.op)
    }
}

/// A direction's I/O within the current window.
#[derive(Debug, Clone, Copy, Default)]
struct Acc {
    ios: u64,
    bytes: u64,
    sum: u128,
    max: u64,
}

/// The lines of one log, kept as text until the owner hands them to the file.
pub struct Lines {
    kind: LogKind,
    avg_ms: u64,
    offset: bool,
    prio: bool,
    max_value: bool,
    avg_and_max: bool,
    /// The issue-time column: its value for this log's kind (clat and slat), else 0.
    issue_time: bool,
    /// The end of the current window, ms.
    edge: u64,
    acc: [Acc; 3],
    pub text: String,
    /// log_store_compressed: fio's binary samples instead of text, deflated when written.
    pub bin: Option<Vec<u8>>,
}

impl Lines {
    pub fn new(kind: LogKind, logs: &IoLogs) -> Lines {
        Lines {
            kind,
            avg_ms: logs.avg_msec,
            offset: logs.offset,
            prio: logs.prio,
            max_value: logs.max_value,
            avg_and_max: logs.avg_and_max,
            issue_time: logs.issue_time,
            edge: logs.avg_msec,
            acc: [Acc::default(); 3],
            text: String::new(),
            bin: logs.store_compressed.then(Vec::new),
        }
    }

    /// The sample's value in this log: KiB/s (fio's bytes per ms), 1 I/O, or ns.
    fn value(&self, s: &Sample) -> u64 {
        let clat = s.completed.saturating_sub(s.submitted);
        match self.kind {
            LogKind::Bw if clat > 0 => s.len as u64 * 1_000_000 / clat,
            LogKind::Bw => 0,
            LogKind::Iops => 1,
            LogKind::Lat => s.completed.saturating_sub(s.due),
            LogKind::Slat => s.submitted.saturating_sub(s.queued),
            LogKind::Clat => clat,
        }
    }

    pub fn add(&mut self, s: &Sample) {
        let Some(d) = s.ddir() else { return };
        let ms = s.completed / 1_000_000;
        if self.avg_ms == 0 {
            let issue = match self.kind {
                LogKind::Clat | LogKind::Slat => s.submitted,
                _ => 0,
            };
            let v1 = self.avg_and_max.then_some(0);
            self.line(Row {
                ms,
                v: self.value(s),
                v1,
                ddir: d as u32,
                bs: s.len as u64,
                offset: Some(s.offset),
                prio: (self.prio, s.ioprio),
                issue: Some(issue),
            });
            return;
        }
        if ms >= self.edge {
            self.close_window(self.edge, self.avg_ms);
            // Windows without I/O leave no line, as in fio.
            self.edge = (ms / self.avg_ms + 1) * self.avg_ms;
        }
        let v = self.value(s);
        let a = &mut self.acc[d];
        a.ios += 1;
        a.bytes += s.len as u64;
        a.sum += v as u128;
        a.max = a.max.max(v);
    }

    /// The window still open when the I/O ends: its lines, rates over the part that ran up to
    /// `now_ns`.
    pub fn finish(&mut self, now_ns: u64) {
        if self.avg_ms == 0 {
            return;
        }
        let start = self.edge - self.avg_ms;
        let ms = (now_ns / 1_000_000).clamp(start + 1, self.edge);
        self.close_window(ms, ms - start);
    }

    /// Writes the window's lines at time `at` (ms), rates over `span` ms, and empties it.
    fn close_window(&mut self, at: u64, span: u64) {
        for d in 0..3 {
            let a = std::mem::take(&mut self.acc[d]);
            if a.ios == 0 {
                continue;
            }
            let mean = ((a.sum as f64 / a.ios as f64) + 0.5) as u64;
            let (v, v1) = match self.kind {
                // A rate over the window has one value: its mean and its largest are the same.
                LogKind::Bw => (a.bytes * 1000 / span / 1024, a.bytes * 1000 / span / 1024),
                LogKind::Iops => (a.ios * 1000 / span, a.ios * 1000 / span),
                _ if self.max_value => (a.max, a.max),
                _ => (mean, a.max),
            };
            let v1 = self.avg_and_max.then_some(v1);
            self.line(Row {
                ms: at,
                v,
                v1,
                ddir: d as u32,
                bs: 0,
                offset: Some(0),
                prio: (self.prio, 0),
                issue: Some(0),
            });
        }
    }

    /// Writes a row, its offset and issue time kept only where the job logs them.
    fn line(&mut self, mut r: Row) {
        r.offset = r.offset.filter(|_| self.offset);
        r.issue = r.issue.filter(|_| self.issue_time);
        match &mut self.bin {
            Some(b) => super::fz::encode(b, r.ms, r.v, r.ddir, r.bs, r.offset, r.prio),
            None => super::fz::format_line(&mut self.text, &r),
        }
    }

    /// Bytes held for the file.
    pub fn held(&self) -> usize {
        self.text.len() + self.bin.as_ref().map_or(0, Vec::len)
    }
}

//! fio's bw, iops and lat logs: the files a run group writes, and what one worker writes to
//! them. Only the workers of jobs that ask hold any, so the plain path neither allocates nor
//! locks for them; lines are handed to the file in chunks of about 1 MiB, so memory stays
//! bounded however long the run.

mod fz;
mod lines;

pub use fz::{inflate, inflate_to};

use crate::engine::trace::FioLog;
use crate::targets::Prepared;
use crate::workload::iolog::LogKind;
use crate::workload::Spec;
use lines::Lines;
pub use lines::Sample;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::sync::OnceLock;
use std::time::Instant;

use crate::engine::trace::Sink;

/// Text kept before a lock is taken to write it out.
const CHUNK: usize = 1 << 20;

/// The group's log files, each opened once however many workers write to it, and which of
/// them each worker writes.
#[derive(Default)]
pub struct Sinks {
    files: Vec<(String, Sink)>,
    per_worker: Vec<Vec<(LogKind, usize)>>,
    /// fio's write_iolog files, with the names of the files of the job that writes each.
    iologs: Vec<(Sink, Vec<String>)>,
    /// Per worker: its job's iolog, and where the names of the worker's files start.
    iolog_of: Vec<Option<(usize, usize)>>,
}

impl Sinks {
    /// Opens the files of `jobs` (spec and targets: workers per thread, one per group of files). As fio, a
    /// per-job file is written anew and a shared one (per_job_logs=0) is appended to.
    pub fn open<'a>(jobs: impl Iterator<Item = (&'a Spec, &'a [Prepared])>) -> anyhow::Result<Sinks> {
        let mut s = Sinks::default();
        for (spec, files) in jobs {
            let names: Vec<String> = files.iter().map(|f| f.plan.path.display().to_string()).collect();
            let iolog = match spec.logs.as_ref().and_then(|l| l.io.as_deref()) {
                Some(path) => Some(s.iolog(path, names)?),
                None => None,
            };
            let per = spec.files_per_worker();
            for rank in 0..files.len() / per * spec.threads as usize {
                s.iolog_of.push(iolog.map(|l| (l, rank / spec.threads as usize * per)));
                let mut mine = Vec::new();
                if let Some(logs) = &spec.logs {
                    let thread = (rank % spec.threads as usize) as u32;
                    for (kind, prefix) in logs.kinds() {
                        let name = logs.file_name(kind, prefix, thread);
                        mine.push((kind, s.file(name, !logs.per_job)?));
                    }
                }
                s.per_worker.push(mine);
            }
        }
        Ok(s)
    }

    fn file(&mut self, name: String, append: bool) -> anyhow::Result<usize> {
        if let Some(i) = self.files.iter().position(|(n, _)| *n == name) {
            return Ok(i);
        }
        let f = OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(&name)
            .map_err(|e| anyhow::anyhow!("write_*_log: creating {name}: {e}"))?;
        let sink = Sink::new(format!("write_*_log {name}"), Box::new(io::BufWriter::new(f)));
        self.files.push((name, sink));
        Ok(self.files.len() - 1)
    }

    /// Opens fio's iolog as fio does (appending) and writes its version line and the job's
    /// files (added, then opened); `Drop` closes them.
    fn iolog(&mut self, path: &str, names: Vec<String>) -> anyhow::Result<usize> {
        let f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| anyhow::anyhow!("write_iolog: opening {path}: {e}"))?;
        let mut w = io::BufWriter::new(f);
        let mut head = String::from("fio version 3 iolog\n");
        for act in ["add", "open"] {
            names.iter().for_each(|n| head.push_str(&format!("0 {n} {act}\n")));
        }
        w.write_all(head.as_bytes()).map_err(|e| anyhow::anyhow!("write_iolog: writing {path}: {e}"))?;
        self.iologs.push((Sink::new(format!("write_iolog {path}"), Box::new(w)), names));
        Ok(self.iologs.len() - 1)
    }

    /// Where worker `w` writes fio's iolog, if its job asks for one.
    pub fn iolog_of<'a>(&'a self, w: u32, t0: &'a OnceLock<Instant>) -> Option<FioLog<'a>> {
        let (log, first) = (*self.iolog_of.get(w as usize)?)?;
        let (sink, names) = &self.iologs[log];
        Some(FioLog { sink, names: &names[first..], t0 })
    }

    /// The logs worker `w` writes; None when it writes none.
    pub fn of(&self, w: u32) -> Option<Vec<(LogKind, &Sink)>> {
        let mine = self.per_worker.get(w as usize).filter(|m| !m.is_empty())?;
        Some(mine.iter().map(|&(k, i)| (k, &self.files[i].1)).collect())
    }
}

/// The logs one worker writes: it hands each counted I/O over as it records it, so the logs
/// hold the same I/Os, timed by the same clock reads, as the result.
pub struct WorkerLogs<'a> {
    logs: Vec<(Lines, &'a Sink)>,
}

impl<'a> WorkerLogs<'a> {
    pub fn new(spec: &Spec, sinks: Vec<(LogKind, &'a Sink)>) -> Self {
        let cfg = spec.logs.clone().unwrap_or_default();
        WorkerLogs { logs: sinks.into_iter().map(|(k, s)| (Lines::new(k, &cfg), s)).collect() }
    }

    #[inline]
    pub fn add(&mut self, s: &Sample) {
        for (l, sink) in &mut self.logs {
            l.add(s);
            if l.held() >= CHUNK {
                write_out(l, sink);
            }
        }
    }

    /// The worker is done at `now` (ns since the run's start): the open windows' lines, and
    /// everything held, go to the files.
    pub fn finish(&mut self, now: u64) {
        for (l, sink) in &mut self.logs {
            l.finish(now);
            write_out(l, sink);
        }
    }
}

fn write_out(l: &mut Lines, sink: &Sink) {
    // Each chunk is a zlib stream of its own, as fio stores them: its --inflate-log reads
    // one after another.
    let packed = l.bin.as_mut().filter(|b| !b.is_empty()).map(|b| fz::deflate(std::mem::take(b)));
    sink.write(&[l.text.as_bytes(), packed.as_deref().unwrap_or_default()]);
    l.text.clear();
}

impl Sinks {
    /// The workers are done: fio's iologs end with each file closed, and every log is in its
    /// file, or each that is not says why, all in one line.
    pub fn close(&mut self) -> Result<(), String> {
        let iologs = std::mem::take(&mut self.iologs);
        for (sink, names) in &iologs {
            let tail: String = names.iter().map(|n| format!("0 {n} close\n")).collect();
            sink.write(&[tail.as_bytes()]);
        }
        Sink::check_all(iologs.iter().map(|(s, _)| s).chain(self.files.iter().map(|(_, s)| s)))
    }
}

impl Drop for Sinks {
    /// A run that ended in an error still closes fio's iologs as fio does.
    fn drop(&mut self) {
        let _ = self.close();
    }
}

#[cfg(test)]
mod tests;

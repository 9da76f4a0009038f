//! fio's per-job logs (write_bw_log, write_iops_log, write_lat_log): which files a job writes,
//! and what their lines carry. The runner records the samples; this says where they go.

use serde::{Deserialize, Serialize};

/// The logs one job asks for. The prefixes are fio's `write_*_log` values, the job's name when
/// the option stands alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IoLogs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bw: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iops: Option<String>,
    /// Three files from one prefix: `_lat` (queued to completed), `_slat` (queued to
    /// submitted) and `_clat` (submitted to completed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lat: Option<String>,
    /// fio's write_iolog: the file each I/O is appended to as it is issued (fio's iolog
    /// version 3: time in µs, file, action, offset, length).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub io: Option<String>,
    /// fio's log_avg_msec: one averaged line per direction per this many ms; 0 = one per I/O.
    pub avg_msec: u64,
    /// fio's log_window_value=max (log_max_value): an averaged latency line carries the
    /// window's largest value, not its mean.
    pub max_value: bool,
    /// fio's log_window_value=both: an averaged latency line carries the mean, then the
    /// largest value.
    #[serde(default)]
    pub avg_and_max: bool,
    /// fio's log_issue_time: per-I/O lines of the clat and slat logs end with the time the I/O
    /// was issued (ns since the run's start), the others with 0.
    #[serde(default)]
    pub issue_time: bool,
    /// fio's log_offset: per-I/O lines carry the I/O's offset.
    pub offset: bool,
    /// fio's log_prio: the last column is the I/O's priority (hex), not its RT-class flag.
    pub prio: bool,
    /// fio's per_job_logs (default on): `NAME_bw.N.log` per thread; off, every thread of every
    /// job naming NAME appends to `NAME_bw.log`.
    pub per_job: bool,
    /// fio's log_store_compressed: the samples go to `.log.fz` files, deflated.
    #[serde(default)]
    pub store_compressed: bool,
    /// fio's thread number of the job's first thread (1-based, counted over every job and its
    /// numjobs clones in order): the `N` of per-job log names.
    pub first_thread: u32,
}

impl Default for IoLogs {
    fn default() -> Self {
        IoLogs {
            bw: None,
            iops: None,
            lat: None,
            io: None,
            avg_msec: 0,
            max_value: false,
            avg_and_max: false,
            issue_time: false,
            offset: false,
            prio: false,
            per_job: true,
            store_compressed: false,
            first_thread: 1,
        }
    }
}

/// What one log file records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogKind {
    Bw,
    Iops,
    Lat,
    Slat,
    Clat,
}

impl LogKind {
    pub fn suffix(self) -> &'static str {
        match self {
            LogKind::Bw => "bw",
            LogKind::Iops => "iops",
            LogKind::Lat => "lat",
            LogKind::Slat => "slat",
            LogKind::Clat => "clat",
        }
    }
}

impl IoLogs {
    /// Whether any log is asked for.
    pub fn any(&self) -> bool {
        self.bw.is_some() || self.iops.is_some() || self.lat.is_some() || self.io.is_some()
    }

    /// The logs to write with their prefixes, in fio's order of setting them up.
    pub fn kinds(&self) -> Vec<(LogKind, &str)> {
        let mut out = Vec::new();
        if let Some(p) = &self.lat {
            out.extend([LogKind::Lat, LogKind::Slat, LogKind::Clat].map(|k| (k, p.as_str())));
        }
        out.extend(self.bw.as_deref().map(|p| (LogKind::Bw, p)));
        out.extend(self.iops.as_deref().map(|p| (LogKind::Iops, p)));
        out
    }

    /// fio's gen_log_name: `PREFIX_KIND.N.log` for thread `thread` (0-based within the job),
    /// or `PREFIX_KIND.log` shared by every thread when per_job_logs is off.
    pub fn file_name(&self, kind: LogKind, prefix: &str, thread: u32) -> String {
        let k = kind.suffix();
        let ext = if self.store_compressed { "log.fz" } else { "log" };
        if self.per_job {
            format!("{prefix}_{k}.{}.{ext}", self.first_thread + thread)
        } else {
            format!("{prefix}_{k}.{ext}")
        }
    }
}

/// Log options fio refuses together: the one at the heart of it, where a front end places the
/// error, and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{option}: {why}")]
pub struct LogClash {
    pub option: &'static str,
    pub why: &'static str,
}

/// A job's histogram log, to be written from its clat samples once it ran.
#[derive(Debug, Clone, PartialEq)]
pub struct HistLog {
    pub prefix: String,
    pub msec: u64,
    pub coarseness: u32,
    /// The job's lat log (its spec's logs) was made for the histogram alone: its files go once
    /// they are read.
    pub made: bool,
    pub threads: u32,
}

#[cfg(test)]
mod tests;

impl IoLogs {
    /// The logs a job asks for, prefixes settled (the job's name where none was given); `None`
    /// when it asks for none.
    /// What fio refuses among the log options once the job is whole.
    pub fn check(&self) -> Result<(), LogClash> {
        if self.issue_time && (self.lat.is_none() || !self.offset) {
            return Err(LogClash { option: "log_issue_time", why: "needs write_lat_log and log_offset (in fio too)" });
        }
        if self.store_compressed && (self.issue_time || self.avg_and_max) {
            let why = "fio 3.33's compressed samples hold neither issue times nor two values; leave out \
                       log_issue_time and log_window_value=both";
            return Err(LogClash { option: "log_store_compressed", why });
        }
        Ok(())
    }

    pub fn settle(mut self, name: &str) -> Option<IoLogs> {
        for p in [&mut self.bw, &mut self.iops, &mut self.lat].into_iter().flatten() {
            if p.is_empty() {
                *p = name.to_string();
            }
        }
        self.any().then_some(self)
    }
}

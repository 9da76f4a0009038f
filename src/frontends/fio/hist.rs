//! fio's histogram log options (write_hist_log, log_hist_msec, log_hist_coarseness), read into
//! the job's `HistLog`; `run::histlog` writes the logs after the run from the job's per-I/O
//! clat samples, which its lat log records (one of its own, removed afterwards, when the job
//! asked for none).

use crate::workload::iolog::{HistLog, IoLogs};

use super::error::{JobError, R};

/// What a job's histogram options said.
#[derive(Debug, Clone, Default)]
pub(super) struct HistOpts {
    /// write_hist_log's prefix ("" alone: the job's name).
    pub prefix: Option<String>,
    pub msec: u64,
    pub coarseness: u32,
}

/// fio's log_hist_coarseness: 0 to 6.
pub(super) fn coarseness(v: &str) -> R<u32> {
    Ok(v.parse().ok().filter(|c| *c <= 6).ok_or_else(|| format!("'{v}' is not a whole number from 0 to 6"))?)
}

impl HistOpts {
    /// The job's histogram log, `logs` gaining a per-I/O lat log when it has none. Its samples
    /// must be per I/O: an averaging log_avg_msec leaves none to bin.
    pub(super) fn settle(&self, name: &str, threads: u32, logs: &mut Option<IoLogs>) -> R<Option<HistLog>> {
        let Some(prefix) = &self.prefix else { return Ok(None) };
        let prefix = if prefix.is_empty() { name.to_string() } else { prefix.clone() };
        let made = logs.as_ref().is_none_or(|l| l.lat.is_none());
        let l = logs.get_or_insert_with(IoLogs::default);
        if l.avg_msec > 0 || l.store_compressed {
            return Err(JobError::of(
                "write_hist_log",
                "iolens bins the per-I/O clat samples of the job's lat log; leave out log_avg_msec and \
                 log_store_compressed",
            ));
        }
        if made {
            l.lat = Some(format!("{prefix}.iolens-hist"));
        }
        Ok(Some(HistLog { prefix, msec: self.msec, coarseness: self.coarseness, made, threads }))
    }
}

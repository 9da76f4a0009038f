//! How a workload is shaped in time and what ends it, beyond its pattern and rate: idling
//! between I/Os (fio's thinktime), a later start (startdelay), an amount of I/O that ends a
//! worker (io_size, number_ios), errors a worker counts and goes on after (continue_on_error,
//! ignore_error), how paced I/Os are spaced (rate_process) and the least rate each worker must
//! keep (rate_min, checked every rate_cycle).

use super::Spec;
use crate::error::{usage, UsageError};
use serde::{Deserialize, Serialize};

type R<T> = Result<T, UsageError>;

/// fio's thinktime: after every `blocks` I/Os (or `iotime_us` of issuing, whichever comes
/// first) a worker waits for what is in flight, spins `spin_us`, then sleeps the rest of `us`.
/// The pause lies between I/Os: no I/O is in flight during it, so latencies do not include it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ThinkTime {
    /// Length of each pause, µs.
    pub us: u64,
    /// Part of the pause spent busy (spinning on the CPU), µs; at most `us`.
    pub spin_us: u64,
    /// Completed I/Os between pauses; 0 with `iotime_us`: time alone decides.
    pub blocks: u32,
    /// Time of issuing I/O between pauses, µs; 0 = counted in blocks only.
    #[serde(default)]
    pub iotime_us: u64,
    /// Count issued I/Os rather than completed ones (fio's thinktime_blocks_type=issue): with
    /// `blocks` below the queue depth, no more than `blocks` are ever in flight.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_issue: bool,
}

/// When a worker starts, seconds after its group: `min` for a fixed delay; with `max` above
/// it, each worker draws its own delay uniformly from `min..max` (fio's `startdelay=a-b`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct StartDelay {
    pub min: f64,
    pub max: f64,
}

impl StartDelay {
    pub fn is_zero(&self) -> bool {
        self.max <= 0.0
    }
}

/// Which failed I/Os a worker counts and goes on after (fio's `continue_on_error` and
/// `ignore_error`); by default the first failed I/O stops the run.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct OnError {
    /// Go on after failed [reads, writes]; fsyncs count as writes, as in fio.
    pub go_on: [bool; 2],
    /// Errors passed over per direction, by name (`EIO`, `ENOSPC`) or number; empty: EIO and
    /// EILSEQ, fio's non-fatal errors. A short transfer counts as EIO.
    #[serde(default)]
    pub errors: [Vec<String>; 2],
}

impl OnError {
    pub fn is_default(&self) -> bool {
        *self == OnError::default()
    }

    /// fio's `continue_on_error` words: none, read, write, io (both), verify (data checks, which
    /// iolens does not make: nothing more), all; also fio's 0 and 1 (= all).
    pub fn parse_policy(option: &str, v: &str) -> R<[bool; 2]> {
        Ok(match v {
            "none" | "0" | "verify" => [false, false],
            "read" => [true, false],
            "write" => [false, true],
            "io" | "all" | "1" => [true, true],
            _ => return usage(option, format!("'{v}' is not none, read, write, io, verify or all")),
        })
    }

    /// An error list (`EIO:ENOSPC:28`), names checked against the errors iolens knows by name.
    pub fn parse_errors(option: &str, v: &str) -> R<Vec<String>> {
        let mut out = Vec::new();
        for e in v.split(':').map(str::trim).filter(|e| !e.is_empty()) {
            let ok = e.parse::<u16>().is_ok_and(|n| n > 0) || ERROR_NAMES.contains(&e);
            if !ok {
                return usage(option, format!("'{e}' is not an error number or one of {}", ERROR_NAMES.join(", ")));
            }
            out.push(e.to_string());
        }
        Ok(out)
    }
}

/// The errors `ignore_error` takes by name; the runner maps them to the platform's numbers.
pub const ERROR_NAMES: &[&str] = &[
    "EPERM",
    "ENOENT",
    "EINTR",
    "EIO",
    "ENXIO",
    "EBADF",
    "EAGAIN",
    "ENOMEM",
    "EACCES",
    "EFAULT",
    "EBUSY",
    "EEXIST",
    "ENODEV",
    "EINVAL",
    "EFBIG",
    "ENOSPC",
    "ESPIPE",
    "EROFS",
    "EILSEQ",
    "EOPNOTSUPP",
    "ETIMEDOUT",
    "ENODATA",
    "EREMOTEIO",
    "EDQUOT",
    "ENOMEDIUM",
    "EBADMSG",
    "ECANCELED",
];

/// fio's token-based flow control: the jobs of one flow group issue I/Os in proportion to their
/// weights (weights 3, 2 and 1 run 3:2:1), each worker of a job holding back while its share
/// of the group's I/Os is above its share of the group's weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Flow {
    /// The group (fio's `flow_id`).
    pub id: u32,
    /// This job's weight in it, per worker (fio's `flow`), 1 to 1000.
    pub weight: u32,
    /// Held back, a worker waits for its I/Os in flight and sleeps this long before trying
    /// again; 0 retries at once (fio's `flow_sleep`), µs.
    pub sleep_us: u64,
}

/// How paced I/Os are spaced (fio's `rate_process`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RateProcess {
    /// Evenly, one I/O every 1/rate seconds.
    #[default]
    Linear,
    /// Exponential gaps of the same mean: a Poisson arrival process, as independent users make.
    Poisson,
}

impl RateProcess {
    pub fn is_linear(&self) -> bool {
        *self == RateProcess::Linear
    }
}

/// The least each worker must do (fio's `rate_min` / `rate_iops_min` per direction, for each
/// numjobs clone), checked over every `cycle_ms` of the measured window; zero is no minimum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MinRate {
    /// Bytes per second, [reads, writes].
    pub bytes: [u64; 2],
    /// I/Os per second, [reads, writes].
    pub iops: [u64; 2],
    /// Length of each checked stretch, ms (fio's `rate_cycle`, 1000 by default).
    pub cycle_ms: u64,
}

impl MinRate {
    /// fio's complaint when a worker that moved `bytes` in `ios` I/Os per direction over `secs`
    /// seconds fell short, else `None`. Directions the job does not use are not checked.
    pub fn shortfall(&self, bytes: [u64; 2], ios: [u64; 2], secs: f64, read_pct: u32) -> Option<String> {
        let used = [read_pct > 0, read_pct < 100];
        for d in 0..2 {
            let dir = ["read", "write"][d];
            if !used[d] || secs <= 0.0 {
                continue;
            }
            let (bps, iops) = (bytes[d] as f64 / secs, ios[d] as f64 / secs);
            if self.bytes[d] > 0 && bps < self.bytes[d] as f64 {
                return Some(format!("{dir} rate_min={}B/s not met, only {bps:.0}B/s", self.bytes[d]));
            }
            if self.iops[d] > 0 && iops < self.iops[d] as f64 {
                return Some(format!("{dir} rate_iops_min={} not met, only {iops:.1} IOPS", self.iops[d]));
            }
        }
        None
    }
}

impl Spec {
    /// Checks of the shaping fields, part of `validate`.
    pub(super) fn validate_shaping(&self) -> R<()> {
        if let Some(t) = &self.think {
            if t.us == 0 || t.us > 3_600_000_000 {
                return usage("--thinktime", format!("{} µs is not allowed; use 1 µs to 1 hour", t.us));
            }
            if t.spin_us > t.us {
                return usage(
                    "--thinktime-spin",
                    format!("{} µs is longer than the thinktime ({} µs)", t.spin_us, t.us),
                );
            }
            if t.blocks == 0 && t.iotime_us == 0 {
                return usage("--thinktime-blocks", "must be at least 1 (or give a thinktime_iotime)");
            }
        }
        let d = self.start_delay;
        if !(d.min.is_finite() && d.max.is_finite() && d.min >= 0.0 && d.max >= d.min && d.max <= 86400.0) {
            return usage(
                "--start-delay",
                format!("{}-{} s is not allowed; use 0 to 86400 s, the low end first", d.min, d.max),
            );
        }
        if self.io_limit == Some(0) {
            return usage("--io-limit", "must be more than 0 bytes");
        }
        if self.number_ios == Some(0) {
            return usage("--number-ios", "must be at least 1");
        }
        if !self.rate_process.is_linear() && self.rate_iops.is_none() && self.rate_mbps.is_none() {
            return usage("--rate-process", "poisson spaces paced I/Os: give --rate-iops or --rate-mbps too");
        }
        if let Some(m) = &self.min_rate {
            if m.cycle_ms == 0 || m.cycle_ms % 1000 != 0 {
                return usage(
                    "--rate-cycle",
                    format!("{} ms is not allowed; iolens checks whole seconds (1000, 2000, …)", m.cycle_ms),
                );
            }
        }
        Ok(())
    }

    /// Where worker `k` of a target starts: `offset`, moved by `k × offset_increment`.
    pub fn worker_offset(&self, k: u32) -> u64 {
        self.offset.saturating_add(self.offset_increment.saturating_mul(k as u64))
    }
}

/// fio's `zonemode=strided`: I/O stays in a zone of `range` bytes until `size` bytes were done
/// there, then moves `range + skip` further on, wrapping to the region's start at its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strided {
    pub range: u64,
    pub size: u64,
    pub skip: u64,
}

/// A worker spreads its I/O over `files` consecutive targets (fio's nrfiles, or a job's list of
/// file names), `every` I/Os on one before the next is chosen as fio's file_service_type does.
/// With `ends`, a file is done once one pass over it is (fio's sequential walk at its end, its
/// random map full) and the job goes on with the files left, all of them again once all are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileService {
    pub files: u32,
    pub how: ServiceKind,
    pub every: u32,
    pub ends: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ServiceKind {
    /// The next file in turn (fio's roundrobin).
    #[default]
    RoundRobin,
    /// One file until it is done, then the next (fio's sequential).
    Sequential,
    /// A file drawn at random (fio's random).
    Random,
}

impl Spec {
    /// How many targets each worker spreads its I/O over.
    pub fn files_per_worker(&self) -> usize {
        self.file_service.map_or(1, |f| f.files.max(1) as usize)
    }
}

/// `--stop-on-drop PCT --drop-window S`: end the test once the median IOPS of the last
/// `window_s` seconds is `pct` % below the level before them, every one of those seconds
/// below it by at least half that, so one slow second does not end a 40-minute run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DropStop {
    pub pct: f64,
    pub window_s: u32,
}

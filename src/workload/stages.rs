//! fio's three latency stages and which of them a job reports with percentiles: slat (queued →
//! submitted), clat (submitted → completed: iolens's service latency) and lat (queued, or the
//! paced start it was due at → completed). fio reports clat's by default and the others on
//! request (slat_percentiles, lat_percentiles); timing the two extra stages costs histograms,
//! so only a job that asks keeps them. Also fio's per-I/O priorities (cmdprio), whose
//! latencies are kept apart per priority.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatStages {
    pub slat: bool,
    pub clat: bool,
    pub lat: bool,
    /// fio's unified_rw_reporting=1 (or `mixed`): reads, writes and trims reported as one
    /// direction.
    #[serde(default)]
    pub unified: bool,
}

impl Default for LatStages {
    /// fio's defaults: clat percentiles only.
    fn default() -> Self {
        LatStages { slat: false, clat: true, lat: false, unified: false }
    }
}

/// One share of fio's cmdprio: `pct` % of the I/Os of a direction (of block size `bs` only,
/// when set) carry the Linux I/O priority `ioprio` (class << 13 | level).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrioShare {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bs: Option<u32>,
    pub pct: u8,
    pub ioprio: u16,
}

/// fio's cmdprio_percentage / cmdprio_bssplit: reads' and writes' shares, drawn per I/O.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CmdPrio {
    pub read: Vec<PrioShare>,
    pub write: Vec<PrioShare>,
}

/// fio's IOPRIO_CLASS_RT, the class cmdprio uses unless told otherwise.
pub const CLASS_RT: u16 = 1;

/// fio's ioprio_value: class 0 (none given) is best effort.
pub fn ioprio(class: u16, level: u16) -> u16 {
    let class = if class == 0 { 2 } else { class.min(3) };
    (class << 13) | level.min(7)
}

impl CmdPrio {
    /// Every priority an I/O may carry, the job's default (0) first: the index a worker keeps
    /// each priority's latencies under.
    pub fn levels(&self) -> Vec<u16> {
        let mut v = vec![0];
        for s in self.read.iter().chain(&self.write) {
            if !v.contains(&s.ioprio) {
                v.push(s.ioprio);
            }
        }
        v
    }

    /// The priority an I/O of direction `write`, `len` bytes, carries for a draw in 0..100, as
    /// fio's fio_cmdprio_set_ioprio: the shares of its size (or of every size) are stacked, and
    /// a draw past their sum keeps the default.
    pub fn pick(&self, write: bool, len: u32, draw: u8) -> u16 {
        let shares = if write { &self.write } else { &self.read };
        let mut acc = 0u32;
        for s in shares.iter().filter(|s| s.bs.is_none_or(|b| b == len)) {
            acc += u32::from(s.pct);
            if u32::from(draw) < acc {
                return s.ioprio;
            }
        }
        0
    }

    /// fio's cmdprio_bssplit for one direction: `bs/pct[/class/level]:…`; a share without a
    /// class takes `class` and `level` (cmdprio_class, cmdprio).
    pub fn parse_bssplit(
        v: &str,
        class: u16,
        level: u16,
        block: impl Fn(&str) -> Result<u64, String>,
    ) -> Result<Vec<PrioShare>, String> {
        let mut out = Vec::new();
        for entry in v.split(':').filter(|e| !e.is_empty()) {
            let parts: Vec<&str> = entry.split('/').collect();
            let num = |s: &str| s.trim().parse::<u16>().map_err(|_| format!("'{entry}': '{s}' is not a number"));
            let bs = u32::try_from(block(parts[0])?).map_err(|_| format!("'{entry}': the block size is too large"))?;
            let (pct, prio) = match parts.len() {
                1 => (0, ioprio(class, level)),
                2 if parts[1].is_empty() => (0, ioprio(class, level)),
                2 => (num(parts[1])?, ioprio(class, level)),
                4 => (num(parts[1])?, ioprio(num(parts[2])?, num(parts[3])?)),
                _ => return Err(format!("'{entry}' is not bs/percentage or bs/percentage/class/level")),
            };
            // As fio: a share of 0 % says nothing and is dropped.
            if pct > 0 {
                out.push(PrioShare { bs: Some(bs), pct: pct.min(100) as u8, ioprio: prio });
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests;

//! Steady state (fio's `ss`, `ss_dur`, `ss_ramp`): a job ends once its per-second IOPS or
//! bandwidth has settled over a window of seconds, judged by the largest deviation from the
//! window's mean or by the slope of a line fitted through it. iolens's own "until steady" mode
//! (the sweep of `check` and `explain`) judges the same way at a finer interval than a second.

use serde::{Deserialize, Serialize};

/// What settles, how it is judged, and over how long.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SteadyState {
    /// IOPS, else bandwidth (bytes/s).
    pub iops: bool,
    /// The fitted line's slope, else the largest deviation from the mean.
    pub slope: bool,
    /// The limit is a percentage of the window's mean.
    pub pct: bool,
    pub limit: f64,
    /// Seconds in the judged window (fio's ss_dur).
    pub dur: u32,
    /// Seconds before the first sample (fio's ss_ramp).
    pub ramp: f64,
    /// Length of one sample, ms; 0 is fio's whole second. Finer samples fill a window of `dur`
    /// seconds sooner than whole ones, so a steady test can end after about a second.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub interval_ms: u32,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

impl SteadyState {
    /// fio's `ss` value: `iops|bw[_slope]:LIMIT[%]`, with the window and ramp given apart.
    pub fn parse(v: &str, dur: u32, ramp: f64) -> Result<SteadyState, String> {
        let bad = || format!("'{v}' is not iops|iops_slope|bw|bw_slope:LIMIT[%]");
        let (kind, limit) = v.split_once(':').ok_or_else(bad)?;
        let (iops, slope) = match kind.to_ascii_lowercase().as_str() {
            "iops" => (true, false),
            "iops_slope" => (true, true),
            "bw" => (false, false),
            "bw_slope" => (false, true),
            _ => return Err(bad()),
        };
        let (num, pct) = match limit.strip_suffix('%') {
            Some(n) => (n, true),
            None => (limit, false),
        };
        let limit: f64 = num.trim().parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0).ok_or_else(bad)?;
        Ok(SteadyState { iops, slope, pct, limit, dur, ramp, interval_ms: 0 })
    }

    /// Until steady: IOPS of each `interval_ms` within ±`pct` % of their mean over `dur` s.
    pub fn until_steady(pct: f64, interval_ms: u32, dur: u32) -> SteadyState {
        SteadyState { iops: true, slope: false, pct: true, limit: pct, dur, ramp: 0.0, interval_ms }
    }

    /// Samples in the judged window: `dur` seconds of them.
    pub fn samples(&self) -> usize {
        match self.interval_ms {
            0 => self.dur.max(1) as usize,
            ms => ((u64::from(self.dur.max(1)) * 1000).div_ceil(u64::from(ms))).max(2) as usize,
        }
    }

    /// What fio's `--debug=parse` says of the limit as it reads it.
    pub fn debug_line(&self) -> String {
        if self.pct {
            format!("set steady state threshold to {:.6}%", self.limit)
        } else if self.iops {
            format!("set steady state IOPS threshold to {:.6}", self.limit)
        } else {
            format!("set steady state BW threshold to {}", self.limit as i64)
        }
    }

    /// fio's own name for the check, as its JSON prints it: "iops_slope:0.100000%".
    pub fn name(&self) -> String {
        format!(
            "{}{}:{:.6}{}",
            if self.iops { "iops" } else { "bw" },
            if self.slope { "_slope" } else { "" },
            self.limit as f32,
            if self.pct { "%" } else { "" }
        )
    }
}

#[cfg(test)]
mod tests;

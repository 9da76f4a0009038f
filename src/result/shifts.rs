//! Where a test's per-second figures moved to a new level: the schema half (finding them is
//! `analyze::shifts`, naming their cause `explain`).

use serde::{Deserialize, Serialize};

/// One level of a per-second series: seconds from the start of measuring, `start_s`
/// inclusive, `end_s` exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Level {
    pub start_s: u32,
    pub end_s: u32,
    pub mean: f64,
    /// Robust standard deviation of the seconds about the mean (1.4826 × their median
    /// absolute deviation), so one stalled second does not widen it.
    pub spread: f64,
}

/// The per-second figure a shift is seen in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    Iops,
    /// 10^6 B/s.
    Mbps,
    LatP50Us,
    LatP99Us,
}

impl Metric {
    pub const ALL: [Metric; 4] = [Metric::Iops, Metric::Mbps, Metric::LatP50Us, Metric::LatP99Us];

    /// As a report names it.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Iops => "IOPS",
            Metric::Mbps => "MB/s",
            Metric::LatP50Us => "p50 latency",
            Metric::LatP99Us => "p99 latency",
        }
    }

    /// Its unit after a figure ("" for IOPS, whose label says it).
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Iops | Metric::Mbps => "",
            Metric::LatP50Us | Metric::LatP99Us => " µs",
        }
    }
}

/// A level shift: the series held `before` until `at_s`, then `after`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shift {
    /// Seconds from the start of measuring to the first second of the new level.
    pub at_s: u32,
    pub metric: Metric,
    pub before: Level,
    pub after: Level,
    /// The new level lasted to the end of the test.
    pub stayed: bool,
    /// What caused it, once `explain` has named it, with the figures behind it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
}

impl Shift {
    /// The change as a fraction of the level before: -0.2 for a 20 % fall.
    pub fn change(&self) -> f64 {
        if self.before.mean == 0.0 {
            return 0.0;
        }
        self.after.mean / self.before.mean - 1.0
    }
}

/// A test's shifts with the causes `explain` named, and a throttle's mark on its latency (the JSON of `explain`'s `over_time`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestShifts {
    pub test: String,
    pub shifts: Vec<Shift>,
    /// The token-bucket signature of a throttle in the test's latency, in words, when it shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throttle_signature: Option<String>,
}

/// `--stop-on-drop`: the level fell by at least `pct` % and stayed down `window_s` seconds,
/// so the test ended after `at_s` measured seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Dropped {
    pub at_s: u32,
    /// IOPS before (the median of the seconds before the window) and in the window (its median).
    pub before: f64,
    pub after: f64,
    pub pct: f64,
    pub window_s: u32,
}

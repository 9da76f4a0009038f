//! The cells the report formats share: a latency held in µs written in µs or in ms, what stands
//! where a figure is missing, and the latency row (mean, p50, p99, p99.9, max) every table of
//! tests carries.

use crate::stats::LatStats;

/// A latency held in µs, written in µs to a tenth.
pub fn us(v: f64) -> String {
    format!("{v:.1}")
}

/// A latency held in µs, written in ms to three decimals (DiskSpd's unit).
pub fn ms(v: f64) -> String {
    format!("{:.3}", v / 1000.0)
}

/// The heads of the latency row, in the order `Cells::latency` writes its cells.
/// The text tables' rule; a narrower table takes a slice of it.
pub const RULE: &str = "-------------------------------------------------------------------------------";

pub const LATENCY_HEADS: [&str; 5] = ["mean µs", "p50 µs", "p99 µs", "p99.9 µs", "max µs"];

/// How a format writes a figure that may be missing.
#[derive(Clone, Copy)]
pub struct Cells {
    gap: &'static str,
}

/// The terminal's reports keep to ASCII: a hyphen where a figure is missing.
pub const TEXT: Cells = Cells { gap: "-" };
/// Markdown and HTML set an en dash where a figure is missing.
pub const PAGE: Cells = Cells { gap: "–" };

impl Cells {
    /// A latency held in µs, in µs.
    pub fn us(self, v: Option<f64>) -> String {
        v.map_or_else(|| self.gap.into(), us)
    }

    /// A latency held in µs, in ms.
    pub fn ms(self, v: Option<f64>) -> String {
        v.map_or_else(|| self.gap.into(), ms)
    }

    /// One operation's mean, p50, p99, p99.9 and max, in µs: the cells under `LATENCY_HEADS`.
    pub fn latency(self, l: &LatStats) -> [String; 5] {
        [l.mean, l.percentiles.get("50"), l.percentiles.get("99"), l.percentiles.get("99.9"), l.max].map(|v| self.us(v))
    }
}

/// The cache mode of a test as the OS it was measured on names its flags (Linux's O_DIRECT and
/// O_DSYNC, Windows's FILE_FLAG_NO_BUFFERING and FILE_FLAG_WRITE_THROUGH), whatever OS prints it.
pub fn cache_mode(host: &crate::result::Host, direct: bool, write_through: bool) -> String {
    let windows = host.os.contains("Windows");
    let (unbuffered, through, cache) = if windows {
        ("FILE_FLAG_NO_BUFFERING", "FILE_FLAG_WRITE_THROUGH", "system cache")
    } else {
        ("O_DIRECT", "O_DSYNC", "page cache")
    };
    match (direct, write_through) {
        (true, true) => format!("{unbuffered} + {through} (write-through)"),
        (true, false) => format!("{unbuffered} ({cache} bypassed)"),
        (false, true) => format!("buffered + {through} (write-through)"),
        (false, false) => format!("buffered ({cache})"),
    }
}

/// Just the unbuffered flag, or "buffered": the short form the matrices print.
pub fn unbuffered(host: &crate::result::Host, direct: bool) -> &'static str {
    match (direct, host.os.contains("Windows")) {
        (false, _) => "buffered",
        (true, true) => "FILE_FLAG_NO_BUFFERING",
        (true, false) => "O_DIRECT",
    }
}

/// A percentile as a row's label: 1st, 2nd, 3rd, 10th, 99.9th.
pub fn ordinal(p: &str) -> String {
    let whole = !p.contains('.');
    let n: u64 = p.parse().unwrap_or(0);
    let suffix = match (whole, n % 10, n % 100) {
        (true, _, 11..=13) => "th",
        (true, 1, _) => "st",
        (true, 2, _) => "nd",
        (true, 3, _) => "rd",
        _ => "th",
    };
    format!("{p}{suffix}")
}

//! The latency percentiles both layouts print, read from the test's histograms when it has them
//! (any percentile, exact) and from its summary otherwise (results imported without histograms).

use crate::result::TestResult;
use crate::stats::{HistDump, LatRec, LatStats};

/// The text's rows below min: DiskSpd's label and the percentile.
pub(super) const TEXT_ROWS: [(&str, &str); 13] = [
    ("25th", "25"),
    ("50th", "50"),
    ("75th", "75"),
    ("90th", "90"),
    ("95th", "95"),
    ("99th", "99"),
    ("3-nines", "99.9"),
    ("4-nines", "99.99"),
    ("5-nines", "99.999"),
    ("6-nines", "99.9999"),
    ("7-nines", "99.99999"),
    ("8-nines", "99.999999"),
    ("9-nines", "99.9999999"),
];

/// The XML's buckets: 0 (min), 1 … 99, the nines up to 99.9999999, and 100 (max).
pub(super) fn xml_percentiles() -> Vec<String> {
    let mut v: Vec<String> = (0..=99).map(|p| p.to_string()).collect();
    v.extend(TEXT_ROWS[6..].iter().map(|(_, p)| p.to_string()));
    v.push("100".into());
    v
}

/// One column: reads, writes or both.
pub(super) struct Column<'a> {
    pub ios: u64,
    rec: Option<LatRec>,
    pub stats: &'a LatStats,
    /// Distinct latencies the histogram holds (DiskSpd's `…HistoBuckets`).
    pub buckets: usize,
}

impl Column<'_> {
    /// The latency at percentile `p` ("0" min, "100" max), µs.
    pub fn at(&self, p: &str) -> Option<f64> {
        if self.ios == 0 {
            return None;
        }
        match p {
            "0" => self.stats.min,
            "100" => self.stats.max,
            _ => match &self.rec {
                Some(rec) => rec.percentile_ns(p.parse().ok()?).map(|ns| ns / 1000.0),
                None => self.stats.percentiles.get(p),
            },
        }
    }
}

/// Read, write and total columns of a test.
pub(super) fn columns(t: &TestResult) -> [Column<'_>; 3] {
    let h = &t.histograms;
    let rec = |d: &HistDump| (d.count > 0).then(|| LatRec::from_dump(d));
    let total = match (rec(&h.read), rec(&h.write)) {
        (Some(mut r), Some(w)) => {
            r += &w;
            Some(r)
        }
        (r, w) => r.or(w),
    };
    let col = |ios, rec: Option<LatRec>, stats| {
        let buckets = rec.as_ref().map_or(0, |r: &LatRec| r.dump().buckets.len());
        Column { ios, rec, stats, buckets }
    };
    [
        col(t.read.ios, rec(&h.read), &t.read.lat_us),
        col(t.write.ios, rec(&h.write), &t.write.lat_us),
        col(t.total.ios, total, &t.total.lat_us),
    ]
}

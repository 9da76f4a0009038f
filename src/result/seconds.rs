//! A second's latency, as sums that merge exactly.

use serde::{Deserialize, Serialize};

/// The service latency of one direction over one second, as sums that merge exactly across
/// threads: enough for the second's min, max, mean and standard deviation. ns.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct SecondLat {
    pub n: u64,
    pub min_ns: u64,
    pub max_ns: u64,
    pub sum_ns: u64,
    /// Σ latency², ns²: a float, as a u64 overflows after a few thousand I/Os of 100 ms.
    pub sum_sq_ns2: f64,
}

impl SecondLat {
    #[inline]
    pub fn record(&mut self, ns: u64) {
        self.min_ns = if self.n == 0 { ns } else { self.min_ns.min(ns) };
        self.max_ns = self.max_ns.max(ns);
        self.n += 1;
        self.sum_ns += ns;
        self.sum_sq_ns2 += ns as f64 * ns as f64;
    }

    pub fn merge(&mut self, o: &SecondLat) {
        if o.n == 0 {
            return;
        }
        self.min_ns = if self.n == 0 { o.min_ns } else { self.min_ns.min(o.min_ns) };
        self.max_ns = self.max_ns.max(o.max_ns);
        self.n += o.n;
        self.sum_ns += o.sum_ns;
        self.sum_sq_ns2 += o.sum_sq_ns2;
    }

    /// 0 for a second without I/O, as DiskSpd reports an empty bucket.
    pub fn mean_ns(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum_ns as f64 / self.n as f64
        }
    }

    /// Population standard deviation (DiskSpd's IoBucketizer divides by n).
    pub fn stddev_ns(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        let n = self.n as f64;
        let s = self.sum_ns as f64;
        ((self.sum_sq_ns2 - s * s / n) / n).max(0.0).sqrt()
    }
}

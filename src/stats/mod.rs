//! Latency recording and the figures derived from it. Histograms are HDR (ns, 3 significant
//! digits: every value within 0.1 %), exact min/max/mean/stddev are kept beside them, and two
//! recorders merge exactly with `+=`, so threads, runs and hosts combine without loss.

pub mod clock;
pub mod cpu;
pub mod disk;
pub mod system;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// fio's default list extended by DiskSpd's nines: every latency table prints these.
pub const PERCENTILES: [&str; 23] = [
    "1",
    "5",
    "10",
    "20",
    "25",
    "30",
    "40",
    "50",
    "60",
    "70",
    "75",
    "80",
    "90",
    "95",
    "99",
    "99.5",
    "99.9",
    "99.99",
    "99.999",
    "99.9999",
    "99.99999",
    "99.999999",
    "99.9999999",
];

/// Longest latency a histogram holds exactly; longer ones are clamped (and still counted).
const MAX_NS: u64 = 3_600_000_000_000;

fn new_hist(sigfig: u8) -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_NS, sigfig).expect("histogram bounds")
}

/// Latencies of one kind (e.g. read service times) seen by one worker, or merged.
#[derive(Clone)]
pub struct LatRec {
    /// Made by `prefault` or the first `record`: at 3 significant digits up to an hour it holds
    /// 270 KiB of counters, which a kind a worker never sees (writes of a read test, the paced
    /// response times of an unpaced one) should not keep resident, 16 or 256 workers over.
    hist: Option<Histogram<u64>>,
    count: u64,
    sum_ns: u128,
    sum_sq: f64,
    min_ns: u64,
    max_ns: u64,
}

impl Default for LatRec {
    fn default() -> Self {
        LatRec { hist: None, count: 0, sum_ns: 0, sum_sq: 0.0, min_ns: u64::MAX, max_ns: 0 }
    }
}

impl LatRec {
    #[inline]
    pub fn record(&mut self, ns: u64) {
        // Every figure takes the value the histogram holds: a null engine's completion can fall
        // on the stamp of its submission (0 ns), and a reported min of 0 beside a lowest bin of
        // 1 is what fio's latency_percentiles test rejects.
        let v = ns.clamp(1, MAX_NS);
        // Made here only when `prefault` was not called for a kind that turns up after all.
        self.hist.get_or_insert_with(|| new_hist(3)).saturating_record(v);
        self.count += 1;
        self.sum_ns += v as u128;
        self.sum_sq += (v as f64) * (v as f64);
        self.min_ns = self.min_ns.min(v);
        self.max_ns = self.max_ns.max(v);
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// The count, sums and extremes without the histogram: what means and deviations need.
    pub fn stats_only(&self) -> LatRec {
        LatRec { hist: None, ..*self }
    }

    /// Makes the histogram now, writing every counter (so the pages behind them exist), rather
    /// than on the hot path's first record.
    pub fn prefault(&mut self) {
        match &mut self.hist {
            Some(h) => h.reset(),
            None => self.hist = Some(new_hist(3)),
        }
    }

    pub fn mean_ns(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum_ns as f64 / self.count as f64)
    }

    /// Population standard deviation, as DiskSpd's LatStdDev and fio's stddev.
    pub fn stddev_ns(&self) -> Option<f64> {
        let m = self.mean_ns()?;
        Some((self.sum_sq / self.count as f64 - m * m).max(0.0).sqrt())
    }

    pub fn percentile_ns(&self, pct: f64) -> Option<f64> {
        let h = self.hist.as_ref().filter(|_| self.count > 0)?;
        // The histogram holds bucket upper bounds; never report beyond the exact max.
        Some((h.value_at_quantile(pct / 100.0) as f64).min(self.max_ns as f64).max(self.min_ns as f64))
    }

    pub fn summary(&self) -> LatStats {
        let us = |v: Option<f64>| v.map(|ns| ns / 1000.0);
        LatStats {
            min: us((self.count > 0).then_some(self.min_ns as f64)),
            mean: us(self.mean_ns()),
            stddev: us(self.stddev_ns()),
            max: us((self.count > 0).then_some(self.max_ns as f64)),
            percentiles: Percentiles(
                PERCENTILES.iter().map(|p| (p.to_string(), us(self.percentile_ns(p.parse().unwrap())))).collect(),
            ),
        }
    }

    /// The histogram as plain (bucket value, count) pairs, which rebuild it exactly.
    pub fn dump(&self) -> HistDump {
        HistDump {
            unit: "ns".into(),
            significant_digits: self.hist.as_ref().map_or(3, |h| h.sigfig()),
            count: self.count,
            sum_ns: self.sum_ns.min(u64::MAX as u128) as u64,
            sum_sq_ns: self.sum_sq,
            min_ns: if self.count > 0 { self.min_ns } else { 0 },
            max_ns: self.max_ns,
            buckets: self
                .hist
                .iter()
                .flat_map(|h| h.iter_recorded())
                .map(|v| (v.value_iterated_to(), v.count_at_value()))
                .collect(),
        }
    }

    pub fn from_dump(d: &HistDump) -> LatRec {
        // No buckets at the default precision: nothing a histogram would add (its 270 KiB, per
        // entry of a fio JSON without bins, is what an import of many entries ran out of
        // memory on). Another precision is kept, so the dump reads back as it was.
        let hist = (!d.buckets.is_empty() || d.significant_digits != 3).then(|| {
            let mut hist = new_hist(d.significant_digits);
            for &(v, c) in &d.buckets {
                hist.saturating_record_n(v.clamp(1, MAX_NS), c);
            }
            hist
        });
        LatRec {
            hist,
            count: d.count,
            sum_ns: d.sum_ns as u128,
            sum_sq: d.sum_sq_ns,
            min_ns: if d.count > 0 { d.min_ns } else { u64::MAX },
            max_ns: d.max_ns,
        }
    }
}

impl std::ops::AddAssign<&LatRec> for LatRec {
    fn add_assign(&mut self, o: &LatRec) {
        match (&mut self.hist, &o.hist) {
            (_, None) => {}
            (Some(h), Some(oh)) => h.add(oh).expect("histograms share bounds"),
            (h @ None, Some(oh)) => *h = Some(oh.clone()),
        }
        self.count += o.count;
        self.sum_ns += o.sum_ns;
        self.sum_sq += o.sum_sq;
        self.min_ns = self.min_ns.min(o.min_ns);
        self.max_ns = self.max_ns.max(o.max_ns);
    }
}

/// A small histogram for one second of one worker: 2 significant digits is plenty for the
/// per-second p50/p99 and keeps a second's state at a few KiB.
pub struct SecondHist(Histogram<u32>);

impl Default for SecondHist {
    fn default() -> Self {
        SecondHist(Histogram::new_with_bounds(1, MAX_NS, 2).expect("histogram bounds"))
    }
}

impl SecondHist {
    #[inline]
    pub fn record(&mut self, ns: u64) {
        self.0.saturating_record(ns.clamp(1, MAX_NS));
    }
    pub fn add(&mut self, o: &SecondHist) {
        self.0.add(&o.0).expect("same bounds");
    }
    pub fn clear(&mut self) {
        self.0.reset();
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn percentile_us(&self, pct: f64) -> Option<f64> {
        (!self.0.is_empty()).then(|| self.0.value_at_quantile(pct / 100.0) as f64 / 1000.0)
    }
    /// The recorded buckets as [a value in the bucket (ns), count]: what rebuilds this
    /// histogram exactly elsewhere (`from_buckets`), as ranks of a multi-host run need.
    pub fn buckets(&self) -> Vec<[u64; 2]> {
        self.0.iter_recorded().map(|v| [v.value_iterated_to(), v.count_at_value() as u64]).collect()
    }
    pub fn from_buckets(b: &[[u64; 2]]) -> SecondHist {
        let mut h = SecondHist::default();
        for &[v, c] in b {
            h.0.saturating_record_n(v.clamp(1, MAX_NS), c.min(u32::MAX as u64) as u32);
        }
        h
    }
}

/// Latency summary in µs; every figure (and every percentile value) is null when there were
/// no I/Os of that kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatStats {
    pub min: Option<f64>,
    pub mean: Option<f64>,
    pub stddev: Option<f64>,
    pub max: Option<f64>,
    pub percentiles: Percentiles,
}

/// Percentile → µs, written as a JSON object whose keys are plain decimals ("50", "99.9") in
/// ascending order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Percentiles(pub Vec<(String, Option<f64>)>);

impl Percentiles {
    pub fn get(&self, key: &str) -> Option<f64> {
        self.0.iter().find(|(k, _)| k == key).and_then(|(_, v)| *v)
    }
}

impl Serialize for Percentiles {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Percentiles {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Percentiles;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of percentile to µs")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Percentiles, A::Error> {
                let mut v = Vec::new();
                while let Some((k, x)) = a.next_entry::<String, Option<f64>>()? {
                    v.push((k, x));
                }
                Ok(Percentiles(v))
            }
        }
        d.deserialize_map(V)
    }
}

/// A histogram in a form any tool can read and merge: each recorded bucket's highest
/// equivalent value (ns) and its count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistDump {
    pub unit: String,
    pub significant_digits: u8,
    pub count: u64,
    pub sum_ns: u64,
    pub sum_sq_ns: f64,
    pub min_ns: u64,
    pub max_ns: u64,
    pub buckets: Vec<(u64, u64)>,
}

impl HistDump {
    /// SQLIO's latency histogram: I/Os per whole millisecond 0 … 23, and 24 ms or more last.
    /// Buckets are placed by their highest value, so within 0.1 % of a millisecond boundary an
    /// I/O may land in the next one.
    pub fn per_ms(&self) -> [u64; 25] {
        let mut out = [0u64; 25];
        for &(v, c) in &self.buckets {
            out[((v / 1_000_000) as usize).min(24)] += c;
        }
        out
    }

    /// The value at percentile `pct` (0 < pct ≤ 100), as `LatRec::percentile_ns` gives it but
    /// from the dump alone: the first bucket at which the cumulative count reaches
    /// ceil(pct/100 × count), clamped to the exact [min_ns, max_ns]. None without I/Os.
    pub fn percentile_ns(&self, pct: f64) -> Option<u64> {
        if self.count == 0 {
            return None;
        }
        // The same arithmetic as hdrhistogram's value_at_quantile, so both agree to the ns.
        let target = (((pct / 100.0).min(1.0) * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0u64;
        let v = self.buckets.iter().find(|&&(_, c)| {
            seen += c;
            seen >= target
        });
        Some(v.map_or(self.max_ns, |b| b.0).clamp(self.min_ns, self.max_ns.max(self.min_ns)))
    }
}

/// Population standard deviation of a series (DiskSpd's IopsStdDev over per-second samples).
pub fn stddev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / xs.len() as f64).sqrt()
}

#[cfg(test)]
mod tests;

//! The observed workload as paced streams: one per file (or PostgreSQL group) and direction,
//! at the rate and average size the database counted, random for data and tempdb, in order
//! for the log/WAL and ring-buffer scans. Reads and writes of a file are separate streams so
//! each runs at exactly its own rate (a mixed stream's split would wander with chance).

use super::{Observed, Role};
use crate::workload::{BlockShare, Pattern, Spec};

/// One paced stream and what it stands for.
#[derive(Debug, Clone, PartialEq)]
pub struct Stream {
    /// "sales file 1 (data) D:\data\sales.mdf reads".
    pub name: String,
    pub read: bool,
    /// I/Os per second asked.
    pub rate: f64,
    /// The database's mean bytes per I/O.
    pub size: f64,
    /// Mean ms the database waited per I/O, when it counted it.
    pub db_latency_ms: Option<f64>,
    pub spec: Spec,
    /// What the stream runs, for the result's notes.
    pub description: String,
}

/// I/Os of `avg` bytes as one or two adjacent multiples of `unit`, weighted so the mean is
/// `avg` to within 1 % of a unit: the byte rate stays the database's.
pub fn sizes(avg: f64, unit: u64) -> Vec<BlockShare> {
    let u = unit as f64;
    let lo = ((avg / u).floor() * u).max(u);
    let hi_pct = (((avg - lo) / u) * 100.0).round().clamp(0.0, 100.0) as u32;
    let mut out = Vec::new();
    if hi_pct < 100 {
        out.push(BlockShare { size: lo as u64, pct: 100 - hi_pct });
    }
    if hi_pct > 0 {
        out.push(BlockShare { size: lo as u64 + unit, pct: hi_pct });
    }
    out
}

/// Outstanding I/Os a stream may have: enough that 10 ms of latency does not hold the rate
/// back (a paced stream that runs out of slots falls behind, which is then what it measures).
fn depth(rate: f64) -> u32 {
    ((rate / 100.0).ceil() as u32).clamp(4, 64)
}

fn kib(b: f64) -> String {
    let k = b / 1024.0;
    if k.fract() == 0.0 {
        format!("{k:.0} KiB")
    } else {
        format!("{k:.1} KiB")
    }
}

/// The streams of `observed` on top of `base` (its size, duration, cache flags). `file_for`
/// gives the target of the k-th file: a test file of its own in a directory, or the one
/// target everything shares.
pub fn streams(observed: &[Observed], base: &Spec, file_for: &dyn Fn(usize) -> String) -> Vec<Stream> {
    let unit = if base.direct { 4096 } else { 512 };
    let mut out = Vec::new();
    for (k, o) in observed.iter().enumerate() {
        let dirs = [
            (true, o.reads_per_s(), o.read_size(), o.read_latency_ms()),
            (false, o.writes_per_s(), o.write_size(), o.write_latency_ms()),
        ];
        for (read, rate, size, lat) in dirs.into_iter().filter(|d| d.1 > 0.0) {
            let pattern = if o.role.sequential() { Pattern::Sequential } else { Pattern::Random };
            let blocks = sizes(size, unit);
            let qd = depth(rate);
            let spec = Spec {
                targets: vec![file_for(k)],
                blocks: blocks.clone(),
                pattern,
                read_pct: if read { 100 } else { 0 },
                threads: 1,
                qd,
                rate_iops: Some(rate),
                // Log and WAL writes must be on stable storage before the commit returns.
                write_through: base.write_through || (!read && o.role == Role::Log),
                ..base.clone()
            };
            let what = if read { "reads" } else { "writes" };
            let split: Vec<String> = blocks.iter().map(|b| format!("{} {} %", kib(b.size as f64), b.pct)).collect();
            let waited = lat.map_or("not tracked".to_string(), |l| format!("{l:.2} ms"));
            let description = format!(
                "{}: {rate:.1} {what}/s of {} on average ({}), {}, {qd} outstanding at most; the database waited {waited} per I/O",
                o.name,
                kib(size),
                split.join(" + "),
                if pattern == Pattern::Random { "random" } else { "sequential" },
            );
            out.push(Stream {
                name: format!("{} {what}", o.name),
                read,
                rate,
                size,
                db_latency_ms: lat,
                spec,
                description,
            });
        }
    }
    out
}

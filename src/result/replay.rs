//! What a replay adds to its test's result: how far the replay fell behind the trace's clock.

use crate::stats::{HistDump, LatRec, LatStats};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplayOutcome {
    /// The trace file, and its format ("fio iolog v3").
    pub trace: String,
    pub format: String,
    /// I/Os in the trace (fsyncs included), and how many were issued.
    pub trace_ios: u64,
    pub issued: u64,
    /// When the trace issues its last I/O after its first, ms (after time scaling).
    pub span_ms: f64,
    /// Each I/O's lag: its submission − the time the trace's clock (scaled, from the run's
    /// start) issues it; µs. Near zero when the target keeps up; under `no_stall`, zero, as
    /// the trace's clock is not followed.
    pub lag_us: LatStats,
    pub lag: HistDump,
}

impl ReplayOutcome {
    pub fn new(r: &crate::workload::replay::Replay, lag: &LatRec) -> ReplayOutcome {
        ReplayOutcome {
            trace: r.trace.clone(),
            format: r.format.clone(),
            trace_ios: r.ios.len() as u64,
            issued: lag.count(),
            span_ms: r.span_ns() as f64 / 1e6,
            lag_us: lag.summary(),
            lag: lag.dump(),
        }
    }

    /// The report's line: the trace, and the lag's median, 99th percentile and maximum, ms.
    pub fn line(&self) -> String {
        let ms = |p: &str| self.lag_us.percentiles.get(p).map_or("-".into(), |us| format!("{:.3}", us / 1000.0));
        let max = self.lag_us.max.map_or("-".into(), |us| format!("{:.3}", us / 1000.0));
        format!(
            "replay of {} ({}, {} of {} I/Os over {:.1} ms): lag behind its clock p50 {} ms, p99 {} ms, max {max} ms",
            self.trace,
            self.format,
            self.issued,
            self.trace_ios,
            self.span_ms,
            ms("50"),
            ms("99"),
        )
    }
}

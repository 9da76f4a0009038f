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
}

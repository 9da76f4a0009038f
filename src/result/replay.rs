//! What a replay adds to its test's result: how far the replay fell behind the trace's clock,
//! and the latencies the capture itself saw, to set beside the replay's.

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
    /// The latencies the capture saw (blktrace's issue → complete, `iolens capture`'s), µs;
    /// absent when the trace holds none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture_us: Option<LatStats>,
}

/// A replay that issued a tenth of its I/Os more than this late (µs) did not keep the trace's
/// pace: a target that cannot keep up lags more with every I/O, while a busy host's scheduling
/// hiccups delay a few I/Os and pass.
pub const BEHIND_US: f64 = 10_000.0;

impl ReplayOutcome {
    pub fn new(r: &crate::workload::trace::Replay, lag: &LatRec) -> ReplayOutcome {
        let mut capture = LatRec::default();
        for ns in r.capture_ns.iter() {
            capture.record(*ns);
        }
        ReplayOutcome {
            trace: r.trace.clone(),
            format: r.format.clone(),
            trace_ios: r.ios.len() as u64,
            issued: lag.count(),
            span_ms: r.span_ns() as f64 / 1e6,
            lag_us: lag.summary(),
            lag: lag.dump(),
            capture_us: (capture.count() > 0).then(|| capture.summary()),
        }
    }

    /// Whether the replay fell behind the trace's clock (never under `no_stall`, whose lag is zero).
    pub fn behind(&self) -> bool {
        self.lag_us.percentiles.get("90").is_some_and(|us| us > BEHIND_US)
    }

    /// The report's lines: the trace, the lag's median, 99th percentile and maximum (ms) and
    /// whether it kept up; and where the capture has latencies, its beside the replay's
    /// (`replay`, the test's total).
    pub fn lines(&self, replay: &LatStats) -> String {
        let mut out = self.line();
        if self.behind() {
            out += &format!(
                "\nthe replay fell behind the trace's clock: over a tenth of its I/Os were issued more than {} ms late; the target did not keep the trace's pace",
                BEHIND_US / 1000.0
            );
        }
        if let Some(c) = &self.capture_us {
            let us = |l: &LatStats, p: &str| l.percentiles.get(p).map_or("-".into(), |v| format!("{v:.0}"));
            out += &format!(
                "\nlatency: capture p50 {} µs, p99 {} µs; replay p50 {} µs, p99 {} µs",
                us(c, "50"),
                us(c, "99"),
                us(replay, "50"),
                us(replay, "99")
            );
        }
        out
    }

    /// The first line of `lines`.
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

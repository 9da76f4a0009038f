//! What one worker measured, and the small pure helpers its loop uses to record it.

use crate::engine::OpKind;
use crate::stats::LatRec;
use crate::workload::Spec;

/// Everything a worker measured; merged by the runner with the other workers'.
#[derive(Default)]
pub struct WorkerRec {
    pub read: LatRec,
    pub write: LatRec,
    pub resp_read: LatRec,
    pub resp_write: LatRec,
    pub fsync: LatRec,
    /// The trims of trim+write pairs (fio's trimwrite); a trim test's trims go to `write`.
    pub trim: LatRec,
    pub read_bytes: u64,
    pub write_bytes: u64,
    pub trim_bytes: u64,
    /// ∫ in-flight I/Os dt over the measured window, ns.
    pub qd_area: f64,
    /// The engine's word on how it ran.
    pub notice: Option<String>,
    /// Failed I/Os passed over in the measured window, [reads, writes and fsyncs].
    pub errors: [u64; 2],
    /// The first failure passed over, as the OS put it.
    pub first_error: Option<String>,
    pub first_errno: Option<i32>,
    /// This worker's measured window, ns after the group's start: from the end of its delay
    /// and warm-up to the end of its duration, or before if it stopped early.
    pub window: (u64, u64),
    /// Pages written, checked and found bad (`--verify`).
    pub verify: Option<crate::result::verify::Verification>,
    /// fio's slat and lat, and latencies per I/O priority, for jobs that ask.
    pub stages: Option<Box<super::stages::StageRecs>>,
    /// A replay's lag behind the trace's clock, per I/O (see `result::replay`).
    pub lag: Option<LatRec>,
    /// The loop's waits and looks for completions (DiskSpd's `-vs`).
    pub waits: crate::result::waits::WaitStats,
}

impl WorkerRec {
    /// Makes the histograms of the kinds of I/O `spec` can issue now, so that neither their
    /// allocation nor first-use page faults land inside the measured window; the others stay
    /// unmade (a read test keeps one histogram per worker, not six).
    pub(super) fn prefault(&mut self, spec: &Spec, paced: bool) {
        let any = spec.replay.is_some();
        // Verification reads back what it wrote; a trim test's trims count as its writes.
        let reads = spec.read_pct > 0 || spec.verify.is_some() || any;
        let writes = spec.read_pct < 100 || spec.trim || any;
        let kinds = [
            (&mut self.read, reads),
            (&mut self.write, writes),
            (&mut self.resp_read, reads && paced),
            (&mut self.resp_write, writes && paced),
            (&mut self.fsync, spec.fsync_every > 0 || any),
            (&mut self.trim, spec.trim_write || any),
        ];
        for (r, used) in kinds {
            if used {
                r.prefault();
            }
        }
        if let Some(s) = &mut self.stages {
            s.prefault();
        }
        if let Some(l) = &mut self.lag {
            l.prefault();
        }
    }
}

/// Length of [a, b) that falls inside [lo, hi), ns.
#[inline]
pub(super) fn window_overlap(a: u64, b: u64, lo: u64, hi: u64) -> f64 {
    let s = a.max(lo);
    let e = b.min(hi);
    if e > s {
        (e - s) as f64
    } else {
        0.0
    }
}

pub(super) fn describe_error(op: OpKind, result: i64, len: u32) -> String {
    let what = match op {
        OpKind::Read => "read",
        OpKind::Write => "write",
        OpKind::Flush => "fsync",
        OpKind::Trim => "trim",
    };
    if result < 0 {
        format!("{what} failed: {}", std::io::Error::from_raw_os_error(-result as i32))
    } else {
        format!("{what} transferred {result} of {len} bytes")
    }
}

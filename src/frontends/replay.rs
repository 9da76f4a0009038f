//! The formats a captured trace comes in (`iolens replay`, fio's `read_iolog`): fio's iologs,
//! blktrace captures and iolens's own traces, told apart by their first bytes, each read into
//! the model's [`Replay`](crate::workload::trace::Replay).

mod blktrace;
mod parse;
mod setup;
mod tracepoints;

use crate::error::UsageError;
use std::path::Path;
use std::sync::Arc;

pub use crate::workload::trace::{device_of, Replay, TraceIo, TraceOp};
pub use blktrace::{capture_files, is_blktrace, parse_blktrace, RECORD_LIMIT};
pub use parse::{parse, timed_row, Format, IOLENS_HEADER, TIMED_HEADER};
pub use setup::{align, apply, check_direct, load, scale, time_scale, Shaping};
pub use tracepoints::{Capture, Request};

/// A trace as read: its format, its files in order of first appearance, its I/Os in order,
/// and the latencies the capture itself saw (ns; empty when it has none).
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub format: Format,
    pub files: Vec<String>,
    pub ios: Vec<TraceIo>,
    pub capture_ns: Vec<u64>,
}

/// Reads and parses the trace at `path` (each file bounded by the input size limit; a
/// blktrace capture may be several, see `capture_files`); `what` names it in errors (an
/// option, or the trace itself).
pub fn read(path: &Path, what: &str) -> Result<Replay, UsageError> {
    let limit = crate::input::TEXT_LIMIT;
    let paths = capture_files(path);
    let data = paths.iter().map(|p| crate::input::read_bytes(p, what, limit)).collect::<Result<Vec<_>, _>>()?;
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let Parsed { format, files, ios, capture_ns } = if data.iter().any(|d| is_blktrace(d)) {
        let named: Vec<(&str, &[u8])> = shown.iter().map(String::as_str).zip(data.iter().map(Vec::as_slice)).collect();
        parse_blktrace(&named)?
    } else if let [one] = &data[..] {
        let text = std::str::from_utf8(one)
            .map_err(|e| UsageError::new(what, format!("{} is not UTF-8 text (byte {})", shown[0], e.valid_up_to())))?;
        parse(text, &shown[0])?
    } else {
        let msg =
            format!("none of its {} files is a blktrace capture, the one format that comes in several", data.len());
        return Err(UsageError::new(path.display().to_string(), msg));
    };
    Ok(Replay {
        trace: path.display().to_string(),
        format: format.name().into(),
        files,
        no_stall: false,
        time_scale: 100,
        scale: 1,
        align: 0,
        redirect: None,
        ios: Arc::new(ios),
        capture_ns: Arc::new(capture_ns),
        redirect_name: String::new(),
    })
}

#[cfg(test)]
mod tests;

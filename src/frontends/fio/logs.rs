//! fio's log options (write_bw_log, write_iops_log, write_lat_log and the log_* settings) into
//! the job's [`IoLogs`]; the runner writes the files.

use super::job::Job;
use super::values::int;

use super::error::R;

/// `write_bw_log`, `write_iops_log` or `write_lat_log`, with the prefix of its files; alone, the
/// prefix is the job's name (settled in `finish`, since `name=` may come later).
pub(super) fn write_log(j: &mut Job, key: &str, v: Option<&str>) -> R<()> {
    let prefix = Some(v.unwrap_or("").to_string());
    match key {
        "write_bw_log" => j.logs.bw = prefix,
        "write_iops_log" => j.logs.iops = prefix,
        _ => j.logs.lat = prefix,
    }
    Ok(())
}

/// fio's write_iolog: a file name, appended to as fio does.
pub(super) fn write_iolog(j: &mut Job, v: &str) -> R<()> {
    if v.is_empty() {
        return Err("needs a file name".into());
    }
    j.logs.io = Some(v.to_string());
    Ok(())
}

/// fio's log_avg_msec: whole milliseconds, 0 for a line per I/O.
pub(super) fn avg_msec(j: &mut Job, v: &str) -> R<()> {
    j.logs.avg_msec = int(v, j.kb).map_err(|_| format!("'{v}' is not a whole number of milliseconds"))?;
    Ok(())
}

/// fio's log_window_value (log_max_value): what an averaged latency line carries; alone, the
/// window's largest value (fio 3.33's boolean log_max_value).
pub(super) fn window(j: &mut Job, v: Option<&str>) -> R<()> {
    (j.logs.max_value, j.logs.avg_and_max) = match v.unwrap_or("max") {
        "avg" | "0" => (false, false),
        "max" | "1" => (true, false),
        "both" => (false, true),
        v => return Err(format!("'{v}' is not avg, max, both, 0 or 1").into()),
    };
    Ok(())
}

/// fio's log_compression: fio compresses the samples it holds in memory and writes the same
/// text, so the size only has to be one.
pub(super) fn compression(j: &mut Job, v: &str) -> R<()> {
    Ok(int(v, j.kb).map(drop).map_err(|_| format!("'{v}' is not a size in bytes"))?)
}

#[cfg(test)]
mod tests;

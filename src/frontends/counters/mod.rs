//! Database counter snapshots: what SQL Server (`sys.dm_io_virtual_file_stats`) and PostgreSQL
//! (`pg_stat_io`) have counted, read from two CSV exports taken some time apart, and the
//! workload between them: per file (SQL Server) or per object and context (PostgreSQL), the
//! rates, average sizes and the latency the database waited. docs/database-counters.md has the
//! queries that take the snapshots. The parsers take text and a name for errors, never a path,
//! so they can be driven without a file system.

mod csv;
mod postgres;
mod sqlserver;
pub mod streams;

pub use postgres::postgres;
pub use sqlserver::sqlserver;

use crate::error::UsageError;
pub use crate::workload::observed::{Observed, Role};

/// One file's (or one PostgreSQL row's) counters in one snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct Counters {
    /// What matches the same row in the other snapshot ("database 5 file 2").
    pub key: String,
    /// What the report calls it ("sales file 2 (log) L:\sales_log.ldf").
    pub label: String,
    pub role: Role,
    /// 1-based line in the CSV, for errors.
    pub line: usize,
    pub reads: f64,
    pub read_bytes: f64,
    /// Total ms the database waited for reads; None: not tracked (PostgreSQL without
    /// track_io_timing).
    pub read_ms: Option<f64>,
    pub writes: f64,
    pub write_bytes: f64,
    pub write_ms: Option<f64>,
    /// When the counters were last reset (PostgreSQL's stats_reset), to tell a reset between
    /// the snapshots from a restart.
    pub reset: Option<String>,
}

/// One snapshot: the moment it was taken, ms on the database's own clock, and its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub name: String,
    /// Which database wrote it: "SQL Server" or "PostgreSQL".
    pub source: &'static str,
    pub taken_ms: f64,
    /// The line the time was read from.
    pub taken_line: usize,
    pub rows: Vec<Counters>,
}

/// Reads a snapshot whichever database wrote it, told by its header: SQL Server's has
/// `num_of_reads`, PostgreSQL's `backend_type`.
pub fn parse(text: &str, name: &str) -> Result<Snapshot, UsageError> {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let has = |c: &str| csv::fields(first).iter().any(|f| f.trim().eq_ignore_ascii_case(c));
    if has("num_of_reads") {
        sqlserver(text, name)
    } else if has("backend_type") {
        postgres(text, name)
    } else {
        Err(UsageError::new(
            name,
            "line 1: expected a header naming sys.dm_io_virtual_file_stats' columns (num_of_reads, …) or pg_stat_io's (backend_type, …); take the snapshot with the query in docs/database-counters.md",
        ))
    }
}

/// The workload between `before` and `after`: one entry per file or group that did any I/O,
/// in the order of `after`. Counters that went backwards, rows in only one snapshot, or an
/// interval that is not positive are errors naming the file and line.
pub fn between(before: &Snapshot, after: &Snapshot) -> Result<Vec<Observed>, UsageError> {
    let bad = |line: usize, m: String| UsageError::new(&after.name, format!("line {line}: {m}"));
    if before.source != after.source {
        return Err(bad(
            1,
            format!(
                "is a {} snapshot but {} is a {} one; give two of the same",
                after.source, before.name, before.source
            ),
        ));
    }
    let seconds = (after.taken_ms - before.taken_ms) / 1e3;
    // Both times are finite (the parser refuses anything else).
    if seconds <= 0.0 {
        return Err(bad(
            after.taken_line,
            format!(
                "taken at {} ms, not after {} ({} ms): give the earlier snapshot first",
                after.taken_ms, before.name, before.taken_ms
            ),
        ));
    }
    if let Some(b) = before.rows.iter().find(|b| !after.rows.iter().any(|a| a.key == b.key)) {
        return Err(UsageError::new(
            &before.name,
            format!("line {}: {} is not in {}: take both snapshots of the same server", b.line, b.key, after.name),
        ));
    }
    let mut out: Vec<Observed> = Vec::new();
    for a in &after.rows {
        let Some(b) = before.rows.iter().find(|b| b.key == a.key) else {
            return Err(bad(
                a.line,
                format!("{} is not in {}: take both snapshots of the same server", a.key, before.name),
            ));
        };
        if a.reset != b.reset {
            return Err(bad(
                a.line,
                format!(
                    "the counters of {} were reset between the snapshots (stats_reset {} in {}): take both after the reset",
                    a.key,
                    b.reset.as_deref().unwrap_or("empty"),
                    before.name
                ),
            ));
        }
        let d = |col: &str, x: f64, y: f64| {
            if y < x {
                Err(bad(
                    a.line,
                    format!(
                        "{col} of {} went from {x} to {y}: counters only grow, so the server restarted (or they were reset) between the snapshots; take both since then",
                        a.key
                    ),
                ))
            } else {
                Ok(y - x)
            }
        };
        let wait = |col: &str, x: Option<f64>, y: Option<f64>| match (x, y) {
            (Some(x), Some(y)) => d(col, x, y).map(Some),
            _ => Ok(None),
        };
        let o = Observed {
            name: a.label.clone(),
            role: a.role,
            seconds,
            reads: d("reads", b.reads, a.reads)?,
            read_bytes: d("bytes read", b.read_bytes, a.read_bytes)?,
            read_wait_ms: wait("read wait", b.read_ms, a.read_ms)?,
            writes: d("writes", b.writes, a.writes)?,
            write_bytes: d("bytes written", b.write_bytes, a.write_bytes)?,
            write_wait_ms: wait("write wait", b.write_ms, a.write_ms)?,
        };
        // PostgreSQL counts 0 ms when track_io_timing is off: no wait at all over real I/O
        // means it was not timed, not that the I/O took no time.
        let pg = after.source == postgres::SOURCE;
        let untracked = |w: Option<f64>, n: f64| w.filter(|w| !(pg && *w == 0.0 && n > 0.0));
        let o = Observed {
            read_wait_ms: untracked(o.read_wait_ms, o.reads),
            write_wait_ms: untracked(o.write_wait_ms, o.writes),
            ..o
        };
        if o.reads > 0.0 || o.writes > 0.0 {
            merge(&mut out, o);
        }
    }
    Ok(out)
}

/// PostgreSQL's rows of one group (the backends of one object and context) add up.
fn merge(out: &mut Vec<Observed>, o: Observed) {
    let Some(m) = out.iter_mut().find(|m| m.name == o.name) else {
        out.push(o);
        return;
    };
    let add = |x: Option<f64>, nx: f64, y: Option<f64>, ny: f64| match (x, y) {
        (Some(x), Some(y)) => Some(x + y),
        (Some(x), None) if ny == 0.0 => Some(x),
        (None, Some(y)) if nx == 0.0 => Some(y),
        _ => None,
    };
    m.read_wait_ms = add(m.read_wait_ms, m.reads, o.read_wait_ms, o.reads);
    m.write_wait_ms = add(m.write_wait_ms, m.writes, o.write_wait_ms, o.writes);
    m.reads += o.reads;
    m.read_bytes += o.read_bytes;
    m.writes += o.writes;
    m.write_bytes += o.write_bytes;
}

/// Reads two snapshot files (bounded, regular files only) and the workload between them.
pub fn from_files(before: &std::path::Path, after: &std::path::Path) -> Result<Vec<Observed>, UsageError> {
    let read = |p: &std::path::Path| {
        let name = p.display().to_string();
        let text = crate::input::read_text(p, "--from-stats", crate::input::TEXT_LIMIT)?;
        parse(&text, &name)
    };
    let (b, a) = (read(before)?, read(after)?);
    let found = between(&b, &a)?;
    if found.is_empty() {
        return Err(UsageError::new(
            after.display().to_string(),
            format!("no file did any I/O since {}: take the snapshots further apart", before.display()),
        ));
    }
    Ok(found)
}

#[cfg(test)]
mod tests;

//! PostgreSQL's `pg_stat_io` as `psql --csv` writes it, with the snapshot's time in a
//! `sample_epoch` column (the shipped query adds it: pg_stat_io has no clock of its own).
//! 16 and 17 give sizes as `op_bytes` (the block size) per operation, 18 as `read_bytes`,
//! `write_bytes` and `extend_bytes`; both are read. Empty fields are NULL: an operation the
//! row cannot do. Relation extensions are writes of new blocks, so they count as writes. Rows
//! are grouped as a DBA reads them: WAL, temporary relations, relations in normal use, and
//! each ring-buffer context (bulkread, bulkwrite, vacuum), over all backend types.

use super::csv::{Header, Line};
use super::{Counters, Role, Snapshot};
use crate::error::UsageError;

pub const SOURCE: &str = "PostgreSQL";

/// What a (object, context) row is part of: the group's name and role.
fn group(object: &str, context: &str) -> (String, Role) {
    match (object, context) {
        ("wal", _) => ("wal".into(), Role::Log),
        ("temp relation", _) => ("temp relation".into(), Role::Tempdb),
        (o, "normal" | "init") => (o.to_string(), Role::Data),
        (o, c) => (format!("{o} ({c})"), Role::Bulk),
    }
}

/// A snapshot of pg_stat_io; `name` names the file in errors.
pub fn postgres(text: &str, name: &str) -> Result<Snapshot, UsageError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| !l.trim().is_empty());
    let Some((hno, hline)) = lines.next() else {
        return Err(UsageError::new(name, "is empty; expected pg_stat_io as CSV (psql --csv) with its header"));
    };
    let h = Header::new(hline);
    let need = |col: &str, why: &str| {
        h.find(col).ok_or_else(|| UsageError::new(name, format!("line {hno}: the header has no {col} column; {why}")))
    };
    let when = need("sample_epoch", "take the snapshot with the query in docs/database-counters.md, which adds it")?;
    let cols = "expected pg_stat_io's backend_type, object, context, reads, read_time, writes, write_time, extends";
    let [backend, object, context, reads, writes, extends] =
        ["backend_type", "object", "context", "reads", "writes", "extends"].map(|c| need(c, cols));
    let (backend, object, context, reads, writes, extends) = (backend?, object?, context?, reads?, writes?, extends?);
    let (read_time, write_time, extend_time) = (h.find("read_time"), h.find("write_time"), h.find("extend_time"));
    let op_bytes = h.find("op_bytes");
    let sized = [h.find("read_bytes"), h.find("write_bytes"), h.find("extend_bytes")];
    if op_bytes.is_none() && sized.iter().any(Option::is_none) {
        return Err(UsageError::new(
            name,
            format!("line {hno}: the header has neither op_bytes (PostgreSQL 16, 17) nor read_bytes, write_bytes and extend_bytes (18)"),
        ));
    }
    let reset = h.find("stats_reset");
    let mut snap = Snapshot { name: name.into(), source: SOURCE, taken_ms: 0.0, taken_line: hno, rows: Vec::new() };
    for (no, l) in lines {
        let line = Line { file: name, no, fields: super::csv::fields(l) };
        if line.fields.len() != h.len() {
            return Err(line.err(format!("{} fields, expected {} as in the header", line.fields.len(), h.len())));
        }
        let taken = line.need(when, "sample_epoch")? * 1e3;
        if taken > snap.taken_ms {
            (snap.taken_ms, snap.taken_line) = (taken, no);
        }
        let n = |at: usize, col: &str| line.number(Some(at), col).map(|x| x.unwrap_or(0.0));
        let (r, w, e) = (n(reads, "reads")?, n(writes, "writes")?, n(extends, "extends")?);
        let (rb, wb, eb) = match op_bytes {
            Some(at) => {
                let b = line.number(Some(at), "op_bytes")?.unwrap_or(0.0);
                (r * b, w * b, e * b)
            }
            None => {
                let b = |i: usize, col: &str| line.number(sized[i], col).map(|x| x.unwrap_or(0.0));
                (b(0, "read_bytes")?, b(1, "write_bytes")?, b(2, "extend_bytes")?)
            }
        };
        let time = |at: Option<usize>, col: &str| line.number(at, col);
        let wt = match (time(write_time, "write_time")?, time(extend_time, "extend_time")?) {
            (Some(a), Some(b)) => Some(a + b),
            (a, None) if e == 0.0 => a,
            (None, b) if w == 0.0 => b,
            _ => None,
        };
        let (obj, ctx) = (line.text(object), line.text(context));
        let (label, role) = group(obj, ctx);
        let key = format!("{} / {obj} / {ctx}", line.text(backend));
        if snap.rows.iter().any(|x| x.key == key) {
            return Err(line.err(format!("{key} appears twice; expected one row per backend, object and context")));
        }
        snap.rows.push(Counters {
            key,
            label,
            role,
            line: no,
            reads: r,
            read_bytes: rb,
            read_ms: time(read_time, "read_time")?,
            writes: w + e,
            write_bytes: wb + eb,
            write_ms: wt,
            reset: reset.map(|i| line.text(i).to_string()),
        });
    }
    if snap.rows.is_empty() {
        return Err(UsageError::new(name, format!("line {hno}: the header is not followed by any row")));
    }
    Ok(snap)
}

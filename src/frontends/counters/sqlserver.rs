//! SQL Server's `sys.dm_io_virtual_file_stats(NULL, NULL)` as sqlcmd (`-s"," -W`: a line of
//! dashes under the header, "(N rows affected)" at the end) or SSMS ("Save Results As" CSV)
//! export it. The header is required: it is what says which column is which. Columns are found
//! by name; `database_name`, `type_desc` and `physical_name` (the shipped query joins
//! sys.master_files for them) say what each file is, and without `type_desc` file 2 is taken
//! for the log, as SQL Server numbers a database's first log file.

use super::csv::{fields, Header, Line};
use super::{Counters, Role, Snapshot};
use crate::error::UsageError;

pub const SOURCE: &str = "SQL Server";

const NEEDED: [&str; 9] = [
    "database_id",
    "file_id",
    "sample_ms",
    "num_of_reads",
    "num_of_bytes_read",
    "io_stall_read_ms",
    "num_of_writes",
    "num_of_bytes_written",
    "io_stall_write_ms",
];

/// sqlcmd's line under the header, and the lines it adds after the rows.
fn is_decoration(line: &str) -> bool {
    let t = line.trim();
    t.is_empty()
        || t.chars().all(|c| c == '-' || c == ',' || c == ' ')
        || (t.starts_with('(') && (t.ends_with("rows affected)") || t.ends_with("row affected)")))
}

/// A snapshot of sys.dm_io_virtual_file_stats; `name` names the file in errors.
pub fn sqlserver(text: &str, name: &str) -> Result<Snapshot, UsageError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| !is_decoration(l));
    let Some((hno, hline)) = lines.next() else {
        return Err(UsageError::new(name, "is empty; expected sys.dm_io_virtual_file_stats as CSV with its header"));
    };
    let h = Header::new(hline);
    if fields(hline).first().is_some_and(|f| f.trim().parse::<f64>().is_ok()) {
        return Err(UsageError::new(
            name,
            format!("line {hno}: expected the header (database_id, file_id, sample_ms, …), found numbers: in SSMS turn on Tools > Options > Query Results > SQL Server > Results to Grid > Include column headers when copying or saving the results"),
        ));
    }
    let mut at = [0usize; 9];
    for (slot, col) in at.iter_mut().zip(NEEDED) {
        *slot = h.find(col).ok_or_else(|| {
            UsageError::new(name, format!("line {hno}: the header has no {col} column; expected {}", NEEDED.join(", ")))
        })?;
    }
    let [db, file, sample, reads, rbytes, rstall, writes, wbytes, wstall] = at;
    let (db_name, kind, path) = (h.find("database_name"), h.find("type_desc"), h.find("physical_name"));
    let mut snap = Snapshot { name: name.into(), source: SOURCE, taken_ms: 0.0, taken_line: hno, rows: Vec::new() };
    for (no, l) in lines {
        let mut f = fields(l);
        // sqlcmd does not quote: a comma in the path (the last column) splits it.
        if f.len() > h.len() && h.last() == Some("physical_name") {
            let rest = f.split_off(h.len() - 1).join(",");
            f.push(rest);
        }
        let line = Line { file: name, no, fields: f };
        if line.fields.len() != h.len() {
            return Err(line.err(format!("{} fields, expected {} as in the header", line.fields.len(), h.len())));
        }
        let id = |at: usize, what: &str| -> Result<u64, UsageError> {
            line.text(at)
                .parse::<u64>()
                .map_err(|_| line.err(format!("{what} '{}' is not a whole number", line.text(at))))
        };
        let (dbid, fid) = (id(db, "database_id")?, id(file, "file_id")?);
        let taken = line.need(sample, "sample_ms")?;
        if taken > snap.taken_ms {
            (snap.taken_ms, snap.taken_line) = (taken, no);
        }
        let dbn = db_name.map(|i| line.text(i)).filter(|s| !s.is_empty() && *s != "NULL");
        let kind = kind.map(|i| line.text(i).to_ascii_uppercase());
        let role = match kind.as_deref() {
            Some("LOG") => Role::Log,
            None if fid == 2 => Role::Log,
            _ if dbid == 2 || dbn.is_some_and(|n| n.eq_ignore_ascii_case("tempdb")) => Role::Tempdb,
            _ => Role::Data,
        };
        let shown_db = dbn.map_or_else(|| format!("database {dbid}"), str::to_string);
        let file_path = path.map(|i| line.text(i)).filter(|s| !s.is_empty() && *s != "NULL");
        let label = match file_path {
            Some(p) => format!("{shown_db} file {fid} ({}) {p}", role.name()),
            None => format!("{shown_db} file {fid} ({})", role.name()),
        };
        let key = format!("database {dbid} file {fid}");
        if snap.rows.iter().any(|r| r.key == key) {
            return Err(line.err(format!("{key} appears twice; expected one row per file")));
        }
        snap.rows.push(Counters {
            key,
            label,
            role,
            line: no,
            reads: line.need(reads, "num_of_reads")?,
            read_bytes: line.need(rbytes, "num_of_bytes_read")?,
            read_ms: Some(line.need(rstall, "io_stall_read_ms")?),
            writes: line.need(writes, "num_of_writes")?,
            write_bytes: line.need(wbytes, "num_of_bytes_written")?,
            write_ms: Some(line.need(wstall, "io_stall_write_ms")?),
            reset: None,
        });
    }
    if snap.rows.is_empty() {
        return Err(UsageError::new(name, format!("line {hno}: the header is not followed by any file's row")));
    }
    Ok(snap)
}

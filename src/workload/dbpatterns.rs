//! Database I/O patterns as ready workloads, with the sizes each engine really uses: SQL Server
//! (8 KiB pages, 64 KiB extents, log writes 512 B–60 KiB), PostgreSQL (8 KiB pages, WAL written
//! in 8 KiB pages), Db2 (4/8/16/32 KiB pages, 4 KiB log pages, prefetch by extent).

use super::parse::bssplit;
use super::{Pattern, Spec};
use crate::error::{usage, UsageError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Db {
    SqlServer,
    Postgres,
    Db2 { page: u64 },
}

pub const NAMES: [&str; 8] = ["oltp", "log", "readahead", "checkpoint", "backup", "restore", "dss", "tempdb"];

impl Db {
    pub fn parse(s: &str, page: Option<u64>) -> Result<Db, UsageError> {
        Db::named(s)?.with_page(page)
    }

    /// The database `s` names, with its default page (Db2's 4 KiB).
    pub fn named(s: &str) -> Result<Db, UsageError> {
        match s {
            "sqlserver" | "mssql" => Ok(Db::SqlServer),
            "postgres" | "postgresql" => Ok(Db::Postgres),
            "db2" => Ok(Db::Db2 { page: 4096 }),
            _ => usage("--db", format!("'{s}' is not a database; use sqlserver, postgres or db2")),
        }
    }

    /// The database with the page `--page-size` asks for, where it has a choice.
    pub fn with_page(self, page: Option<u64>) -> Result<Db, UsageError> {
        let db = match self {
            Db::Db2 { .. } => Db::Db2 { page: page.unwrap_or(4096) },
            d => d,
        };
        match (db, page) {
            (Db::Db2 { page }, _) if ![4096, 8192, 16384, 32768].contains(&page) => {
                usage("--page-size", format!("{page} bytes is not a Db2 page size; use 4k, 8k, 16k or 32k"))
            }
            (Db::SqlServer | Db::Postgres, Some(_)) => usage("--page-size", "only Db2 has a choice of page sizes"),
            _ => Ok(db),
        }
    }

    fn page(self) -> u64 {
        match self {
            Db::Db2 { page } => page,
            _ => 8192,
        }
    }
}

/// One pattern: the spec fields that define it and the sentence printed with its result.
#[derive(Debug)]
pub struct DbPattern {
    pub spec: Spec,
    pub description: String,
}

fn kib(b: u64) -> String {
    format!("{}K", b / 1024)
}

/// One built-in pattern for the databases `db` accepts. In `split` and `what`, `{p}` stands for
/// the database's page size and `{e}` for an extent of 32 pages.
struct Row {
    name: &'static str,
    db: fn(Db) -> bool,
    split: &'static str,
    pattern: Pattern,
    read_pct: u32,
    threads: u32,
    qd: u32,
    write_through: bool,
    what: &'static str,
}

const ANY: fn(Db) -> bool = |_| true;

const PATTERNS: &[Row] = &[
    Row {
        name: "oltp",
        db: ANY,
        split: "{p}/100",
        pattern: Pattern::Random,
        read_pct: 70,
        threads: 4,
        qd: 8,
        write_through: false,
        what: "{p} random page reads and writes, 70 % reads, 4 users × 8 outstanding: index seeks and updates",
    },
    Row {
        name: "log",
        db: |db| db == Db::SqlServer,
        split: "512/10:4k/30:8k/20:16k/15:32k/15:60k/10",
        pattern: Pattern::Sequential,
        read_pct: 0,
        threads: 1,
        qd: 1,
        write_through: true,
        what: "transaction log: sequential write-through writes of 512 B to 60 KiB, one outstanding",
    },
    Row {
        name: "log",
        db: |db| db == Db::Postgres,
        split: "8k/60:16k/20:64k/15:128k/5",
        pattern: Pattern::Sequential,
        read_pct: 0,
        threads: 1,
        qd: 1,
        write_through: true,
        what: "WAL: sequential write-through writes of whole 8 KiB WAL pages (8 KiB to 128 KiB), one outstanding",
    },
    Row {
        name: "log",
        db: |db| matches!(db, Db::Db2 { .. }),
        split: "4k/40:16k/30:64k/20:128k/10",
        pattern: Pattern::Sequential,
        read_pct: 0,
        threads: 1,
        qd: 1,
        write_through: true,
        what: "transaction log: sequential write-through writes of 4 KiB log pages (4 KiB to 128 KiB), one outstanding",
    },
    Row {
        name: "readahead",
        db: |db| matches!(db, Db::Db2 { .. }),
        split: "{e}/100",
        pattern: Pattern::Sequential,
        read_pct: 100,
        threads: 1,
        qd: 4,
        write_through: false,
        what: "prefetch of one extent (32 × {p} pages), 4 outstanding",
    },
    Row {
        name: "readahead",
        db: |db| db == Db::Postgres,
        split: "128k/100",
        pattern: Pattern::Sequential,
        read_pct: 100,
        threads: 1,
        qd: 4,
        write_through: false,
        what: "the kernel's 128 KiB read-ahead under sequential scans, 4 outstanding",
    },
    Row {
        name: "readahead",
        db: |db| db == Db::SqlServer,
        split: "64k/40:128k/20:256k/20:512k/20",
        pattern: Pattern::Sequential,
        read_pct: 100,
        threads: 1,
        qd: 4,
        write_through: false,
        what: "read-ahead of 64 KiB to 512 KiB, 4 outstanding",
    },
    Row {
        name: "checkpoint",
        db: ANY,
        split: "{p}/100",
        pattern: Pattern::Random,
        read_pct: 0,
        threads: 1,
        qd: 64,
        write_through: false,
        what: "checkpoint: a burst of {p} random page writes, 64 outstanding",
    },
    Row {
        name: "backup",
        db: ANY,
        split: "1m/100",
        pattern: Pattern::Sequential,
        read_pct: 100,
        threads: 1,
        qd: 4,
        write_through: false,
        what: "backup: one 1 MiB sequential read stream, 4 buffers",
    },
    Row {
        name: "restore",
        db: ANY,
        split: "1m/100",
        pattern: Pattern::Sequential,
        read_pct: 0,
        threads: 1,
        qd: 4,
        write_through: false,
        what: "restore: one 1 MiB sequential write stream, 4 buffers",
    },
    Row {
        name: "dss",
        db: ANY,
        split: "512k/100",
        pattern: Pattern::Sequential,
        read_pct: 100,
        threads: 8,
        qd: 2,
        write_through: false,
        what: "decision support: 8 parallel 512 KiB sequential scans, 2 outstanding each",
    },
    Row {
        name: "tempdb",
        db: ANY,
        split: "{p}/60:64k/40",
        pattern: Pattern::Random,
        read_pct: 50,
        threads: 4,
        qd: 8,
        write_through: false,
        what: "temporary objects: {p} pages and 64 KiB extents, half reads, 4 users × 8 outstanding",
    },
];

/// The workload of pattern `name` for database `db`, on top of the command's common settings
/// (targets, size, duration, cache flags).
pub fn pattern(name: &str, db: Db, base: &Spec) -> Result<DbPattern, UsageError> {
    let Some(row) = PATTERNS.iter().find(|r| r.name == name && (r.db)(db)) else {
        return usage("PATTERN", format!("'{name}' is not a pattern; use {}", NAMES.join(", ")));
    };
    let page = db.page();
    let sizes = |s: &str| s.replace("{p}", &kib(page)).replace("{e}", &kib(page * 32));
    let spec = Spec {
        blocks: bssplit(&sizes(row.split)).expect("built-in split is valid"),
        pattern: row.pattern,
        read_pct: row.read_pct,
        threads: row.threads,
        qd: row.qd,
        write_through: row.write_through || base.write_through,
        ..base.clone()
    };
    spec.validate()?;
    let db_name = match db {
        Db::SqlServer => "SQL Server",
        Db::Postgres => "PostgreSQL",
        Db::Db2 { .. } => "Db2",
    };
    Ok(DbPattern { spec, description: format!("{name} ({db_name}): {}", sizes(row.what)) })
}

#[cfg(test)]
mod tests;

//! The result store: every result in an embedded SQLite database (WAL, one transaction per
//! result), the full JSON kept beside indexed columns for the questions users ask (which host,
//! which target, which label, when). Schema changes are numbered migrations on `user_version`.

use crate::result::RunResult;
use anyhow::Context;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};

/// Each entry moves the schema one version up; never edit one that has shipped.
const MIGRATIONS: &[&str] = &[
    // 1: results with their indexed columns, and tags.
    "CREATE TABLE results (
        id INTEGER PRIMARY KEY,
        started_at TEXT NOT NULL,
        saved_at TEXT NOT NULL,
        host TEXT NOT NULL,
        vm TEXT,
        command TEXT NOT NULL,
        target TEXT,
        label TEXT,
        profile TEXT,
        iolens_version TEXT NOT NULL,
        headline TEXT NOT NULL,
        json TEXT NOT NULL
    );
    CREATE INDEX results_started ON results(started_at);
    CREATE INDEX results_host ON results(host);
    CREATE INDEX results_label ON results(label);
    CREATE TABLE tags (
        result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value TEXT NOT NULL
    );
    CREATE INDEX tags_result ON tags(result_id);",
    // 2: where a result came from when iolens did not measure it (fio's JSON); tags by value.
    "ALTER TABLE results ADD COLUMN source TEXT;
    CREATE INDEX tags_key_value ON tags(key, value);",
    // 3: data verification's findings, one row each, for questions across results ("which
    // hosts lost writes?"); the result's JSON keeps them too.
    "CREATE TABLE findings (
        result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        test INTEGER NOT NULL,
        file TEXT NOT NULL,
        offset INTEGER NOT NULL,
        len INTEGER NOT NULL,
        class TEXT NOT NULL,
        expected_gen INTEGER NOT NULL,
        found_gen INTEGER,
        found_offset INTEGER,
        found_file INTEGER,
        persistent INTEGER NOT NULL,
        diff TEXT NOT NULL,
        at_s REAL NOT NULL
    );
    CREATE INDEX findings_result ON findings(result_id);
    CREATE INDEX findings_class ON findings(class);",
];

pub struct Store {
    conn: Connection,
    path: PathBuf,
}

/// One line of `history`.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: i64,
    pub started_at: String,
    pub host: String,
    pub command: String,
    pub target: Option<String>,
    pub label: Option<String>,
    pub headline: String,
    /// Set for results iolens did not measure (imported fio output).
    pub source: Option<String>,
}

/// What `history` filters on; every field optional.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub host: Option<String>,
    pub target: Option<String>,
    pub label: Option<String>,
    /// Results started at or after this RFC 3339 time (or date).
    pub since: Option<String>,
    pub limit: Option<u32>,
}

/// `--store PATH`, else `IOLENS_STORE`, else the user's data directory:
/// `$XDG_DATA_HOME/iolens/iolens.db` (`~/.local/share/iolens/iolens.db`) on Linux,
/// `%LOCALAPPDATA%\iolens\iolens.db` on Windows.
pub fn default_path() -> PathBuf {
    if let Some(p) = std::env::var_os("IOLENS_STORE").filter(|p| !p.is_empty()) {
        return p.into();
    }
    let var = |name| std::env::var_os(name).filter(|p| !p.is_empty()).map(PathBuf::from);
    let data = if cfg!(windows) {
        var("LOCALAPPDATA")
    } else {
        var("XDG_DATA_HOME").or_else(|| var("HOME").map(|h| h.join(".local/share")))
    };
    data.unwrap_or_else(|| PathBuf::from(".")).join("iolens").join("iolens.db")
}

/// Turns WAL on. SQLite answers a switch that races another process's with SQLITE_BUSY at
/// once, without calling the busy handler, so the switch is retried here for as long as the
/// busy timeout would have waited.
fn wal(conn: &Connection) -> anyhow::Result<()> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        // The answer is the mode now in force; a file system without shared memory keeps the
        // old one, and the store still works there.
        match conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0)) {
            Ok(_) => return Ok(()),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(10))
            }
            Err(e) => return Err(e.into()),
        }
    }
}

impl Store {
    pub fn open(path: &Path) -> anyhow::Result<Store> {
        // SQLite would put its journal beside a device (/dev/full-journal) before failing.
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            anyhow::bail!("the store {} is not a regular file", path.display());
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let conn = Connection::open(path).with_context(|| format!("opening the store {}", path.display()))?;
        // Two iolens processes may save at the same moment: wait for the other's write.
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        wal(&conn).with_context(|| format!("switching the store {} to WAL", path.display()))?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut store = Store { conn, path: path.to_path_buf() };
        store.migrate()?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version this database is at.
    pub fn version(&self) -> anyhow::Result<u32> {
        Ok(self.conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    fn migrate(&mut self) -> anyhow::Result<()> {
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let have: u32 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if have as usize > MIGRATIONS.len() {
            anyhow::bail!("the store {} is from a newer iolens (schema {have})", self.path.display());
        }
        for (i, m) in MIGRATIONS.iter().enumerate().skip(have as usize) {
            tx.execute_batch(m).with_context(|| format!("migrating the store to schema {}", i + 1))?;
            tx.pragma_update(None, "user_version", (i + 1) as u32)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Saves a result whole, in one transaction, and reads it back before committing: what
    /// cannot be read back as it was given is not kept. Returns its id.
    pub fn save(&mut self, r: &RunResult) -> anyhow::Result<i64> {
        crate::result::figures::check(r).map_err(|e| anyhow::anyhow!("not saved: {e}"))?;
        let json = serde_json::to_string(r)?;
        let vm = match (&r.host.vm_vendor, &r.host.vm_product) {
            (Some(v), Some(p)) => Some(format!("{v} {p}")),
            (v, p) => v.clone().or_else(|| p.clone()),
        };
        let target = r.host.targets.first().map(|t| t.path.clone());
        let profile = r.tests.first().map(|t| t.name.clone());
        let saved_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO results (started_at, saved_at, host, vm, command, target, label, profile, iolens_version, headline, json, source)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![r.started_at, saved_at, r.host.hostname, vm, r.command, target, r.label, profile, r.iolens_version, headline(r), json, r.source],
        )?;
        let id = tx.last_insert_rowid();
        for (k, v) in &r.tags {
            tx.execute("INSERT INTO tags (result_id, key, value) VALUES (?1, ?2, ?3)", params![id, k, v])?;
        }
        for (i, t) in r.tests.iter().enumerate() {
            for f in t.verify.iter().flat_map(|v| &v.findings) {
                tx.execute(
                    "INSERT INTO findings (result_id, test, file, offset, len, class, expected_gen, found_gen,
                     found_offset, found_file, persistent, diff, at_s)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                    params![
                        id,
                        i as i64,
                        f.file,
                        f.offset as i64,
                        f.len,
                        f.class.as_str(),
                        f.expected_gen as i64,
                        f.found_gen.map(|g| g as i64),
                        f.found_offset.map(|o| o as i64),
                        f.found_file,
                        f.persistent(),
                        f.diff,
                        f.at_s
                    ],
                )?;
            }
        }
        let back: String = tx.query_row("SELECT json FROM results WHERE id = ?1", [id], |r| r.get(0))?;
        read_back(&json, &back).map_err(|e| anyhow::anyhow!("not saved: result {id} did not read back: {e}"))?;
        tx.commit()?;
        Ok(id)
    }

    pub fn load(&self, id: i64) -> anyhow::Result<Option<RunResult>> {
        let json: Option<String> =
            self.conn.query_row("SELECT json FROM results WHERE id = ?1", [id], |r| r.get(0)).optional()?;
        json.map(|j| serde_json::from_str(&j).with_context(|| format!("result {id} in the store is not readable")))
            .transpose()
    }

    /// Findings stored for a result: (class, count), by class name.
    pub fn finding_counts(&self, id: i64) -> anyhow::Result<Vec<(String, u64)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT class, COUNT(*) FROM findings WHERE result_id = ?1 GROUP BY class ORDER BY class")?;
        let rows = stmt.query_map([id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Removes a result; false if there was none with that id.
    pub fn delete(&mut self, id: i64) -> anyhow::Result<bool> {
        Ok(self.conn.execute("DELETE FROM results WHERE id = ?1", [id])? > 0)
    }

    /// Newest first.
    pub fn list(&self, f: &Filter) -> anyhow::Result<Vec<Entry>> {
        let mut sql = String::from(
            "SELECT id, started_at, host, command, target, label, headline, source FROM results WHERE 1 = 1",
        );
        let mut args: Vec<String> = Vec::new();
        for (col, v, op) in [
            ("host", &f.host, "="),
            ("target", &f.target, "LIKE"),
            ("label", &f.label, "LIKE"),
            ("started_at", &f.since, ">="),
        ] {
            if let Some(v) = v {
                args.push(if op == "LIKE" { format!("%{v}%") } else { v.clone() });
                sql.push_str(&format!(" AND {col} {op} ?{}", args.len()));
            }
        }
        sql.push_str(&format!(" ORDER BY id DESC LIMIT {}", f.limit.unwrap_or(50)));
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map(rusqlite::params_from_iter(args.iter()), |r| {
            Ok(Entry {
                id: r.get(0)?,
                started_at: r.get(1)?,
                host: r.get(2)?,
                command: r.get(3)?,
                target: r.get(4)?,
                label: r.get(5)?,
                headline: r.get(6)?,
                source: r.get(7)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// `back`, as the store returned it, is a result, and the same as `json`, what was written.
fn read_back(json: &str, back: &str) -> Result<(), String> {
    let r: RunResult = serde_json::from_str(back).map_err(|e| e.to_string())?;
    let again = serde_json::to_value(&r).map_err(|e| e.to_string())?;
    let wrote: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    if again != wrote {
        return Err("it differs from what was written".into());
    }
    Ok(())
}

/// The figures a history line shows: the first test's total IOPS, MB/s and p99, and how many
/// tests there are.
fn headline(r: &RunResult) -> String {
    let Some(t) = r.tests.first() else { return "no tests".into() };
    let p99 = t.total.lat_us.percentiles.get("99").map(|v| format!(", p99 {v:.0} µs")).unwrap_or_default();
    let more = if r.tests.len() > 1 { format!(" (+{} more)", r.tests.len() - 1) } else { String::new() };
    // A run cut short is a partial measurement: history says so before its figures.
    let cut = if r.interrupted { format!("INTERRUPTED after {:.1} s: ", t.duration_s) } else { String::new() };
    format!("{cut}{}: {:.0} IOPS, {:.2} MB/s{p99}{more}", t.name, t.total.iops, t.total.mbps)
}

#[cfg(test)]
mod tests;

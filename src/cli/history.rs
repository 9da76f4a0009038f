//! `iolens history`, `show ID` and `delete ID`: what the store holds.

use super::values;
use crate::error::UsageError;
use crate::report::{self, Format};
use crate::store::{self, Filter, Store};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct HistoryArgs {
    /// Only this host
    #[arg(long)]
    pub host: Option<String>,
    /// Only targets whose path contains this
    #[arg(long)]
    pub target: Option<String>,
    /// Only labels containing this
    #[arg(long)]
    pub label: Option<String>,
    /// Only results started on or after this date or time (2026-11-01, 2026-11-01T12:00:00Z)
    #[arg(long, value_name = "DATE", value_parser = values::since)]
    pub since: Option<String>,
    /// At most this many lines, newest first
    #[arg(long, default_value = "50", value_name = "N", value_parser = limit)]
    pub limit: u32,
    /// The result store [default: $IOLENS_STORE, else ~/.local/share/iolens/iolens.db, on Windows %LOCALAPPDATA%\iolens\iolens.db]
    #[arg(long, value_name = "PATH")]
    pub store: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct ShowArgs {
    /// The result's id (from `iolens history`)
    #[arg(value_parser = values::id)]
    pub id: i64,
    /// text, json, csv, markdown or html
    #[arg(long, default_value = "text", value_name = "FORMAT", value_parser = values::format)]
    pub format: Format,
    /// The result store [default: $IOLENS_STORE, else ~/.local/share/iolens/iolens.db, on Windows %LOCALAPPDATA%\iolens\iolens.db]
    #[arg(long, value_name = "PATH")]
    pub store: Option<PathBuf>,
}

fn limit(s: &str) -> Result<u32, UsageError> {
    s.parse::<u32>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| UsageError::new("--limit", format!("'{s}' is not allowed; use a whole number above 0")))
}

/// The store, which must already exist: looking never creates one.
fn open(path: &Option<PathBuf>) -> anyhow::Result<Store> {
    let p = path.clone().unwrap_or_else(store::default_path);
    if !p.exists() {
        return Err(
            UsageError::new("--store", format!("{} does not exist yet; measure something first", p.display())).into()
        );
    }
    Store::open(&p)
}

pub fn history(a: HistoryArgs) -> anyhow::Result<i32> {
    let s = open(&a.store)?;
    let f = Filter {
        host: a.host.clone(),
        target: a.target.clone(),
        label: a.label.clone(),
        since: a.since.clone(),
        limit: Some(a.limit),
    };
    for e in s.list(&f)? {
        let label = e.label.map(|l| format!(" \"{l}\"")).unwrap_or_default();
        let from = e.source.map(|s| format!("  [{s}]")).unwrap_or_default();
        println!("{:>5}  {}  {}{label}  {}  {}{from}", e.id, e.started_at, e.host, e.command, e.headline);
    }
    Ok(0)
}

pub fn show(a: ShowArgs) -> anyhow::Result<i32> {
    let (n, format) = (a.id, a.format);
    let s = open(&a.store)?;
    let Some(r) = s.load(n)? else {
        return Err(UsageError::new("ID", format!("no result {n} in {}", s.path().display())).into());
    };
    print!("{}", report::render(&r, format));
    Ok(0)
}

pub fn delete(a: ShowArgs) -> anyhow::Result<i32> {
    let n = a.id;
    let mut s = open(&a.store)?;
    if !s.delete(n)? {
        return Err(UsageError::new("ID", format!("no result {n} in {}", s.path().display())).into());
    }
    eprintln!("deleted result {n}");
    Ok(0)
}

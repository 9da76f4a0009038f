//! `iolens import FILE…` and `iolens export ID…`: results travel as their JSON (the usual way:
//! run on each VM, copy the JSON home, import), keeping the host they were measured on.

use super::stored::StoreArgs;
use crate::error::{usage, UsageError};
use crate::report::{self, Format};
use crate::store::{self, Store};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct ImportArgs {
    /// iolens JSON results (`--format json` or `--out r.json` from any machine), or fio's
    /// JSON output (`fio --output-format=json` or `json+`)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The host fio's results were measured on (fio's JSON does not name it)
    #[arg(long, value_name = "NAME")]
    pub host: Option<String>,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Args, Debug, Clone)]
pub struct ExportArgs {
    /// Stored result ids
    #[arg(value_name = "ID", required = true, value_parser = export_id)]
    pub ids: Vec<i64>,
    /// json, text, csv, markdown or html
    #[arg(long, default_value = "json", value_name = "FORMAT", value_parser = super::values::format)]
    pub format: Format,
    /// Write each result to DIR/iolens-ID.json (.txt, .csv, .md, .html) instead of the terminal
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// The result store [default: $IOLENS_STORE, else ~/.local/share/iolens/iolens.db, on Windows %LOCALAPPDATA%\iolens\iolens.db]
    #[arg(long, value_name = "PATH")]
    pub store: Option<PathBuf>,
}

pub fn import(a: ImportArgs) -> anyhow::Result<i32> {
    let opts = a.store.check()?;
    // Every file is read and checked before the first one is saved.
    let results = a
        .files
        .iter()
        .map(|f| crate::frontends::import::read_file(f, a.host.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    let Some(path) = opts.path else { return usage("--no-store", "import saves into the store; drop --no-store")? };
    let mut s = Store::open(&path)?;
    for (f, mut r) in a.files.iter().zip(results) {
        if opts.label.is_some() {
            r.label = opts.label.clone();
        }
        r.tags.extend(opts.tags.iter().cloned());
        let id = s.save(&r)?;
        println!("{id}\t{}\t{}\t{}", r.host.hostname, r.command, f.display());
    }
    Ok(0)
}

fn export_id(s: &str) -> Result<i64, UsageError> {
    s.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| UsageError::new("ID", format!("'{s}' is not a result id")))
}

pub fn export(a: ExportArgs) -> anyhow::Result<i32> {
    let (format, ids) = (a.format, a.ids.clone());
    if let Some(d) = &a.dir {
        if !d.is_dir() {
            return usage("--dir", format!("{} is not a directory", d.display()))?;
        }
    }
    let path = a.store.clone().unwrap_or_else(store::default_path);
    if !path.exists() {
        return usage("--store", format!("{} does not exist yet; measure something first", path.display()))?;
    }
    let s = Store::open(&path)?;
    for id in ids {
        let Some(r) = s.load(id)? else { return usage("ID", format!("no result {id} in {}", path.display()))? };
        match &a.dir {
            Some(d) => {
                let f = d.join(format!("iolens-{id}.{}", format.extension()));
                report::write_file(&r, format, &f)?;
                eprintln!("wrote {}", f.display());
            }
            None => print!("{}", report::render(&r, format)),
        }
    }
    Ok(0)
}

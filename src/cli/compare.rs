//! `iolens compare A B [C…]`: results by id, label or JSON file, side by side with verdicts.

use crate::error::usage;
use crate::report::{self, Format};
use crate::session::named::{key, resolve};
use crate::store;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct CompareArgs {
    /// Results: store ids, labels, or JSON files (iolens' or fio's)
    #[arg(value_name = "RESULT", num_args = 2.., required = true)]
    pub results: Vec<String>,
    /// Compare each result with this one (id, label or file) instead of the first
    #[arg(long, value_name = "RESULT")]
    pub baseline: Option<String>,
    /// Differences within this many percent are ≈
    #[arg(long, default_value = "10", value_name = "PCT", value_parser = same)]
    pub same: f64,
    /// text, json, csv, markdown or html
    #[arg(long, default_value = "text", value_name = "FORMAT", value_parser = super::values::format)]
    pub format: Format,
    /// Also write the comparison to FILE (format from its .json, .txt, .csv, .md or .html extension)
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The result store [default: $IOLENS_STORE, else ~/.local/share/iolens/iolens.db, on Windows %LOCALAPPDATA%\iolens\iolens.db]
    #[arg(long, value_name = "PATH")]
    pub store: Option<PathBuf>,
}

/// A tolerance in percent from 0 (exclusive of 100), as a fraction.
fn same(s: &str) -> Result<f64, crate::error::UsageError> {
    match s.trim_end_matches('%').parse::<f64>() {
        Ok(v) if (0.0..100.0).contains(&v) => Ok(v / 100.0),
        _ => usage("--same", format!("'{s}' is not allowed; use a percentage from 0 to 100")),
    }
}

pub fn main(a: CompareArgs) -> anyhow::Result<i32> {
    let (same, format) = (a.same, a.format);
    let out = match &a.out {
        Some(p) => {
            if p.parent().is_some_and(|d| !d.as_os_str().is_empty() && !d.is_dir()) {
                return usage("--out", format!("directory {} does not exist", p.parent().unwrap_or(p).display()))?;
            }
            Some((p, Format::from_extension(p).unwrap_or(format)))
        }
        None => None,
    };
    let path = a.store.clone().unwrap_or_else(store::default_path);
    let mut store = None;
    let mut keys = Vec::new();
    for w in &a.results {
        keys.push(key(w, &mut store, &path)?);
    }
    let baseline = a.baseline.as_deref().map(|b| key(b, &mut store, &path)).transpose()?;
    if keys.iter().chain(&baseline).all(|(k, _)| *k == keys[0].0) {
        let one = &keys[0].0;
        return usage("RESULT", format!("{one} is named more than once; compare needs two different results"))?;
    }
    let mut keys = super::common::once(keys, |(k, _)| k.to_string());
    let base = match baseline {
        None => 0,
        Some(k) => keys.iter().position(|(have, _)| *have == k.0).unwrap_or_else(|| {
            keys.insert(0, k);
            0
        }),
    };
    let mut names = Vec::new();
    let mut results = Vec::new();
    for (k, n) in &keys {
        let (n, r) = resolve(k, n, &store, &path)?;
        names.push(n);
        results.push(r);
    }
    let c = crate::compare::compare(&results, &names, base, same);
    // Both renderings are made before anything is written, so a refused format writes nothing.
    let shown = report::render_comparison(&c, &results, format)?;
    let file = out.map(|(p, f)| report::render_comparison(&c, &results, f).map(|t| (p, t))).transpose()?;
    print!("{shown}");
    if let Some((p, text)) = file {
        report::write_text(&text, p)?;
    }
    Ok(0)
}

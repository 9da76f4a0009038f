//! Reports: one file per format, each reading only the `RunResult`.

mod cdm;
mod compare;
mod csv;
mod diskspd;
mod fio_json;
mod json;
mod markdown;
mod sqlio;
mod sweep;
mod text;

#[cfg(test)]
mod tests;

use crate::error::{usage, UsageError};
use crate::result::RunResult;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    /// fio's `--output-format=json` layout, for tools built on fio.
    FioJson,
    Csv,
    Markdown,
}

impl Format {
    pub fn parse(s: &str) -> Result<Format, UsageError> {
        match s {
            "text" | "txt" => Ok(Format::Text),
            "json" => Ok(Format::Json),
            "csv" => Ok(Format::Csv),
            "markdown" | "md" => Ok(Format::Markdown),
            _ => usage("--format", format!("'{s}' is not a format; use text, json, csv or markdown")),
        }
    }
}

pub fn render(r: &RunResult, f: Format) -> String {
    match f {
        // A front end with a table of its own shows that; JSON is the same for all.
        Format::Text if r.command == "cdm" => cdm::render(r),
        Format::Text if r.command == "sweep" => sweep::render(r),
        Format::Text if r.command == "sqlio" => sqlio::render(r),
        Format::Text if r.command == "diskspd" => diskspd::render(r),
        Format::Text => text::render(r),
        Format::Json => json::render(r),
        Format::FioJson => fio_json::render(r),
        Format::Csv => csv::render(r),
        Format::Markdown => markdown::render(r),
    }
}

/// Writes a report whole or not at all (temporary file, then rename), so a reader never sees
/// half a JSON document even if iolens is killed while writing.
pub fn write_file(r: &RunResult, f: Format, path: &Path) -> anyhow::Result<()> {
    use anyhow::Context;
    let tmp = path.with_extension(format!("{}.iolens.tmp", path.extension().and_then(|e| e.to_str()).unwrap_or("out")));
    std::fs::write(&tmp, render(r, f)).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// The side-by-side table of several results (see `compare`).
pub fn compare(results: &[RunResult], names: &[String], base: usize, same: f64) -> String {
    compare::render(results, names, base, same)
}

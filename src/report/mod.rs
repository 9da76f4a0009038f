//! Reports: one file per format, each reading only the `RunResult`.

mod cdm;
mod cells;
mod compare;
mod csv;
pub mod diskspd;

pub mod catalog;
pub(crate) mod explain;
mod fio_json;
pub mod fio_verify;
mod formats;
mod html;
mod json;
mod markdown;
pub mod plan;
mod simdb;
mod sqlio;
mod sweep;
mod text;
pub mod timeline;
pub mod verify;

#[cfg(test)]
mod tests;

use crate::compare::Comparison;
use crate::error::{usage, UsageError};
use crate::result::RunResult;
pub use formats::Exporter;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    /// fio's `--output-format` (json, json+, terse, normal, or several), for tools built on fio.
    Fio(FioOut),
    Csv,
    Markdown,
    /// One self-contained page with charts.
    Html,
    /// DiskSpd's `-Rxml` layout, for tools built on DiskSpd.
    DiskspdXml,
}

/// fio's output formats, printed in fio's order when several are asked for: terse lines, then
/// the JSON document, then the normal text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FioOut {
    pub terse: bool,
    pub json: bool,
    /// json+: the JSON with latency bins.
    pub plus: bool,
    pub normal: bool,
}

impl FioOut {
    pub const JSON: FioOut = FioOut { terse: false, json: true, plus: false, normal: false };
    pub const JSON_PLUS: FioOut = FioOut { terse: false, json: true, plus: true, normal: false };

    /// fio's --output-format value: a comma-separated list of normal, terse, json and json+.
    pub fn parse(v: &str) -> Result<FioOut, UsageError> {
        let mut o = FioOut::default();
        for f in v.split(',').map(str::trim) {
            match f {
                "normal" => o.normal = true,
                "terse" => o.terse = true,
                "json" => o.json = true,
                "json+" => (o.json, o.plus) = (true, true),
                _ => return usage("--output-format", format!("'{f}' is not normal, terse, json or json+")),
            }
        }
        Ok(o)
    }
}

impl Format {
    pub fn parse(s: &str) -> Result<Format, UsageError> {
        match s {
            "text" | "txt" => Ok(Format::Text),
            "json" => Ok(Format::Json),
            "csv" => Ok(Format::Csv),
            "markdown" | "md" => Ok(Format::Markdown),
            "html" | "htm" => Ok(Format::Html),
            _ => usage("--format", format!("'{s}' is not a format; use text, json, csv, markdown or html")),
        }
    }

    /// The format a file name asks for by its extension, if it names one.
    pub fn from_extension(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()? {
            "json" => Some(Format::Json),
            "txt" => Some(Format::Text),
            "csv" => Some(Format::Csv),
            "md" => Some(Format::Markdown),
            "html" | "htm" => Some(Format::Html),
            "xml" => Some(Format::DiskspdXml),
            _ => None,
        }
    }

    /// The extension files of this format get.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Fio(o) if !o.json => "txt",
            Format::Json | Format::Fio(_) => "json",
            Format::Csv => "csv",
            Format::Markdown => "md",
            Format::Html => "html",
            Format::DiskspdXml => "xml",
        }
    }
}

/// The renderer of format `f`: one interface for a result and a comparison alike.
pub fn exporter(f: Format) -> Box<dyn Exporter> {
    match f {
        Format::Text => Box::new(formats::Text),
        Format::Json => Box::new(formats::Json),
        Format::Fio(o) => Box::new(formats::Fio(o)),
        Format::Csv => Box::new(formats::Csv),
        Format::Markdown => Box::new(formats::Markdown),
        Format::Html => Box::new(formats::Html),
        Format::DiskspdXml => Box::new(formats::DiskspdXml),
    }
}

pub fn render(r: &RunResult, f: Format) -> String {
    exporter(f).result(r)
}

pub fn write_file(r: &RunResult, f: Format, path: &Path) -> anyhow::Result<()> {
    write_text(&render(r, f), path)
}

/// Writes `text` to `path` whole or not at all: a regular file through a temporary one
/// renamed over it (a symbolic link keeps pointing at it); anything else (`/dev/stdout`, a
/// FIFO, a terminal) is written in place, since renaming over a device would replace the
/// device with a file.
pub fn write_text(text: &str, path: &Path) -> anyhow::Result<()> {
    use std::io::Write;
    let fail = |e: std::io::Error| anyhow::anyhow!("writing {}: {e}", path.display());
    let meta = std::fs::metadata(path);
    if meta.as_ref().is_ok_and(|m| !m.is_file()) {
        let mut f = std::fs::OpenOptions::new().write(true).open(path).map_err(fail)?;
        return f.write_all(text.as_bytes()).and_then(|_| f.flush()).map_err(fail);
    }
    let target = match meta {
        Ok(_) => std::fs::canonicalize(path).map_err(fail)?,
        Err(_) => path.to_path_buf(),
    };
    let ext = target.extension().and_then(|e| e.to_str()).unwrap_or("out");
    let tmp = target.with_extension(format!("{ext}.iolens.tmp"));
    let wrote = std::fs::File::create(&tmp).and_then(|mut f| f.write_all(text.as_bytes()).and_then(|_| f.sync_all()));
    if let Err(e) = wrote {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    std::fs::rename(&tmp, &target).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

/// DiskSpd's `-Rp` text: the input parameters of specs that are not run.
/// Each spec comes with the depth and engine that would run it.
pub fn diskspd_profile_text(
    line: &[String],
    job: &crate::frontends::diskspd::DiskspdJob,
    specs: &[(crate::workload::Spec, u32, &str)],
) -> String {
    diskspd::profile_text(line, specs, &job.extras, (job.latency, job.iops_stddev))
}

/// DiskSpd's `-Rs`/`-Rsxml`: this machine's system information alone, at `started_at` (RFC 3339).
pub fn diskspd_system(h: &crate::result::Host, started_at: &str, xml: bool) -> String {
    if xml {
        diskspd::xml::system_only(h, started_at)
    } else {
        diskspd::system_text(h, started_at)
    }
}

/// What explain found, as text (for stored results, which have no sweep of their own).
pub fn findings(e: &crate::result::analysis::Explanation) -> String {
    explain::findings(e)
}

/// A comparison of several results (see `compare`) in `f`; fio's JSON has no comparison. The
/// HTML page also draws the sweeps of `results` (the ones compared) where they have them.
pub fn render_comparison(c: &Comparison, results: &[RunResult], f: Format) -> Result<String, UsageError> {
    exporter(f).comparison(c, results)
}

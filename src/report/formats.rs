//! The one interface every format renders through: a result, and a comparison of several.
//! Each format is a type; its file (text.rs, csv.rs, html/ …) holds how it lays things out,
//! this file only which of its renderers serves which subject, and which kind of result has a
//! layout of its own (a CrystalDiskMark table, a sweep, an explanation).

use super::{cdm, compare, csv, diskspd, explain, fio_json, html, json, markdown, simdb, sqlio, sweep, text, FioOut};
use crate::compare::Comparison;
use crate::error::{usage, UsageError};
use crate::result::{Kind, RunResult};

/// A format: what it makes of one result and of a comparison.
pub trait Exporter {
    fn result(&self, r: &RunResult) -> String;

    /// `results` are the results compared, for a format that draws their sweeps (HTML).
    fn comparison(&self, c: &Comparison, results: &[RunResult]) -> Result<String, UsageError>;
}

pub struct Text;
pub struct Json;
pub struct Csv;
pub struct Markdown;
pub struct Html;
pub struct Fio(pub FioOut);
pub struct DiskspdXml;

impl Exporter for Text {
    fn result(&self, r: &RunResult) -> String {
        match r.kind() {
            Kind::Cdm => cdm::render(r),
            Kind::Explain | Kind::Check => explain::render(r),
            Kind::Sweep => sweep::render(r),
            Kind::Sqlio => sqlio::render(r),
            Kind::Diskspd => diskspd::render(r),
            Kind::Simdb => simdb::render(r),
            Kind::Run | Kind::Pattern | Kind::Replay | Kind::Fio | Kind::Other => text::render(r),
        }
    }

    fn comparison(&self, c: &Comparison, _: &[RunResult]) -> Result<String, UsageError> {
        Ok(compare::text(c))
    }
}

impl Exporter for Json {
    fn result(&self, r: &RunResult) -> String {
        json::render(r)
    }

    fn comparison(&self, c: &Comparison, _: &[RunResult]) -> Result<String, UsageError> {
        Ok(serde_json::to_string_pretty(c).expect("a comparison serializes") + "\n")
    }
}

impl Exporter for Csv {
    fn result(&self, r: &RunResult) -> String {
        csv::render(r)
    }

    fn comparison(&self, c: &Comparison, _: &[RunResult]) -> Result<String, UsageError> {
        Ok(compare::csv(c))
    }
}

impl Exporter for Markdown {
    fn result(&self, r: &RunResult) -> String {
        markdown::render(r)
    }

    fn comparison(&self, c: &Comparison, _: &[RunResult]) -> Result<String, UsageError> {
        Ok(compare::markdown(c))
    }
}

impl Exporter for Html {
    fn result(&self, r: &RunResult) -> String {
        html::render(r)
    }

    fn comparison(&self, c: &Comparison, results: &[RunResult]) -> Result<String, UsageError> {
        Ok(html::compare(c, results))
    }
}

/// The peers' own layouts hold one run each.
fn no_comparison() -> Result<String, UsageError> {
    usage("--format", "fio's JSON and DiskSpd's XML hold no comparison; use text, json, csv, markdown or html")
}

impl Exporter for Fio {
    fn result(&self, r: &RunResult) -> String {
        let o = self.0;
        let mut s = String::new();
        if o.terse {
            s.push_str(&fio_json::render_terse(r));
        }
        if o.json {
            s.push_str(&fio_json::render_as(r, o.plus));
        }
        if o.normal {
            s.push_str(&text::render(r));
        }
        s
    }

    fn comparison(&self, _: &Comparison, _: &[RunResult]) -> Result<String, UsageError> {
        no_comparison()
    }
}

impl Exporter for DiskspdXml {
    fn result(&self, r: &RunResult) -> String {
        diskspd::xml::render(r)
    }

    fn comparison(&self, _: &Comparison, _: &[RunResult]) -> Result<String, UsageError> {
        no_comparison()
    }
}

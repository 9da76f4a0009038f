//! The CSV the exports write: comma-separated, a field in double quotes when it holds a comma or
//! a quote (psql --csv, SSMS), a doubled quote inside one; sqlcmd never quotes.

use crate::error::UsageError;

/// One line's fields, quotes removed.
pub fn fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.trim_end_matches('\r').chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cur.push('"');
            }
            ('"', true) => quoted = false,
            ('"', false) if cur.is_empty() => quoted = true,
            (',', false) => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// The header's columns, lower case and trimmed, with where each wanted one is.
pub struct Header {
    names: Vec<String>,
}

impl Header {
    pub fn new(line: &str) -> Header {
        Header { names: fields(line).iter().map(|f| f.trim().to_ascii_lowercase()).collect() }
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn find(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    pub fn last(&self) -> Option<&str> {
        self.names.last().map(String::as_str)
    }
}

/// A data line being read: its fields and where it is, for errors.
pub struct Line<'a> {
    pub file: &'a str,
    pub no: usize,
    pub fields: Vec<String>,
}

impl Line<'_> {
    pub fn err(&self, m: impl std::fmt::Display) -> UsageError {
        UsageError::new(self.file, format!("line {}: {m}", self.no))
    }

    /// The text in column `at`, trimmed; "" when the line is short.
    pub fn text(&self, at: usize) -> &str {
        self.fields.get(at).map_or("", |f| f.trim())
    }

    /// A count or time in column `at` named `name`; an empty field or NULL is None.
    pub fn number(&self, at: Option<usize>, name: &str) -> Result<Option<f64>, UsageError> {
        let Some(at) = at else { return Ok(None) };
        let t = self.text(at);
        if t.is_empty() || t.eq_ignore_ascii_case("null") {
            return Ok(None);
        }
        match t.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Ok(Some(x)),
            _ => Err(self.err(format!("{name} '{t}' is not a number (0 or more)"))),
        }
    }

    /// As `number`, but the column must hold one.
    pub fn need(&self, at: usize, name: &str) -> Result<f64, UsageError> {
        self.number(Some(at), name)?.ok_or_else(|| self.err(format!("{name} is empty; expected a number")))
    }
}

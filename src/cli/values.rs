//! Values parsed at the door: clap value parsers made of iolens's own rules, so a bad value is
//! refused before any command runs, with iolens's one-line error naming the option and what it
//! accepts (`main` hands a parser's `UsageError` on as it is), and the commands get typed fields.

use crate::error::{usage, UsageError};
use crate::workload::parse;

/// What clap takes as a value parser.
pub trait Parser<T>: Fn(&str) -> Result<T, UsageError> + Clone + Send + Sync + 'static {}
impl<T, F: Fn(&str) -> Result<T, UsageError> + Clone + Send + Sync + 'static> Parser<T> for F {}

/// A number above 0 ("20,000" too, as people write IOPS).
pub fn positive(opt: &'static str) -> impl Parser<f64> {
    move |s| match s.replace(',', "").parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => usage(opt, format!("'{s}' is not a positive number")),
    }
}

/// A whole number from `lo` to `hi`.
pub fn whole(opt: &'static str, lo: u32, hi: u32) -> impl Parser<u32> {
    move |s| match s.parse::<u32>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => usage(opt, format!("'{s}' is not allowed; use {lo}-{hi}")),
    }
}

/// A count above 0.
pub fn count(opt: &'static str) -> impl Parser<usize> {
    move |s| {
        s.parse::<usize>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| UsageError::new(opt, format!("'{s}' is not a number above 0")))
    }
}

/// A percentage from 0 to `hi`, "%" allowed.
pub fn percent_to(opt: &'static str, hi: f64) -> impl Parser<f64> {
    move |s| match s.trim_end_matches('%').parse::<f64>() {
        Ok(x) if (0.0..=hi).contains(&x) => Ok(x),
        _ => usage(opt, format!("'{s}' is not a percentage from 0 to {hi}")),
    }
}

/// A tolerance: a percentage above 0 and below 100, as a fraction.
pub fn tolerance(opt: &'static str) -> impl Parser<f64> {
    move |s| match s.trim_end_matches('%').parse::<f64>() {
        Ok(t) if t > 0.0 && t < 100.0 => Ok(t / 100.0),
        _ => usage(opt, format!("'{s}' is not allowed; use a percentage above 0 and below 100")),
    }
}

/// A host cache mode: none (false), readonly or readwrite (true: the VM's cached limit).
pub fn cached(opt: &'static str) -> impl Parser<bool> {
    move |s| match s.to_lowercase().as_str() {
        "none" => Ok(false),
        "readonly" | "readwrite" => Ok(true),
        c => usage(opt, format!("'{c}' is not a cache mode; use none, readonly or readwrite")),
    }
}

/// A size in GiB above 0.
pub fn gib(opt: &'static str) -> impl Parser<f64> {
    move |s| match s.parse::<f64>() {
        Ok(g) if g > 0.0 => Ok(g),
        _ => usage(opt, format!("'{s}' is not a size in GiB")),
    }
}

/// A size in bytes: 512, 4k, 1GiB …
pub fn size(opt: &'static str) -> impl Parser<u64> {
    move |s| parse::size(opt, s)
}

/// A time in seconds: 10, 2.5s, 500ms, 2m …
pub fn seconds(opt: &'static str) -> impl Parser<f64> {
    move |s| parse::seconds(opt, s)
}

/// A comma-separated list of values, none empty ("8k,64k,512k").
#[derive(Debug, Clone, PartialEq)]
pub struct List<T>(pub Vec<T>);

/// A list whose every item `one` reads.
pub fn list<T: Clone + Send + Sync + 'static>(opt: &'static str, one: impl Parser<T>) -> impl Parser<List<T>> {
    move |s| {
        let v: Vec<T> = s.split(',').map(|x| one(x.trim())).collect::<Result<_, _>>()?;
        if v.is_empty() {
            return usage(opt, "the list is empty");
        }
        Ok(List(v))
    }
}

/// A block size: 512, 4k, 1m …
pub fn block(opt: &'static str) -> impl Parser<u64> {
    move |s| parse::block_size(opt, s)
}

/// A number from `lo` to `hi` (spaces around it allowed).
pub fn within<T>(opt: &'static str, lo: T, hi: T) -> impl Parser<T>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |s| match s.trim().parse::<T>() {
        Ok(v) if v >= lo && v <= hi => Ok(v),
        _ => usage(opt, format!("'{s}' is not allowed; use {lo} to {hi}")),
    }
}

/// A value with its text as typed, for the checks that can only be made later (against a
/// directory's sector size, say) and must quote what the user wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Given<T> {
    pub text: String,
    pub value: T,
}

pub fn given<T: Clone + Send + Sync + 'static>(one: impl Parser<T>) -> impl Parser<Given<T>> {
    move |s| Ok(Given { text: s.to_string(), value: one(s)? })
}

/// A report format: text, json, csv, markdown or html.
pub fn format(s: &str) -> Result<crate::report::Format, UsageError> {
    crate::report::Format::parse(s)
}

/// A stored result's id: a whole number above 0.
pub fn id(s: &str) -> Result<i64, UsageError> {
    match s.parse::<i64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => usage("ID", format!("'{s}' is not a result id; `iolens history` lists them")),
    }
}

/// A date, or a date and time, as the store keeps them (2026-11-01, 2026-11-01T12:00:00Z).
pub fn since(s: &str) -> Result<String, UsageError> {
    if !(s.len() >= 10 && s.as_bytes()[4] == b'-' && s.as_bytes()[7] == b'-') {
        return usage("--since", format!("'{s}' is not a date; write 2026-11-01 or 2026-11-01T12:00:00Z"));
    }
    Ok(s.to_string())
}

/// A `key=value` tag, both trimmed, the key not empty.
pub fn tag(t: &str) -> Result<(String, String), UsageError> {
    match t.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => usage("--tag", format!("'{t}' is not key=value")),
    }
}

#[cfg(test)]
mod tests;

//! Where a job file's option was written, so an error names the file (or the include) and its
//! line: `j.fio:4: [j] bs: '4x' is not a number …`. Command-line options have no place, and their
//! errors stay `[j]: bs: …`.

use super::error::JobError;
use super::options::canonical;
use super::Opt;
use crate::error::UsageError;
use std::fmt;
use std::rc::Rc;

/// A line of a job file or of a file it includes; the file as it was named.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Place {
    pub file: Rc<str>,
    pub line: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// `what` prefixed with its place, when it has one.
pub(super) fn at(place: Option<&Place>, what: &str) -> String {
    match place {
        Some(p) => format!("{p}: {what}"),
        None => what.to_string(),
    }
}

/// A job's options with the place of each (`None` from the command line), and the place of
/// its `[section]` line.
pub(super) struct Located<'a> {
    pub job: &'a str,
    pub opts: &'a [Opt],
    pub places: &'a [Option<Place>],
    pub header: Option<&'a Place>,
}

impl Located<'_> {
    /// The error of the option at `index`, `why` not naming it: `file:line: [job] key: why`.
    pub fn option(&self, index: usize, why: &str) -> UsageError {
        let key = &self.opts[index].0;
        match self.places.get(index).and_then(Option::as_ref) {
            Some(p) => UsageError::new(format!("{p}: [{}] {key}", self.job), why),
            None => UsageError::new(format!("[{}]", self.job), format!("{key}: {why}")),
        }
    }

    /// A job's error at its line: an option's at that option's; one of the job as a whole
    /// with an option of the job at its heart at that option's last line, the one that
    /// counted; any other at the `[section]` line.
    pub fn place(&self, e: JobError) -> UsageError {
        let whole = |msg: &str| UsageError::new(at(self.header, &format!("[{}]", self.job)), msg);
        match e {
            JobError::At(i, why) => self.option(i, &why),
            JobError::Option { option, why } => {
                let name = canonical(&option);
                let i = name.and_then(|n| self.opts.iter().rposition(|(k, _)| canonical(k) == Some(n)));
                match i {
                    Some(i) if self.places.get(i).is_some_and(Option::is_some) => self.option(i, &why),
                    _ => whole(&format!("{option}: {why}")),
                }
            }
            JobError::Job(m) | JobError::Value(m) => whole(&m),
        }
    }

    /// An error of the option named `key` (its last occurrence), else of the job.
    pub fn named(&self, key: &str, why: &str) -> UsageError {
        match self.opts.iter().rposition(|(k, _)| k == key) {
            Some(i) => self.option(i, why),
            None => self.place(JobError::of(key, why)),
        }
    }
}

#[cfg(test)]
mod tests;

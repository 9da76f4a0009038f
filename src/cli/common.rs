//! The options every measuring command shares: report format and copy, the write permissions,
//! keeping the test file, quiet, and the store. Clap commands flatten them; diskspd and fio,
//! which read their own argument lists, take them with `split`.

use super::stored::StoreArgs;
use super::values::{self, given, Given};
use crate::error::UsageError;
use crate::report::Format;
use crate::session::Output;
use crate::workload::Spec;
use clap::{Args, FromArgMatches};
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// Report format on the terminal: text, json, csv, markdown or html
    #[arg(long, default_value = "text", value_name = "FORMAT", value_parser = given(values::format))]
    pub format: Given<Format>,
    /// Also write the report to FILE (format from its .json, .txt, .csv, .md, .html or .xml (DiskSpd's XML) extension, else --format)
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Allow writes to files iolens did not create
    #[arg(long)]
    pub allow_write: bool,
    /// Allow writes to an unmounted block device (destroys its data)
    #[arg(long)]
    pub force_device: bool,
    /// Keep test files iolens created
    #[arg(long)]
    pub keep: bool,
    /// No live progress line
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub store: StoreArgs,
}

impl Default for CommonArgs {
    fn default() -> Self {
        CommonArgs {
            format: Given { text: "text".into(), value: Format::Text },
            out: None,
            allow_write: false,
            force_device: false,
            keep: false,
            quiet: false,
            store: StoreArgs::default(),
        }
    }
}

impl CommonArgs {
    pub fn output(&self, trace: Option<&Path>) -> Result<Output, UsageError> {
        let mut output = Output::new(self.format.value, self.out.as_deref(), trace, self.quiet)?;
        output.store = self.store.check()?;
        Ok(output)
    }

    /// The spec a CrystalDiskMark profile or a database pattern starts from: one target (the
    /// current directory by default) of `size` bytes, run for `duration` s, direct I/O unless
    /// `buffered`, with these permissions.
    pub fn base_spec(&self, target: Option<&str>, size: u64, duration: f64, buffered: bool) -> Spec {
        let mut spec = Spec {
            targets: vec![target.unwrap_or(".").to_string()],
            size,
            // These commands always make their targets this size (the default or --size).
            size_given: true,
            duration,
            direct: !buffered,
            ..Spec::default()
        };
        self.apply(&mut spec);
        spec
    }

    /// The permissions and clean-up choice, onto a spec.
    pub fn apply(&self, spec: &mut Spec) {
        spec.allow_write = self.allow_write;
        spec.force_device = self.force_device;
        spec.keep = self.keep;
    }
}

/// The shared options as clap defines them on `CommonArgs` (and `StoreArgs`): the one
/// definition, which the hand-read argument lists of diskspd and fio are read by too.
fn shared() -> clap::Command {
    CommonArgs::augment_args(clap::Command::new("iolens").no_binary_name(true))
}

/// Whether `name` ("--out", "-q") is a shared option, and if so whether it takes a value.
fn shared_option(cmd: &clap::Command, name: &str) -> Option<bool> {
    let arg = cmd.get_arguments().find(|a| match name.strip_prefix("--") {
        Some(long) => a.get_long() == Some(long),
        None => name.len() == 2 && name.starts_with('-') && a.get_short() == name.chars().nth(1),
    })?;
    Some(arg.get_action().takes_values())
}

/// The shared options' names, for an error that lists what a hand-read list accepts.
pub fn shared_names() -> String {
    let cmd = shared();
    let names: Vec<String> = cmd.get_arguments().filter_map(|a| a.get_long()).map(|l| format!("--{l}")).collect();
    match names.split_last() {
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Takes the shared options (and, first, what `extra` recognises) out of a hand-read argument
/// list, `--name value` or `--name=value`; returns them and the rest in order.
pub fn split(
    args: &[String],
    mut extra: impl FnMut(&str, &mut dyn FnMut() -> Result<String, UsageError>) -> Result<bool, UsageError>,
) -> Result<(CommonArgs, Vec<String>), UsageError> {
    let cmd = shared();
    // The shared options found, as `--name=value`, so that a value starting with '-' stays one.
    let (mut mine, mut rest) = (Vec::new(), Vec::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if a.starts_with("--") => (n, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let mut value =
            || inline.clone().or_else(|| it.next().cloned()).ok_or_else(|| UsageError::new(name, "needs a value"));
        if extra(name, &mut value)? {
            continue;
        }
        match shared_option(&cmd, name) {
            Some(true) => mine.push(format!("{name}={}", value()?)),
            Some(false) => mine.push(name.to_string()),
            None => rest.push(a.clone()),
        }
    }
    // As the commands clap reads whole say it (`--store` with `--no-store` is refused alike).
    let m = cmd.try_get_matches_from(&mine).map_err(|e| {
        // A value refused by one of iolens's value parsers: its own line, as `main` says it.
        if let Some(u) = std::error::Error::source(&e).and_then(|s| s.downcast_ref::<UsageError>()) {
            return u.clone();
        }
        let first = e.to_string().lines().next().unwrap_or_default().to_string();
        UsageError::worded("ARGS", first)
    })?;
    let own = CommonArgs::from_arg_matches(&m).map_err(|e| UsageError::worded("ARGS", e.to_string()))?;
    Ok((own, rest))
}

/// `items` with each repeat dropped and said once on stderr: a result named twice is read, and
/// counted, once (`explain` and `compare` alike).
pub fn once<T>(items: Vec<T>, name: impl Fn(&T) -> String) -> Vec<T> {
    let (mut kept, mut names, mut said) = (Vec::with_capacity(items.len()), Vec::new(), Vec::new());
    for i in items {
        let n = name(&i);
        if !names.contains(&n) {
            names.push(n);
            kept.push(i);
        } else if !said.contains(&n) {
            eprintln!("note: result {n} is named more than once; it counts once");
            said.push(n);
        }
    }
    kept
}

#[cfg(test)]
mod tests;

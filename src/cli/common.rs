//! The options every measuring command shares: report format and copy, the write permissions,
//! keeping the test file, quiet, and the store. Clap commands flatten them; diskspd and fio,
//! which read their own argument lists, take them with `split`.

use super::stored::StoreArgs;
use crate::error::UsageError;
use crate::session::Output;
use crate::workload::{parse, Spec};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// Report format on the terminal: text, json, csv, markdown or html
    #[arg(long, default_value = "text", value_name = "FORMAT")]
    pub format: String,
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
            format: "text".into(),
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
        let mut output = Output::new(&self.format, self.out.as_deref(), trace, self.quiet)?;
        output.store = self.store.check()?;
        Ok(output)
    }

    /// The spec a CrystalDiskMark profile or a database pattern starts from: one target (the
    /// current directory by default) of `size`, run for `duration` (the option's name and
    /// value), direct I/O unless `buffered`, with these permissions.
    pub fn base_spec(
        &self,
        target: Option<&str>,
        size: &str,
        duration: (&str, &str),
        buffered: bool,
    ) -> Result<Spec, UsageError> {
        let mut spec = Spec {
            targets: vec![target.unwrap_or(".").to_string()],
            size: parse::size("--size", size)?,
            // These commands always make their targets this size (the default or --size).
            size_given: true,
            duration: parse::seconds(duration.0, duration.1)?,
            direct: !buffered,
            ..Spec::default()
        };
        self.apply(&mut spec);
        Ok(spec)
    }

    /// The permissions and clean-up choice, onto a spec.
    pub fn apply(&self, spec: &mut Spec) {
        spec.allow_write = self.allow_write;
        spec.force_device = self.force_device;
        spec.keep = self.keep;
    }

    fn take(&mut self, name: &str, value: &mut dyn FnMut() -> Result<String, UsageError>) -> Result<bool, UsageError> {
        match name {
            "--format" => self.format = value()?,
            "--out" => self.out = Some(value()?.into()),
            "--keep" => self.keep = true,
            "--allow-write" => self.allow_write = true,
            "--force-device" => self.force_device = true,
            "--quiet" | "-q" => self.quiet = true,
            _ => return self.store.take(name, value),
        }
        Ok(true)
    }
}

/// Takes the shared options (and, first, what `extra` recognises) out of a hand-read argument
/// list, `--name value` or `--name=value`; returns them and the rest in order.
pub fn split(
    args: &[String],
    mut extra: impl FnMut(&str, &mut dyn FnMut() -> Result<String, UsageError>) -> Result<bool, UsageError>,
) -> Result<(CommonArgs, Vec<String>), UsageError> {
    let mut own = CommonArgs::default();
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if a.starts_with("--") => (n, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let mut value =
            || inline.clone().or_else(|| it.next().cloned()).ok_or_else(|| UsageError::new(name, "needs a value"));
        if !(extra(name, &mut value)? || own.take(name, &mut value)?) {
            rest.push(a.clone());
        }
    }
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

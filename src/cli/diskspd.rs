//! `iolens diskspd ARGS…`: a DiskSpd command line, parsed as DiskSpd parses it, run by iolens,
//! reported in DiskSpd's layout. iolens' own options use two dashes (DiskSpd's use one), so
//! they mix freely: `iolens diskspd --format json -t2 -o32 -b4k -r -w25 -d60 -Sh -L -c1G io.dat`.

use super::common::{self, CommonArgs};
use super::exec::{execute, Item, Passes};
use super::fail;
use crate::error::{usage, UsageError};
use crate::spec::diskspd;
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct DiskspdArgs {
    /// DiskSpd's arguments (-b4k -t2 -o32 -r -w25 -d60 -Sh -L -c1G FILE), plus iolens' --format text|json,
    /// --out FILE, --keep, --allow-write, --force-device, --quiet
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

/// Splits iolens' own `--options` from DiskSpd's `-options` and targets.
fn split(args: &[String]) -> Result<(CommonArgs, Vec<String>), UsageError> {
    let (own, rest) = common::split(args, |_, _| Ok(false))?;
    if let Some(n) = rest.iter().find(|a| a.starts_with("--")) {
        return usage(
            n.split('=').next().unwrap_or(n),
            "is not an iolens option here; use --format, --out, --keep, --allow-write, --force-device, --quiet, --label, --tag, --store or --no-store",
        );
    }
    Ok((own, rest))
}

pub fn main(a: DiskspdArgs) -> i32 {
    let go = || -> anyhow::Result<i32> {
        let (own, rest) = split(&a.args)?;
        let mut job = diskspd::parse(&rest)?;
        own.apply(&mut job.spec);
        for n in &job.notes {
            eprintln!("note: {n}");
        }
        let notes = job.notes.clone();
        let output = own.output(None)?;
        let name = job.spec.short_name();
        // Without -c DiskSpd uses an existing target whole, as iolens does without --size.
        let size_given = job.create_size.is_some();
        let mut item = Item { name, spec: job.spec, notes };
        item.spec.targets.dedup();
        execute("diskspd", &[item], size_given, &output, &Passes::ONCE)
    };
    go().unwrap_or_else(|e| fail(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn own_options_are_split_from_diskspds() {
        let (own, rest) = split(&v("--format json -t2 --out=r.json -b4k --keep f.dat")).unwrap();
        assert_eq!((own.format.as_str(), own.keep), ("json", true));
        assert_eq!(own.out.unwrap().to_str(), Some("r.json"));
        assert_eq!(rest, v("-t2 -b4k f.dat"));
        assert_eq!(split(&v("--size 1G f")).unwrap_err().option, "--size");
        assert_eq!(split(&v("-t2 --format")).unwrap_err().option, "--format");
    }
}

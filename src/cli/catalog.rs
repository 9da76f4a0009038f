//! `iolens catalog` lists the published limits iolens knows; `iolens catalog import FILE…` adds
//! what the clouds' own tools export to the user's catalog.

use crate::analyze::catalog::{self, import, Catalog, Source};
use crate::error::UsageError;
use crate::report::Format;
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true)]
pub struct CatalogArgs {
    #[command(subcommand)]
    pub action: Option<Action>,
    /// Only this cloud: azure, aws or gcp (or a cloud named in your --catalog file)
    #[arg(long, value_name = "CLOUD")]
    pub cloud: Option<String>,
    /// Only rows whose name, kind or series contains this text (P30, gp3, D8s, "Standard SSD")
    #[arg(long, value_name = "TEXT")]
    pub search: Option<String>,
    /// text or json
    #[arg(long, default_value = "text", value_name = "FORMAT", value_parser = super::values::format)]
    pub format: Format,
    /// Another catalog file to add (same format as data/catalog.toml)
    #[arg(long, value_name = "FILE")]
    pub catalog: Option<PathBuf>,
}

#[derive(Subcommand, Debug, Clone)]
pub enum Action {
    /// Add what the clouds' tools export, recognised by content: `az vm list-skus --output
    /// json`, Azure Retail Prices API pages, `aws ec2 describe-instance-types --output json`,
    /// `aws pricing get-products`, or a CSV of your own (docs/catalog.md). Kept in your catalog
    /// beside the result store; each changed figure is listed.
    Import {
        /// Export files
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
}

/// The most an export may hold: a whole region's SKU list is tens of MB.
const IMPORT_LIMIT: u64 = 512 << 20;

pub fn main(a: CatalogArgs) -> anyhow::Result<i32> {
    if let Some(Action::Import { files }) = &a.action {
        return import_files(files);
    }
    let cat = Catalog::load(a.catalog.as_deref())?;
    let format = a.format;
    let want = |cloud: &str, text: &[&str]| {
        a.cloud.as_deref().is_none_or(|c| c.eq_ignore_ascii_case(cloud))
            && a.search.as_deref().is_none_or(|s| text.iter().any(|t| t.to_lowercase().contains(&s.to_lowercase())))
    };
    let disks: Vec<_> = cat.disks.iter().filter(|d| want(&d.cloud, &[&d.name, &d.kind])).collect();
    let vms: Vec<_> =
        cat.vms.iter().filter(|v| want(&v.cloud, &[&v.name, v.series.as_deref().unwrap_or("")])).collect();
    let prices: Vec<_> = cat.prices.iter().filter(|p| want(&p.cloud, &[&p.name])).collect();
    if format == Format::Json {
        let v = serde_json::json!({ "disks": disks, "vms": vms, "prices": prices, "sources": cat.sources });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    print!("{}", crate::report::catalog::catalog(&disks, &vms, &prices, &cat.sources));
    Ok(0)
}

/// Reads every file first, so that one bad file changes nothing; then merges them in order and
/// keeps the result in the user's catalog.
fn import_files(files: &[PathBuf]) -> anyhow::Result<i32> {
    let mut read = Vec::new();
    for f in files {
        let shown = f.display().to_string();
        let text = crate::input::read_text(f, &shown, IMPORT_LIMIT)?;
        let got = import::parse(&text).map_err(|e| UsageError::new(&shown, e))?;
        if got.disks.is_empty() && got.vms.is_empty() && got.prices.is_empty() {
            let e = format!("holds no VM size, disk or price iolens uses (read as {})", got.format);
            return Err(UsageError::new(&shown, e).into());
        }
        read.push((f, got));
    }
    let path = catalog::user_path();
    let mut user = catalog::read_user(&path)?;
    for (f, got) in read {
        let shipped =
            Catalog::load_with(None, None).and_then(|mut c| c.add(user.clone(), "your catalog").map(|_| c))?;
        let id =
            (1..).map(|n| format!("I{n}")).find(|id| !shipped.sources.iter().any(|s| &s.id == id)).unwrap_or_default();
        let name = f.file_name().map_or_else(|| f.display().to_string(), |n| n.to_string_lossy().into_owned());
        let source = Source {
            id,
            reference: format!("{} export {name}", got.format),
            url: None,
            read: Some(catalog::file_day(f)),
        };
        println!("{name} ({}), as source {}:", got.format, source.id);
        for line in import::merge(&mut user, &shipped, got, source).report {
            println!("  {line}");
        }
    }
    catalog::save_user(&path, &user)?;
    println!("kept in {}", path.display());
    Ok(0)
}

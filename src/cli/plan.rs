//! `iolens catalog` lists the published limits iolens knows; `iolens plan` finds configurations
//! that meet a target, or predicts what a named one gives and which limit binds.

use super::explain::Judge;
use super::fail;
use crate::analyze::catalog::{Caps, Catalog};
use crate::analyze::plan::{self, Target};
use crate::error::{usage, UsageError};
use crate::report::Format;
use clap::Args;
use std::fmt::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct CatalogArgs {
    /// Only this cloud: azure, aws or gcp (or a cloud named in your --catalog file)
    #[arg(long, value_name = "CLOUD")]
    pub cloud: Option<String>,
    /// Only rows whose name or kind contains this text (P30, gp3, D8s, "Standard SSD")
    #[arg(long, value_name = "TEXT")]
    pub search: Option<String>,
    /// text or json
    #[arg(long, default_value = "text", value_name = "FORMAT")]
    pub format: String,
    /// Another catalog file to add (same format as data/catalog.toml)
    #[arg(long, value_name = "FILE")]
    pub catalog: Option<PathBuf>,
}

fn opt(v: Option<f64>) -> String {
    v.map(|x| if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x:.1}") }).unwrap_or_else(|| "-".into())
}

pub fn catalog(a: CatalogArgs) -> i32 {
    let go = || -> anyhow::Result<i32> {
        let cat = Catalog::load(a.catalog.as_deref())?;
        let format = Format::parse(&a.format)?;
        let want = |cloud: &str, text: &[&str]| {
            a.cloud.as_deref().is_none_or(|c| c.eq_ignore_ascii_case(cloud))
                && a.search.as_deref().is_none_or(|s| text.iter().any(|t| t.to_lowercase().contains(&s.to_lowercase())))
        };
        let disks: Vec<_> = cat.disks.iter().filter(|d| want(&d.cloud, &[&d.name, &d.kind])).collect();
        let vms: Vec<_> = cat.vms.iter().filter(|v| want(&v.cloud, &[&v.name])).collect();
        if format == Format::Json {
            println!(
                "{}",
                serde_json::to_string_pretty(
                    &serde_json::json!({ "disks": disks, "vms": vms, "sources": cat.sources })
                )?
            );
            return Ok(0);
        }
        let mut o = String::new();
        if !disks.is_empty() {
            let _ = writeln!(
                o,
                "{:<6} {:<22} {:<20} {:>8} {:>8} {:>8} {:>10} {:>10}  source",
                "cloud", "kind", "disk", "GiB", "IOPS", "MB/s", "burst IOPS", "burst MB/s"
            );
            for d in &disks {
                if d.is_formula() {
                    let c = d.caps(d.min_gib.unwrap_or(1.0), None);
                    let prov = if d.provisioned { "provisioned" } else { "per GiB" };
                    let _ = writeln!(
                        o,
                        "{:<6} {:<22} {:<20} {:>8} {:>8} {:>8} {:>10} {:>10}  {} (formula, {prov}: up to {} IOPS, {} MB/s)",
                        d.cloud, d.kind, d.name, format!("{}-{}", opt(d.min_gib), opt(d.max_gib)), opt(Some(c.iops)), opt(Some(c.mbps)), opt(d.burst_iops), opt(d.burst_mbps), d.source, opt(d.max_iops), opt(d.max_mbps)
                    );
                } else {
                    let _ = writeln!(
                        o,
                        "{:<6} {:<22} {:<20} {:>8} {:>8} {:>8} {:>10} {:>10}  {}",
                        d.cloud,
                        d.kind,
                        d.name,
                        opt(d.size_gib),
                        opt(d.iops),
                        opt(d.mbps),
                        opt(d.burst_iops),
                        opt(d.burst_mbps),
                        d.source
                    );
                }
            }
        }
        if !vms.is_empty() {
            let _ = writeln!(
                o,
                "\n{:<6} {:<28} {:>6} {:>13} {:>13} {:>13}  source",
                "cloud", "VM", "disks", "uncached", "cached", "burst"
            );
            let pair = |i: Option<f64>, m: Option<f64>| match (i, m) {
                (Some(i), Some(m)) => format!("{}/{}", opt(Some(i)), opt(Some(m))),
                _ => "-".into(),
            };
            for v in &vms {
                let _ = writeln!(
                    o,
                    "{:<6} {:<28} {:>6} {:>13} {:>13} {:>13}  {}",
                    v.cloud,
                    v.name,
                    v.max_disks.map_or("-".into(), |d| d.to_string()),
                    pair(v.uncached_iops, v.uncached_mbps),
                    pair(v.cached_iops, v.cached_mbps),
                    pair(v.burst_iops, v.burst_mbps),
                    v.source
                );
            }
            let _ = writeln!(o, "(VM limits as IOPS/MB/s)");
        }
        if disks.is_empty() && vms.is_empty() {
            let _ = writeln!(o, "no rows match");
        }
        let _ = writeln!(o, "\nMB/s = 10^6 B/s (MiB/s rows converted). Sources:");
        let cited: Vec<&str> =
            disks.iter().map(|d| d.source.as_str()).chain(vms.iter().map(|v| v.source.as_str())).collect();
        for s in cat.sources.iter().filter(|s| cited.iter().any(|c| c.split([',', ' ']).any(|x| x == s.id))) {
            let _ = writeln!(o, "  {}: {}", s.id, s.reference);
        }
        print!("{o}");
        Ok(0)
    };
    go().unwrap_or_else(|e| fail(&e))
}

#[derive(Args, Debug, Clone)]
pub struct PlanArgs {
    /// IOPS the configuration must sustain
    #[arg(long, value_name = "N")]
    pub iops: Option<String>,
    /// MB/s (10^6 B/s) it must sustain
    #[arg(long, value_name = "N")]
    pub mbps: Option<String>,
    /// Latency wanted, ms (published limits say nothing of latency: measure with `iolens run`)
    #[arg(long, value_name = "MS")]
    pub latency_ms: Option<String>,
    /// Only this cloud: azure, aws or gcp
    #[arg(long, value_name = "CLOUD")]
    pub cloud: Option<String>,
    /// Most disks to stripe
    #[arg(long, default_value = "8", value_name = "K")]
    pub max_disks: String,
    /// Capacity needed in all, GiB
    #[arg(long, value_name = "GIB")]
    pub size: Option<String>,
    /// Configurations to list
    #[arg(long, default_value = "10", value_name = "N")]
    pub top: String,
    /// text or json
    #[arg(long, default_value = "text", value_name = "FORMAT")]
    pub format: String,
    #[command(flatten)]
    pub judge: Judge,
}

fn number(opt: &str, v: &Option<String>) -> Result<Option<f64>, UsageError> {
    match v {
        None => Ok(None),
        Some(s) => match s.replace(',', "").parse::<f64>() {
            Ok(x) if x > 0.0 && x.is_finite() => Ok(Some(x)),
            _ => usage(opt, format!("'{s}' is not a positive number")),
        },
    }
}

const SIZES: [u64; 6] = [4 << 10, 8 << 10, 64 << 10, 256 << 10, 512 << 10, 1 << 20];

/// A named configuration: its caps, which limit binds, and what it gives at each block size.
fn predict(a: &PlanArgs, format: Format) -> anyhow::Result<i32> {
    let (cat, cfg, _) = a.judge.read()?;
    let x = crate::analyze::expected(&cat, &cfg)?
        .ok_or_else(|| UsageError::new("--disk", "name a disk (--disk) and/or a VM (--vm) to predict"))?;
    let unit = cfg.disk.as_deref().and_then(|d| cat.disk(d)).and_then(|d| d.io_unit_kib);
    let table = plan::at_sizes(Caps { iops: x.iops, mbps: x.mbps.unwrap_or(f64::INFINITY) }, unit, &SIZES);
    if format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "expected": x, "at_block_size": table }))?);
        return Ok(0);
    }
    let what = [cfg.disk.as_ref().map(|d| format!("{} × {d}", cfg.count)), cfg.vm.as_ref().map(|v| format!("on {v}"))];
    println!("{}", what.into_iter().flatten().collect::<Vec<_>>().join(" "));
    // The disks' own figure matters only where the VM's limit is lower.
    let vs = |d: Option<f64>, by: &str, unit: &str| {
        d.filter(|_| by.starts_with("VM")).map(|d| format!(" (the disks give {d:.0}{unit})")).unwrap_or_default()
    };
    println!("  IOPS {:.0}: {} binds{}", x.iops, x.iops_by, vs(x.disks_iops, &x.iops_by, ""));
    match x.mbps {
        Some(m) => println!("  MB/s {m:.0}: {} binds{}", x.mbps_by, vs(x.disks_mbps, &x.mbps_by, " MB/s")),
        None => println!("  MB/s: no limit published"),
    }
    if let Some(u) = unit {
        println!("  I/O above {u} KiB counts as several, as the cloud counts it");
    }
    println!("\n  {:>6} {:>9} {:>9}  binds", "block", "IOPS", "MB/s");
    for t in table {
        println!("  {:>6} {:>9.0} {:>9.1}  {}", crate::spec::size::format_block(t.bs), t.iops, t.mbps, t.binds);
    }
    println!(
        "\nMB/s = 10^6 B/s; published limits ({}), not measurements.",
        if cfg.cached { "host cache on" } else { "host cache off" }
    );
    Ok(0)
}

pub fn main(a: PlanArgs) -> i32 {
    let go = || -> anyhow::Result<i32> {
        let format = Format::parse(&a.format)?;
        let (iops, mbps) = (number("--iops", &a.iops)?, number("--mbps", &a.mbps)?);
        let latency = number("--latency-ms", &a.latency_ms)?;
        if iops.is_none() && mbps.is_none() {
            return predict(&a, format);
        }
        let (cat, _, _) = a.judge.read()?;
        let max_disks = match a.max_disks.parse::<u32>() {
            Ok(n) if (1..=64).contains(&n) => n,
            _ => return usage("--max-disks", format!("'{}' is not allowed; use 1-64", a.max_disks))?,
        };
        let top = a
            .top
            .parse::<usize>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| UsageError::new("--top", format!("'{}' is not a number above 0", a.top)))?;
        let clouds: Vec<String> = a.cloud.iter().map(|c| c.to_lowercase()).collect();
        if let Some(c) = clouds.first() {
            if !cat.disks.iter().any(|d| &d.cloud == c) {
                return usage("--cloud", format!("'{c}' has no disks in the catalog; use azure, aws or gcp"))?;
            }
        }
        let t = Target {
            iops: iops.unwrap_or(0.0),
            mbps: mbps.unwrap_or(0.0),
            clouds,
            max_disks,
            size_gib: number("--size", &a.size)?,
        };
        let found = plan::plan(&cat, &t);
        if format == Format::Json {
            println!("{}", serde_json::to_string_pretty(&found.iter().take(top).collect::<Vec<_>>())?);
            return Ok(0);
        }
        println!(
            "{:>3}  {:<6} {:<20} {:>5} {:>8} {:<22} {:>9} {:>9}  binds (headroom)",
            "#", "cloud", "disk", "count", "GiB each", "VM", "IOPS", "MB/s"
        );
        for (i, c) in found.iter().take(top).enumerate() {
            let prov = c.provisioned_iops.map(|p| format!(" @{p:.0}")).unwrap_or_default();
            println!(
                "{:>3}  {:<6} {:<20} {:>5} {:>8.0} {:<22} {:>9.0} {:>9.1}  IOPS: {} ({:+.0} %), MB/s: {} ({:+.0} %)",
                i + 1,
                c.cloud,
                format!("{}{prov}", c.disk),
                c.count,
                c.disk_gib,
                c.vm.as_deref().unwrap_or("(no VM in catalog)"),
                c.iops,
                c.mbps,
                c.iops_by,
                c.iops_headroom_pct,
                c.mbps_by,
                c.mbps_headroom_pct
            );
        }
        if found.is_empty() {
            println!("no configuration in the catalog meets it with up to {max_disks} disks");
        } else if found.len() > top {
            println!("… {} more (--top N)", found.len() - top);
        }
        println!("\nMB/s = 10^6 B/s; published limits, fewest disks first. @N: provisioned IOPS per disk.");
        if latency.is_some() {
            println!(
                "note: --latency-ms: published limits say nothing of latency; measure a candidate with `iolens run`"
            );
        }
        Ok(0)
    };
    go().unwrap_or_else(|e| fail(&e))
}

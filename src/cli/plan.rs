//! `iolens plan` finds configurations that meet a target, or predicts what a named one gives and
//! which limit binds.

use super::explain::Judge;
use super::values;
use crate::analyze::catalog::Catalog;
use crate::analyze::plan::{self, FromStats, StatsPlan, Target};
use crate::error::{usage, UsageError};
use crate::report::Format;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct PlanArgs {
    /// IOPS the configuration must sustain
    #[arg(long, value_name = "N", value_parser = values::positive("--iops"))]
    pub iops: Option<f64>,
    /// MB/s (10^6 B/s) it must sustain
    #[arg(long, value_name = "N", value_parser = values::positive("--mbps"))]
    pub mbps: Option<f64>,
    /// Plan for the IOPS and MB/s between two snapshots of SQL Server's
    /// sys.dm_io_virtual_file_stats or PostgreSQL's pg_stat_io (docs/database-counters.md)
    #[arg(long, num_args = 2, value_names = ["BEFORE.csv", "AFTER.csv"])]
    pub from_stats: Vec<PathBuf>,
    /// With --from-stats: room above the observed rates, %
    #[arg(long, default_value = "20", value_name = "PCT", value_parser = values::percent_to("--headroom", 1000.0))]
    pub headroom: f64,
    /// Latency wanted, ms (published limits say nothing of latency: measure with `iolens run`)
    #[arg(long, value_name = "MS", value_parser = values::positive("--latency-ms"))]
    pub latency_ms: Option<f64>,
    /// Only this cloud: azure, aws or gcp
    #[arg(long, value_name = "CLOUD")]
    pub cloud: Option<String>,
    /// Price in this region (eastus, us-east-1, us-central1 …; each cloud's first region by
    /// default); more than one, comma-separated, for several clouds
    #[arg(long, value_name = "REGION")]
    pub region: Option<String>,
    /// Rank previous VM and disk generations (Azure v2–v4, AWS m5 …) among the current ones
    /// instead of after them
    #[arg(long)]
    pub all_generations: bool,
    /// Most disks to stripe
    #[arg(long, default_value = "8", value_name = "K", value_parser = values::whole("--max-disks", 1, 64))]
    pub max_disks: u32,
    /// Capacity needed in all, GiB
    #[arg(long, value_name = "GIB", value_parser = values::positive("--size"))]
    pub size: Option<f64>,
    /// Configurations to list
    #[arg(long, default_value = "10", value_name = "N", value_parser = values::count("--top"))]
    pub top: usize,
    /// text or json
    #[arg(long, default_value = "text", value_name = "FORMAT", value_parser = super::values::format)]
    pub format: Format,
    #[command(flatten)]
    pub judge: Judge,
}

/// A named configuration: its caps, which limit binds, and what it gives at each block size.
fn predict(a: &PlanArgs, format: Format) -> anyhow::Result<i32> {
    let (cat, cfg, _) = a.judge.read()?;
    let (p, disk) = plan::predict(&cat, &cfg)?;
    if format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&serde_json::to_value(&p)?)?);
        return Ok(0);
    }
    let what = [cfg.disk.as_ref().map(|d| format!("{} × {d}", cfg.count)), cfg.vm.as_ref().map(|v| format!("on {v}"))];
    print!(
        "{}",
        crate::report::plan::prediction(&crate::report::plan::Prediction {
            what: what.into_iter().flatten().collect::<Vec<_>>().join(" "),
            expected: &p.expected,
            unit_kib: p.unit_kib,
            sustained: &p.at_block_size,
            burst: p.at_block_size_burst.as_deref(),
            cached: cfg.cached,
            disk,
            on_demand_counted: cfg.on_demand_burst,
        })
    );
    Ok(0)
}

/// `--region`'s regions, each one some price of the catalog names.
fn regions(cat: &Catalog, given: Option<&str>) -> Result<Vec<String>, UsageError> {
    let known = cat.regions();
    let mut out = Vec::new();
    for r in given.into_iter().flat_map(|g| g.split(',')).map(str::trim).filter(|r| !r.is_empty()) {
        if !known.iter().any(|(_, k)| k.eq_ignore_ascii_case(r)) {
            let list: Vec<String> = known.iter().map(|(c, k)| format!("{c} {k}")).collect();
            return usage(
                "--region",
                format!("no prices for '{r}' in the catalog; regions with prices: {}", list.join(", ")),
            );
        }
        out.push(r.to_lowercase());
    }
    Ok(out)
}

fn from_stats(a: &PlanArgs) -> Result<Option<FromStats>, UsageError> {
    if a.from_stats.is_empty() {
        return Ok(None);
    }
    if a.iops.is_some() || a.mbps.is_some() {
        return usage("--from-stats", "gives the IOPS and MB/s itself; leave out --iops and --mbps");
    }
    let headroom_pct = a.headroom;
    let observed = crate::frontends::counters::from_files(&a.from_stats[0], &a.from_stats[1])?;
    Ok(Some(FromStats::new(observed, headroom_pct)))
}

pub fn main(a: PlanArgs) -> anyhow::Result<i32> {
    let format = a.format;
    let stats = from_stats(&a)?;
    let (iops, mbps) = match &stats {
        Some(s) => (Some(s.target.iops), Some(s.target.mbps)),
        None => (a.iops, a.mbps),
    };
    let latency = a.latency_ms;
    if iops.is_none() && mbps.is_none() {
        return predict(&a, format);
    }
    let (cat, _, _) = a.judge.read()?;
    let (max_disks, top) = (a.max_disks, a.top);
    let clouds: Vec<String> = a.cloud.iter().map(|c| c.to_lowercase()).collect();
    if let Some(c) = clouds.first() {
        if !cat.disks.iter().any(|d| &d.cloud == c) {
            return usage("--cloud", format!("'{c}' has no disks in the catalog; use azure, aws or gcp"))?;
        }
    }
    let cat = cat.priced_in(&regions(&cat, a.region.as_deref())?);
    let t = Target {
        iops: iops.unwrap_or(0.0),
        mbps: mbps.unwrap_or(0.0),
        clouds,
        max_disks,
        size_gib: a.size,
        generations_together: a.all_generations,
    };
    let found = plan::plan(&cat, &t);
    if format == Format::Json {
        let shown: Vec<_> = found.iter().take(top).collect();
        // Through a JSON value, whose keys are in order, as every JSON iolens prints.
        let v = match &stats {
            Some(s) => serde_json::to_value(StatsPlan { stats: s, candidates: &found[..top.min(found.len())] })?,
            None => serde_json::to_value(&shown)?,
        };
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    if let Some(s) = &stats {
        print!("{}", crate::report::plan::observed(s));
    }
    print!("{}", crate::report::plan::candidates(&found, top, max_disks, latency.is_some(), &cat));
    for why in plan::no_vm_carries(&cat, &t, &found) {
        println!("note: {why}");
    }
    Ok(0)
}

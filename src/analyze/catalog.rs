//! The catalog of published cloud limits (data/catalog.toml, compiled in), plus any file the
//! user adds with `--catalog`. Throughput is held in MB/s (10^6 B/s) whatever unit a row uses.

use crate::error::UsageError;
use serde::{Deserialize, Serialize};
use std::path::Path;

const BUILT_IN: &str = include_str!("../../data/catalog.toml");
const MIB: f64 = 1.048576;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Disk {
    pub cloud: String,
    pub kind: String,
    pub name: String,
    #[serde(default, skip_serializing)]
    pub unit: Option<String>,
    pub size_gib: Option<f64>,
    pub iops: Option<f64>,
    pub mbps: Option<f64>,
    pub burst_iops: Option<f64>,
    pub burst_mbps: Option<f64>,
    pub burst: Option<String>,
    pub min_gib: Option<f64>,
    pub max_gib: Option<f64>,
    #[serde(default)]
    pub provisioned: bool,
    pub base_iops: Option<f64>,
    pub min_iops: Option<f64>,
    pub iops_per_gib: Option<f64>,
    pub max_iops: Option<f64>,
    pub base_mbps: Option<f64>,
    pub mbps_per_gib: Option<f64>,
    pub mbps_per_iops: Option<f64>,
    pub max_mbps: Option<f64>,
    pub step_gib: Option<f64>,
    pub step_mbps: Option<f64>,
    pub io_unit_kib: Option<u32>,
    pub source: String,
    pub note: Option<String>,
    /// List price of one disk a month (fixed tiers).
    pub price_month: Option<f64>,
    /// Formula types: per GiB-month, per provisioned IOPS-month above `base_iops`, per
    /// provisioned MB/s-month above `base_mbps` (in the row's unit until converted).
    pub price_gib_month: Option<f64>,
    pub price_iops_month: Option<f64>,
    pub price_mbps_month: Option<f64>,
    /// Where the price holds and where it was read: currency, region, an id in `sources`.
    pub currency: Option<String>,
    pub region: Option<String>,
    pub price_source: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vm {
    pub cloud: String,
    pub name: String,
    #[serde(default, skip_serializing)]
    pub unit: Option<String>,
    pub max_disks: Option<u32>,
    pub cached_iops: Option<f64>,
    pub cached_mbps: Option<f64>,
    pub cache_gib: Option<f64>,
    pub uncached_iops: Option<f64>,
    pub uncached_mbps: Option<f64>,
    pub burst_iops: Option<f64>,
    pub burst_mbps: Option<f64>,
    /// How the VM bursts: "credit, 30 min" (Azure VM-level bursting), "30 min a day" (AWS).
    pub burst: Option<String>,
    /// GCP: the machine family, vCPU band and disk type the caps apply to.
    pub family: Option<String>,
    pub vcpus_min: Option<u32>,
    pub vcpus_max: Option<u32>,
    pub disk: Option<String>,
    pub source: String,
    /// List price an hour, on demand (pay-as-you-go), Linux.
    pub price_hour: Option<f64>,
    pub currency: Option<String>,
    pub region: Option<String>,
    pub price_source: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Source {
    pub id: String,
    #[serde(rename = "ref")]
    pub reference: String,
    /// Where a price was read, and on what day (prices change; limits rarely do).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Catalog {
    #[serde(default)]
    pub disks: Vec<Disk>,
    #[serde(default)]
    pub vms: Vec<Vm>,
    #[serde(default)]
    pub sources: Vec<Source>,
    /// A user's prices for rows of the catalog (`--catalog FILE`), replacing theirs.
    #[serde(default, skip_serializing)]
    pub prices: Vec<PriceOverride>,
}

/// A price for the disk or VM row `name` of `cloud`, as `--catalog FILE` gives it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceOverride {
    pub cloud: String,
    pub name: String,
    pub price_month: Option<f64>,
    pub price_hour: Option<f64>,
    pub price_gib_month: Option<f64>,
    pub price_iops_month: Option<f64>,
    pub price_mbps_month: Option<f64>,
    pub currency: String,
    pub region: Option<String>,
    pub price_source: String,
}

/// Caps of one disk as configured: IOPS and MB/s, and the I/O size counted as one I/O.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Caps {
    pub iops: f64,
    pub mbps: f64,
}

impl Disk {
    fn figures(&self) -> [(&'static str, Option<f64>); 21] {
        [
            ("size_gib", self.size_gib),
            ("iops", self.iops),
            ("mbps", self.mbps),
            ("burst_iops", self.burst_iops),
            ("burst_mbps", self.burst_mbps),
            ("min_gib", self.min_gib),
            ("max_gib", self.max_gib),
            ("base_iops", self.base_iops),
            ("min_iops", self.min_iops),
            ("iops_per_gib", self.iops_per_gib),
            ("max_iops", self.max_iops),
            ("base_mbps", self.base_mbps),
            ("mbps_per_gib", self.mbps_per_gib),
            ("mbps_per_iops", self.mbps_per_iops),
            ("max_mbps", self.max_mbps),
            ("step_gib", self.step_gib),
            ("step_mbps", self.step_mbps),
            ("price_month", self.price_month),
            ("price_gib_month", self.price_gib_month),
            ("price_iops_month", self.price_iops_month),
            ("price_mbps_month", self.price_mbps_month),
        ]
    }

    pub fn is_formula(&self) -> bool {
        self.iops.is_none()
    }

    /// The disk's caps at `gib` (formula types; fixed tiers ignore it) with `want_iops`
    /// provisioned (provisioned types; None: the free baseline).
    pub fn caps(&self, gib: f64, want_iops: Option<f64>) -> Caps {
        if let Some(iops) = self.iops {
            // A tier published without a MB/s limit (legacy unmanaged disks) has none to hit.
            return Caps { iops, mbps: self.mbps.unwrap_or(f64::INFINITY) };
        }
        let max_iops = self.max_iops.unwrap_or(f64::INFINITY);
        let iops = if self.provisioned {
            let allowed =
                self.iops_per_gib.map_or(max_iops, |r| (r * gib).max(self.min_iops.unwrap_or(0.0))).min(max_iops);
            want_iops.unwrap_or(self.base_iops.unwrap_or(0.0)).max(self.min_iops.unwrap_or(0.0)).min(allowed)
        } else {
            (self.base_iops.unwrap_or(0.0) + self.iops_per_gib.unwrap_or(0.0) * gib)
                .max(self.min_iops.unwrap_or(0.0))
                .min(max_iops)
        };
        let mut mbps = self.base_mbps.unwrap_or(0.0) + self.mbps_per_gib.unwrap_or(0.0) * gib;
        if let (Some(step), Some(m)) = (self.step_gib, self.step_mbps) {
            if gib >= step {
                mbps = m;
            }
        }
        // Provisioning IOPS also lets throughput be provisioned up to its ratio to IOPS.
        if let (true, Some(per), Some(_)) = (self.provisioned, self.mbps_per_iops, want_iops) {
            mbps = mbps.max(per * iops);
        }
        Caps { iops, mbps: mbps.min(self.max_mbps.unwrap_or(f64::INFINITY)) }
    }

    /// The most IOPS this type can be configured for at `gib`.
    pub fn max_iops_at(&self, gib: f64) -> f64 {
        if self.provisioned {
            self.caps(gib, Some(f64::INFINITY)).iops
        } else {
            self.caps(gib, None).iops
        }
    }
}

impl Vm {
    fn figures(&self) -> [(&'static str, Option<f64>); 8] {
        [
            ("cached_iops", self.cached_iops),
            ("cached_mbps", self.cached_mbps),
            ("cache_gib", self.cache_gib),
            ("uncached_iops", self.uncached_iops),
            ("uncached_mbps", self.uncached_mbps),
            ("burst_iops", self.burst_iops),
            ("burst_mbps", self.burst_mbps),
            ("price_hour", self.price_hour),
        ]
    }

    /// The caps disks of this VM share: uncached, or the host cache's when `cached`.
    pub fn caps(&self, cached: bool) -> Option<Caps> {
        let (i, m) =
            if cached { (self.cached_iops, self.cached_mbps) } else { (self.uncached_iops, self.uncached_mbps) };
        Some(Caps { iops: i?, mbps: m? })
    }
}

fn convert(c: &mut Catalog) {
    for d in &mut c.disks {
        if d.unit.as_deref() == Some("MiB/s") {
            for f in [
                &mut d.mbps,
                &mut d.burst_mbps,
                &mut d.base_mbps,
                &mut d.mbps_per_gib,
                &mut d.mbps_per_iops,
                &mut d.max_mbps,
                &mut d.step_mbps,
            ] {
                *f = f.map(|v| v * MIB);
            }
            // A price per MiB/s is a smaller price per MB/s.
            d.price_mbps_month = d.price_mbps_month.map(|p| p / MIB);
        }
    }
    for v in &mut c.vms {
        if v.unit.as_deref() == Some("MiB/s") {
            for f in [&mut v.cached_mbps, &mut v.uncached_mbps, &mut v.burst_mbps] {
                *f = f.map(|x| x * MIB);
            }
        }
    }
}

/// A catalog's TOML text (`what` names it in errors), its throughput converted to MB/s.
pub fn parse(text: &str, what: &str) -> Result<Catalog, UsageError> {
    let mut c: Catalog = toml::from_str(text).map_err(|e| {
        let first = e.to_string().lines().next().unwrap_or("").to_string();
        UsageError::new(what, format!("is not a catalog: {first}"))
    })?;
    for u in c.disks.iter().filter_map(|d| d.unit.as_deref()).chain(c.vms.iter().filter_map(|v| v.unit.as_deref())) {
        if u != "MB/s" && u != "MiB/s" {
            return Err(UsageError::new(what, format!("unit '{u}' is not MB/s or MiB/s")));
        }
    }
    for d in &c.disks {
        figures_ok(&d.name, &d.figures()).map_err(|m| UsageError::new(what, m))?;
    }
    for v in &c.vms {
        figures_ok(&v.name, &v.figures()).map_err(|m| UsageError::new(what, m))?;
    }
    check_prices(&c).map_err(|m| UsageError::new(what, m))?;
    convert(&mut c);
    Ok(c)
}

/// A limit that is NaN, infinite or negative would make every plan and match built on it
/// meaningless (NaN compares false both ways), so the row is refused by name.
fn figures_ok(row: &str, figures: &[(&str, Option<f64>)]) -> Result<(), String> {
    match figures.iter().find_map(|&(k, v)| v.filter(|x| !x.is_finite() || *x < 0.0).map(|x| (k, x))) {
        Some((k, x)) => Err(format!("row '{row}': {k} = {x} is not a limit (a finite figure, 0 or more)")),
        None => Ok(()),
    }
}

fn disk_priced(d: &Disk) -> bool {
    [d.price_month, d.price_gib_month, d.price_iops_month, d.price_mbps_month].iter().any(Option::is_some)
}

/// Every priced row names its currency and a source the file lists.
fn check_prices(c: &Catalog) -> Result<(), String> {
    let rows = c
        .disks
        .iter()
        .map(|d| (&d.name, disk_priced(d), &d.currency, &d.price_source))
        .chain(c.vms.iter().map(|v| (&v.name, v.price_hour.is_some(), &v.currency, &v.price_source)));
    for (name, priced, currency, source) in rows {
        if !priced {
            continue;
        }
        let Some(src) = source else {
            return Err(format!("row '{name}': a price needs price_source, the id of the source it was read from"));
        };
        if currency.is_none() {
            return Err(format!("row '{name}': a price needs its currency (USD, EUR, …)"));
        }
        if !c.sources.iter().any(|s| &s.id == src) {
            return Err(format!("row '{name}': price_source '{src}' is not in sources"));
        }
    }
    Ok(())
}

/// A user's prices (`prices` in a `--catalog` file) in place of the rows' own.
fn apply_prices(c: &mut Catalog, prices: &[PriceOverride]) -> Result<(), String> {
    for p in prices {
        let figures = [p.price_month, p.price_hour, p.price_gib_month, p.price_iops_month, p.price_mbps_month];
        if let Some(x) = figures.iter().flatten().find(|x| !x.is_finite() || **x < 0.0) {
            return Err(format!("price of '{}': {x} is not a price (a finite figure, 0 or more)", p.name));
        }
        let is = |cloud: &str, name: &str| cloud.eq_ignore_ascii_case(&p.cloud) && name.eq_ignore_ascii_case(&p.name);
        if let Some(d) = c.disks.iter_mut().find(|d| is(&d.cloud, &d.name)) {
            d.price_month = p.price_month;
            d.price_gib_month = p.price_gib_month;
            d.price_iops_month = p.price_iops_month;
            d.price_mbps_month = p.price_mbps_month;
            d.currency = Some(p.currency.clone());
            d.region = p.region.clone();
            d.price_source = Some(p.price_source.clone());
        } else if let Some(v) = c.vms.iter_mut().find(|v| is(&v.cloud, &v.name)) {
            v.price_hour = p.price_hour;
            v.currency = Some(p.currency.clone());
            v.region = p.region.clone();
            v.price_source = Some(p.price_source.clone());
        } else {
            return Err(format!("prices: '{}' is not a disk or VM of {} in the catalog", p.name, p.cloud));
        }
    }
    Ok(())
}

impl Catalog {
    /// The built-in catalog, with the rows of `extra` after it and its prices in place of the
    /// built-in ones.
    pub fn load(extra: Option<&Path>) -> Result<Catalog, UsageError> {
        let mut c = parse(BUILT_IN, "data/catalog.toml").expect("the built-in catalog parses");
        if let Some(p) = extra {
            let shown = format!("--catalog {}", p.display());
            let text = crate::input::read_text(p, "--catalog", crate::input::TEXT_LIMIT)?;
            let more = parse(&text, &shown)?;
            c.disks.extend(more.disks);
            c.vms.extend(more.vms);
            c.sources.extend(more.sources);
            apply_prices(&mut c, &more.prices).map_err(|m| UsageError::new(&shown, m))?;
        }
        Ok(c)
    }

    pub fn disk(&self, name: &str) -> Option<&Disk> {
        self.disks.iter().find(|d| d.name.eq_ignore_ascii_case(name))
    }

    /// A VM by name; GCP machine types ("n2-standard-4") find their family's vCPU band for
    /// the disk type `disk`.
    pub fn vm(&self, name: &str, disk: Option<&str>) -> Option<&Vm> {
        let name = name.strip_prefix("Standard_").unwrap_or(name);
        if let Some(v) = self.vms.iter().find(|v| v.name.eq_ignore_ascii_case(name)) {
            return Some(v);
        }
        let mut parts = name.split('-');
        let family = parts.next()?.to_lowercase();
        let vcpus: u32 = parts.next_back()?.parse().ok()?;
        self.vms.iter().find(|v| {
            v.family.as_deref() == Some(family.as_str())
                && v.vcpus_min.is_some_and(|lo| vcpus >= lo)
                && v.vcpus_max.is_some_and(|hi| vcpus <= hi)
                && disk.is_none_or(|d| v.disk.as_deref().is_none_or(|x| x.eq_ignore_ascii_case(d)))
        })
    }
}

#[cfg(test)]
mod tests;

//! The catalog of published cloud limits (data/catalog.toml, compiled in), then the user's own
//! catalog beside the result store (what `catalog import` keeps), then any file given with
//! `--catalog`; a later row replaces an earlier one of the same cloud and name. Throughput is
//! held in MB/s (10^6 B/s) whatever unit a row uses.

mod check;
pub mod import;
mod prices;
mod vm;

pub use check::{parse, parse_with, rows_ok};
pub use prices::default_region;
pub use vm::VmCaps;

use crate::error::UsageError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The user's own catalog: beside the result store, so one `IOLENS_STORE` keeps both.
pub fn user_path() -> PathBuf {
    crate::store::default_path().with_file_name("catalog.toml")
}

/// The user's own catalog as it stands (empty when there is none yet).
pub fn read_user(path: &Path) -> Result<Catalog, UsageError> {
    if !path.exists() {
        return Ok(Catalog::default());
    }
    let shown = path.display().to_string();
    let text = crate::input::read_text(path, &shown, crate::input::TEXT_LIMIT)?;
    parse_with(&text, &shown, &Catalog::built_in().sources)
}

/// Keeps `user` at `path`, whole or not at all: written beside it, read back as a catalog,
/// then renamed over it.
pub fn save_user(path: &Path, user: &Catalog) -> anyhow::Result<()> {
    let text = user_text(user)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// The user's catalog as the file keeps it, checked to read back as the same kind of catalog.
pub fn user_text(user: &Catalog) -> anyhow::Result<String> {
    let text = format!(
        "# Your iolens catalog: rows and prices `iolens catalog import` read from the clouds' exports.\n\
         # Rows here replace the built-in rows of the same cloud and name; MB/s = 10^6 B/s.\n\n{}",
        toml::to_string(user)?
    );
    parse_with(&text, "your catalog", &Catalog::built_in().sources)
        .map_err(|e| anyhow::anyhow!("the catalog to keep does not read back: {e}"))?;
    Ok(text)
}

/// The day a file was last written (UTC), as a source's `read` date: when it was exported.
pub fn file_day(path: &Path) -> String {
    let t = std::fs::metadata(path).and_then(|m| m.modified()).unwrap_or_else(|_| std::time::SystemTime::now());
    humantime::format_rfc3339_seconds(t).to_string()[..10].to_string()
}

const BUILT_IN: &str = include_str!("../../../data/catalog.toml");
pub(crate) const MIB: f64 = 1.048576;

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
    /// Minutes a full credit bucket lasts at the burst rate (Azure: 30).
    pub burst_bucket_min: Option<f64>,
    /// A previous generation: planned after the current ones.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub previous: bool,
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
    /// The size family as its vendor names it: "Dsv5", "m7i".
    pub series: Option<String>,
    pub vcpus: Option<u32>,
    pub memory_gib: Option<f64>,
    /// A previous generation (Azure v3, AWS m5 …): planned after the current ones.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub previous: bool,
    pub max_disks: Option<u32>,
    pub cached_iops: Option<f64>,
    pub cached_mbps: Option<f64>,
    pub cache_gib: Option<f64>,
    pub uncached_iops: Option<f64>,
    pub uncached_mbps: Option<f64>,
    pub burst_iops: Option<f64>,
    pub burst_mbps: Option<f64>,
    /// How the VM bursts: "credit" (Azure VM-level bursting), "daily" (AWS: 30 minutes at
    /// least once a day).
    pub burst: Option<String>,
    /// Minutes a full credit bucket lasts at the burst rate (Azure: 30).
    pub burst_bucket_min: Option<f64>,
    /// Minutes a day at the burst rate (AWS: 30).
    pub burst_daily_min: Option<f64>,
    /// Caps published for some disk kinds or one controller only (Azure's higher cap for
    /// Premium SSD v2 and Ultra Disk, Ebsv5's NVMe; GCP's per disk type, read and write
    /// apart); a disk none names gets the row's `uncached_*`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub caps: Vec<VmCaps>,
    /// GCP: the machine family, vCPU band and disk type the caps apply to.
    pub family: Option<String>,
    pub vcpus_min: Option<u32>,
    pub vcpus_max: Option<u32>,
    pub disk: Option<String>,
    pub source: String,
    pub note: Option<String>,
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
    /// Prices of rows: with a region, that region's (beside the row's own); without, in place
    /// of the row's own (`--catalog FILE`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prices: Vec<PriceOverride>,
}

/// A price for the disk or VM row `name` of `cloud`: a catalog's `prices` entry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceOverride {
    pub cloud: String,
    pub name: String,
    pub price_month: Option<f64>,
    pub price_hour: Option<f64>,
    pub price_gib_month: Option<f64>,
    pub price_iops_month: Option<f64>,
    /// Per provisioned MB/s-month above the free baseline; per MiB/s with `unit = "MiB/s"`.
    pub price_mbps_month: Option<f64>,
    #[serde(default, skip_serializing)]
    pub unit: Option<String>,
    pub currency: String,
    pub region: Option<String>,
    pub price_source: String,
    /// The day the price took effect, as the price list says.
    pub effective: Option<String>,
    pub note: Option<String>,
}

/// Caps of one disk as configured: IOPS and MB/s, and the I/O size counted as one I/O.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Caps {
    pub iops: f64,
    pub mbps: f64,
}

impl Disk {
    pub(super) fn figures(&self) -> [(&'static str, Option<f64>); 22] {
        [
            ("burst_bucket_min", self.burst_bucket_min),
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
            // The free baseline is there at any size (Premium SSD v2's 3,000 IOPS on 1 GiB).
            let floor = self.min_iops.unwrap_or(0.0).max(self.base_iops.unwrap_or(0.0));
            let allowed = self.iops_per_gib.map_or(max_iops, |r| (r * gib).max(floor)).min(max_iops);
            want_iops.unwrap_or(floor).max(floor).min(allowed)
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

impl Catalog {
    /// The built-in catalog alone.
    pub fn built_in() -> Catalog {
        parse(BUILT_IN, "data/catalog.toml").expect("the built-in catalog parses")
    }

    /// The built-in catalog, then the user's own (`user`, what `catalog import` keeps; absent
    /// is empty), then `extra` (`--catalog FILE`): each one's rows replace the earlier rows of
    /// the same cloud and name, its prices go before theirs.
    pub fn load_with(user: Option<&Path>, extra: Option<&Path>) -> Result<Catalog, UsageError> {
        let mut c = Catalog::built_in();
        if let Some(p) = user.filter(|p| p.exists()) {
            let shown = format!("{} (your catalog; `iolens catalog import` keeps it)", p.display());
            let text = crate::input::read_text(p, &shown, crate::input::TEXT_LIMIT)?;
            let more = parse_with(&text, &shown, &c.sources)?;
            c.add(more, &shown)?;
        }
        if let Some(p) = extra {
            let shown = format!("--catalog {}", p.display());
            let text = crate::input::read_text(p, "--catalog", crate::input::TEXT_LIMIT)?;
            let more = parse_with(&text, &shown, &c.sources)?;
            c.add(more, &shown)?;
        }
        Ok(c)
    }

    /// The built-in catalog and the user's own beside the result store, then `extra`.
    pub fn load(extra: Option<&Path>) -> Result<Catalog, UsageError> {
        Catalog::load_with(Some(&user_path()), extra)
    }

    /// `more`'s rows in place of this catalog's rows of the same cloud and name, its sources
    /// beside these, its prices over these.
    pub fn add(&mut self, more: Catalog, what: &str) -> Result<(), UsageError> {
        let same = |a: (&str, &str), b: (&str, &str)| a.0.eq_ignore_ascii_case(b.0) && a.1.eq_ignore_ascii_case(b.1);
        for d in more.disks {
            match self.disks.iter_mut().find(|x| same((&x.cloud, &x.name), (&d.cloud, &d.name))) {
                Some(x) => *x = d,
                None => self.disks.push(d),
            }
        }
        for v in more.vms {
            match self.vms.iter_mut().find(|x| same((&x.cloud, &x.name), (&v.cloud, &v.name))) {
                Some(x) => *x = v,
                None => self.vms.push(v),
            }
        }
        for s in more.sources {
            self.sources.retain(|x| x.id != s.id);
            self.sources.push(s);
        }
        prices::apply(self, more.prices).map_err(|m| UsageError::new(what, m))
    }

    /// A row's `source` ("A41, A39") with the day its sources were read: "A41, A39 (read
    /// 2026-11-27)"; the latest day where they differ.
    pub fn cited(&self, source: &str) -> String {
        let ids = source.split([',', ' ']).filter(|x| !x.is_empty());
        let read = ids.filter_map(|id| self.sources.iter().find(|s| s.id == id)?.read.as_deref()).max();
        match read {
            Some(r) => format!("{source} (read {r})"),
            None => source.to_string(),
        }
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
            let names = |d: &str| {
                v.disk.as_deref().is_none_or(|x| x.eq_ignore_ascii_case(d))
                    && (v.caps.is_empty() || v.caps.iter().any(|e| e.disks.iter().any(|k| k.eq_ignore_ascii_case(d))))
            };
            v.family.as_deref() == Some(family.as_str())
                && v.vcpus_min.is_some_and(|lo| vcpus >= lo)
                && v.vcpus_max.is_none_or(|hi| vcpus <= hi)
                && disk.is_none_or(names)
        })
    }
}

#[cfg(test)]
mod tests;

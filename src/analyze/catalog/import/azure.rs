//! Azure's own machine-readable data: `az vm list-skus --output json` (each size's and disk
//! tier's `capabilities`) and the Retail Prices API's JSON pages (`Items`). Typed readers that
//! skip every field they do not use, so a whole region's SKU list is read without holding it
//! as a tree.

use super::{Imported, Price};
use crate::analyze::catalog::{Disk, Vm};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
pub(super) struct Sku {
    #[serde(rename = "resourceType")]
    resource_type: String,
    name: String,
    #[serde(default)]
    size: Option<String>,
    #[serde(default)]
    family: Option<String>,
    #[serde(default)]
    capabilities: Vec<Capability>,
}

#[derive(Deserialize)]
struct Capability {
    name: String,
    value: String,
}

impl Sku {
    fn cap(&self, name: &str) -> Option<f64> {
        self.capabilities.iter().find(|c| c.name == name).and_then(|c| c.value.trim().parse::<f64>().ok())
    }
}

/// The CLI prints a bare array; the REST API wraps the same objects in `value`.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum SkuList {
    Bare(Vec<Sku>),
    Wrapped { value: Vec<Sku> },
}

impl SkuList {
    pub(super) fn into_vec(self) -> Vec<Sku> {
        match self {
            SkuList::Bare(v) | SkuList::Wrapped { value: v } => v,
        }
    }
}

/// VM sizes and managed disk tiers of a SKU list. A size listed in several locations has the
/// same limits in each; the first is kept.
pub(super) fn skus(list: Vec<Sku>) -> Imported {
    let mut out = Imported::new("az vm list-skus");
    let mut seen = std::collections::HashSet::new();
    for s in list {
        if !seen.insert((s.resource_type.clone(), s.name.clone(), s.size.clone())) {
            continue;
        }
        // A size without Premium storage carries none of the disks plans are made of.
        let premium = s.capabilities.iter().any(|c| c.name == "PremiumIO" && c.value.eq_ignore_ascii_case("true"));
        match s.resource_type.as_str() {
            "virtualMachines" if premium => out.vms.push(vm(&s)),
            "disks" => out.disks.extend(disk(&s)),
            _ => {}
        }
    }
    out
}

fn vm(s: &Sku) -> Vm {
    let mb = |v: Option<f64>| v.map(|b| b / 1e6);
    Vm {
        cloud: "azure".into(),
        name: s.name.strip_prefix("Standard_").unwrap_or(&s.name).to_string(),
        series: s.family.as_deref().map(series),
        vcpus: s.cap("vCPUs").map(|v| v as u32),
        memory_gib: s.cap("MemoryGB"),
        max_disks: s.cap("MaxDataDiskCount").map(|v| v as u32),
        uncached_iops: s.cap("UncachedDiskIOPS"),
        uncached_mbps: mb(s.cap("UncachedDiskBytesPerSecond")),
        cached_iops: s.cap("CombinedTempDiskAndCachedIOPS"),
        cached_mbps: mb(s.cap("CombinedTempDiskAndCachedReadBytesPerSecond")),
        cache_gib: s.cap("CachedDiskBytes").map(|b| b / (1u64 << 30) as f64).filter(|g| *g > 0.0),
        previous: super::older_azure(&s.name),
        ..Vm::default()
    }
}

/// "standardDSv5Family" → "DSv5", as the size pages name the series.
fn series(family: &str) -> String {
    family.strip_prefix("standard").unwrap_or(family).strip_suffix("Family").unwrap_or(family).to_string()
}

/// A managed disk tier (`Premium_LRS` size `P30`): fixed tiers only, since the provisioned
/// types publish ranges here, not their rules.
fn disk(s: &Sku) -> Option<Disk> {
    let size = s.size.as_deref()?;
    let kind = match s.name.split('_').next()? {
        "Premium" => "Premium SSD",
        "StandardSSD" => "Standard SSD",
        "Standard" => "Standard HDD",
        _ => return None,
    };
    let (lo, hi) = (s.cap("MinIOps")?, s.cap("MaxIOps")?);
    // A fixed tier publishes one figure; a range is a provisioned type's, not a tier's.
    (lo == hi).then(|| Disk {
        cloud: "azure".into(),
        kind: kind.into(),
        name: size.into(),
        size_gib: s.cap("MaxSizeGiB"),
        iops: Some(hi),
        mbps: s.cap("MaxBandwidthMBps"),
        ..Disk::default()
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Item {
    currency_code: String,
    retail_price: f64,
    #[serde(default)]
    arm_region_name: String,
    #[serde(default)]
    arm_sku_name: String,
    #[serde(default)]
    meter_name: String,
    #[serde(default)]
    product_name: String,
    #[serde(default)]
    sku_name: String,
    #[serde(default)]
    service_name: String,
    #[serde(default)]
    unit_of_measure: String,
    #[serde(default, rename = "type")]
    kind: String,
    #[serde(default)]
    effective_start_date: String,
}

#[derive(Deserialize)]
pub(super) struct PricePage {
    #[serde(rename = "Items")]
    pub(super) items: Vec<Item>,
}

/// On-demand prices of VM sizes (Linux, pay as you go) and managed disks, per region.
pub(super) fn prices(items: Vec<Item>) -> Imported {
    let mut out = Imported::new("Azure Retail Prices API");
    // One price per (name, region, what): Premium SSD v2's three meters land on one row.
    let mut by: BTreeMap<(String, String), Price> = BTreeMap::new();
    // A meter's free tier (Premium SSD v2's first 3,000 IOPS) is priced 0: the catalog's
    // baseline says what is free, the price is the tier above it.
    for it in items.iter().filter(|i| i.kind == "Consumption" && i.retail_price > 0.0) {
        let Some((name, set)) = meter(it) else { continue };
        let p = by.entry((name.clone(), it.arm_region_name.clone())).or_insert_with(|| Price {
            cloud: "azure".into(),
            name,
            region: Some(it.arm_region_name.clone()),
            currency: it.currency_code.clone(),
            effective: Some(it.effective_start_date.get(..10).unwrap_or("").to_string()),
            ..Price::default()
        });
        set(p, it.retail_price);
    }
    out.prices = by.into_values().collect();
    out
}

type Setter = fn(&mut Price, f64);

/// What a meter prices, and which field of the row it sets (monthly figures: Azure bills a
/// month as 730 hours).
fn meter(i: &Item) -> Option<(String, Setter)> {
    let hourly = i.unit_of_measure == "1 Hour";
    if i.service_name == "Virtual Machines" {
        let plain =
            !i.product_name.contains("Windows") && !i.sku_name.contains("Spot") && !i.sku_name.contains("Low Priority");
        let name = i.arm_sku_name.strip_prefix("Standard_")?;
        return (plain && hourly).then(|| (name.to_string(), (|p: &mut Price, v| p.price_hour = Some(v)) as Setter));
    }
    if i.service_name != "Storage" {
        return None;
    }
    let m = i.meter_name.as_str();
    // Fixed tiers: "P30 LRS Disk", "E30 LRS Disk", "S30 LRS Disk", a month each.
    if let Some(tier) = m.strip_suffix(" LRS Disk") {
        let managed = i.product_name.ends_with("Managed Disks") && i.unit_of_measure == "1/Month";
        return managed.then(|| (tier.to_string(), (|p: &mut Price, v| p.price_month = Some(v)) as Setter));
    }
    let name = if i.product_name.contains("Premium SSD v2") {
        "PremiumV2_LRS"
    } else if i.product_name.contains("Ultra") {
        "UltraSSD_LRS"
    } else {
        return None;
    };
    let per_hour = |unit: &str| i.unit_of_measure == unit;
    let set: Setter = if m.ends_with("Provisioned Capacity") && per_hour("1 GiB/Hour") {
        |p, v| p.price_gib_month = Some(v * super::HOURS_MONTH)
    } else if m.ends_with("Provisioned IOPS") && per_hour("1/Hour") {
        |p, v| p.price_iops_month = Some(v * super::HOURS_MONTH)
    } else if m.ends_with("Provisioned Throughput (MBps)") && per_hour("1/Hour") {
        |p, v| p.price_mbps_month = Some(v * super::HOURS_MONTH)
    } else {
        return None;
    };
    m.contains("LRS").then(|| (name.to_string(), set))
}

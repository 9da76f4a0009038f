//! AWS's own machine-readable data: `aws ec2 describe-instance-types --output json` (each
//! instance's EBS-optimized baseline and maximum) and `aws pricing get-products` (the price
//! list's products with their on-demand terms, each a JSON string in `PriceList`).

use super::{Imported, Price};
use crate::analyze::catalog::Vm;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct InstanceTypes {
    pub(super) instance_types: Vec<InstanceType>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct InstanceType {
    instance_type: String,
    #[serde(default)]
    current_generation: Option<bool>,
    #[serde(default)]
    v_cpu_info: Option<VCpuInfo>,
    #[serde(default)]
    memory_info: Option<MemoryInfo>,
    #[serde(default)]
    ebs_info: Option<EbsInfo>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct VCpuInfo {
    default_v_cpus: u32,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct MemoryInfo {
    size_in_mi_b: f64,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct EbsInfo {
    #[serde(default)]
    ebs_optimized_info: Option<EbsOptimized>,
    #[serde(default)]
    maximum_ebs_attachments: Option<u32>,
}

/// Throughput in MB/s (10^6 B/s): the API's "InMBps" is its Mbps figure over 8.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct EbsOptimized {
    baseline_iops: f64,
    baseline_throughput_in_m_bps: f64,
    maximum_iops: f64,
    maximum_throughput_in_m_bps: f64,
}

/// Instance types with EBS limits: the baseline as the sustained cap, the maximum as a burst
/// the instance holds 30 minutes a day.
pub(super) fn instance_types(list: Vec<InstanceType>) -> Imported {
    let mut out = Imported::new("aws ec2 describe-instance-types");
    for t in list {
        let Some(ebs) = t.ebs_info.as_ref().and_then(|e| e.ebs_optimized_info.as_ref()) else { continue };
        let bursts =
            ebs.maximum_iops > ebs.baseline_iops || ebs.maximum_throughput_in_m_bps > ebs.baseline_throughput_in_m_bps;
        out.vms.push(Vm {
            cloud: "aws".into(),
            name: t.instance_type.clone(),
            series: t.instance_type.split('.').next().map(str::to_string),
            vcpus: t.v_cpu_info.as_ref().map(|v| v.default_v_cpus),
            memory_gib: t.memory_info.as_ref().map(|m| m.size_in_mi_b / 1024.0),
            max_disks: t.ebs_info.as_ref().and_then(|e| e.maximum_ebs_attachments),
            uncached_iops: Some(ebs.baseline_iops),
            uncached_mbps: Some(ebs.baseline_throughput_in_m_bps),
            burst_iops: bursts.then_some(ebs.maximum_iops),
            burst_mbps: bursts.then_some(ebs.maximum_throughput_in_m_bps),
            burst: bursts.then(|| "daily: 30 min at least once a day".to_string()),
            burst_daily_min: bursts.then_some(30.0),
            previous: t.current_generation == Some(false) || super::older_aws(&t.instance_type),
            ..Vm::default()
        });
    }
    out
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct Products {
    pub(super) price_list: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
pub(super) struct Product {
    product: ProductInfo,
    #[serde(default)]
    terms: Terms,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ProductInfo {
    #[serde(default)]
    product_family: String,
    #[serde(default)]
    attributes: HashMap<String, String>,
}

#[derive(Deserialize, Default)]
struct Terms {
    #[serde(default, rename = "OnDemand")]
    on_demand: HashMap<String, Term>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Term {
    price_dimensions: HashMap<String, Dimension>,
    #[serde(default)]
    effective_date: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Dimension {
    unit: String,
    price_per_unit: HashMap<String, String>,
    #[serde(default)]
    begin_range: String,
}

/// Each `PriceList` entry is a JSON document of its own, as a string (the CLI and the API)
/// or already an object (some tools re-save it so).
pub(super) fn product(v: serde_json::Value) -> Result<Product, String> {
    match v {
        serde_json::Value::String(s) => serde_json::from_str(&s).map_err(|e| e.to_string()),
        other => serde_json::from_value(other).map_err(|e| e.to_string()),
    }
}

/// On-demand Linux instance prices an hour, and EBS prices per GB-month, per provisioned
/// IOPS-month and per provisioned MiB/s-month, per region.
pub(super) fn prices(products: Vec<Product>) -> Imported {
    let mut out = Imported::new("aws pricing get-products");
    let mut by: BTreeMap<(String, String), Price> = BTreeMap::new();
    for p in &products {
        let attrs = &p.product.attributes;
        let a = |k: &str| attrs.get(k).map(String::as_str).unwrap_or("");
        let Some((name, set)) = what(&p.product.product_family, attrs) else { continue };
        // The first tier of a tiered price (io2's IOPS above 32,000 cost less) is what a
        // volume pays for its first IOPS; later tiers are left out.
        let Some((term, dim)) = p
            .terms
            .on_demand
            .values()
            .flat_map(|t| t.price_dimensions.values().map(move |d| (t, d)))
            .find(|(_, d)| d.begin_range.is_empty() || d.begin_range == "0")
        else {
            continue;
        };
        let Some((currency, price)) = dim.price_per_unit.iter().find_map(|(c, v)| Some((c.clone(), v.parse().ok()?)))
        else {
            continue;
        };
        if !unit_fits(&dim.unit, set) {
            continue;
        }
        // Records before 2019 name the region by its location only.
        let region = match a("regionCode") {
            "" => region_code(a("location")).unwrap_or(a("location")).to_string(),
            code => code.to_string(),
        };
        let e = by.entry((name.clone(), region.clone())).or_insert_with(|| Price {
            cloud: "aws".into(),
            name,
            region: Some(region),
            currency,
            effective: Some(term.effective_date.get(..10).unwrap_or("").to_string()),
            unit: Some("MiB/s".into()),
            ..Price::default()
        });
        apply(e, set, &dim.unit, price);
    }
    out.prices = by.into_values().collect();
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Field {
    Hour,
    Gib,
    Iops,
    Throughput,
}

fn what(family: &str, attrs: &HashMap<String, String>) -> Option<(String, Field)> {
    let a = |k: &str| attrs.get(k).map(String::as_str).unwrap_or("");
    match family {
        "Compute Instance" => {
            let plain = a("operatingSystem") == "Linux"
                && a("tenancy") == "Shared"
                && a("preInstalledSw") == "NA"
                && matches!(a("capacitystatus"), "" | "Used");
            (plain && !a("instanceType").is_empty()).then(|| (a("instanceType").to_string(), Field::Hour))
        }
        "Storage" => Some((volume(attrs), Field::Gib)),
        "System Operation" if a("group") == "EBS IOPS" => Some((volume(attrs), Field::Iops)),
        "Provisioned Throughput" => Some((volume(attrs), Field::Throughput)),
        _ => None,
    }
    .filter(|(n, _)| !n.is_empty())
}

/// The volume type a product prices: `volumeApiName`, or in older records the end of its usage
/// type ("APS1-EBS:VolumeUsage.piops" is io1's storage).
fn volume(attrs: &HashMap<String, String>) -> String {
    if let Some(v) = attrs.get("volumeApiName").filter(|v| !v.is_empty()) {
        return v.clone();
    }
    let usage = attrs.get("usagetype").map(String::as_str).unwrap_or("");
    match usage.rsplit('.').next().filter(|_| usage.contains("EBS:Volume")) {
        Some("piops") => "io1".into(),
        Some(t @ ("gp2" | "gp3" | "io2" | "st1" | "sc1")) => t.into(),
        _ => String::new(),
    }
}

/// A region's code from the name the price list gives its location.
fn region_code(location: &str) -> Option<&'static str> {
    const REGIONS: [(&str, &str); 20] = [
        ("US East (N. Virginia)", "us-east-1"),
        ("US East (Ohio)", "us-east-2"),
        ("US West (N. California)", "us-west-1"),
        ("US West (Oregon)", "us-west-2"),
        ("Canada (Central)", "ca-central-1"),
        ("EU (Ireland)", "eu-west-1"),
        ("EU (London)", "eu-west-2"),
        ("EU (Paris)", "eu-west-3"),
        ("EU (Frankfurt)", "eu-central-1"),
        ("EU (Stockholm)", "eu-north-1"),
        ("EU (Milan)", "eu-south-1"),
        ("Asia Pacific (Tokyo)", "ap-northeast-1"),
        ("Asia Pacific (Seoul)", "ap-northeast-2"),
        ("Asia Pacific (Osaka)", "ap-northeast-3"),
        ("Asia Pacific (Singapore)", "ap-southeast-1"),
        ("Asia Pacific (Sydney)", "ap-southeast-2"),
        ("Asia Pacific (Mumbai)", "ap-south-1"),
        ("Asia Pacific (Hong Kong)", "ap-east-1"),
        ("South America (Sao Paulo)", "sa-east-1"),
        ("Africa (Cape Town)", "af-south-1"),
    ];
    REGIONS.iter().find(|(name, _)| *name == location).map(|(_, code)| *code)
}

fn unit_fits(unit: &str, f: Field) -> bool {
    let u = unit.to_lowercase();
    match f {
        Field::Hour => u == "hrs",
        Field::Gib => u == "gb-mo",
        Field::Iops => u == "iops-mo",
        Field::Throughput => u == "gibps-mo" || u == "mibps-mo",
    }
}

fn apply(p: &mut Price, f: Field, unit: &str, v: f64) {
    match f {
        Field::Hour => p.price_hour = Some(v),
        Field::Gib => p.price_gib_month = Some(v),
        Field::Iops => p.price_iops_month = Some(v),
        // The price list bills gp3 throughput per GiB/s-month; a MiB/s-month is 1/1024 of it.
        Field::Throughput if unit.eq_ignore_ascii_case("gibps-mo") => p.price_mbps_month = Some(v / 1024.0),
        Field::Throughput => p.price_mbps_month = Some(v),
    }
}

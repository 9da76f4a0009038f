//! `iolens catalog import FILE…`: the clouds' own machine-readable data (and a CSV of one's
//! own), recognised by content, turned into catalog rows and prices, and merged over the
//! shipped rows with a line per figure that changed. Pure: the caller reads the files and
//! keeps the result.

mod aws;
mod azure;
mod csv_rows;

use super::{Catalog, Disk, PriceOverride, Source, Vm};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

pub use crate::analyze::price::HOURS_MONTH;

/// A price as an export gives it: the same fields a catalog's `prices` entry holds.
pub type Price = PriceOverride;

/// What one file held.
#[derive(Debug, Default)]
pub struct Imported {
    /// The format recognised ("az vm list-skus", …).
    pub format: &'static str,
    pub disks: Vec<Disk>,
    pub vms: Vec<Vm>,
    pub prices: Vec<Price>,
}

impl Imported {
    fn new(format: &'static str) -> Imported {
        Imported { format, ..Imported::default() }
    }
}

/// The formats `import` reads, as its error names them.
pub const EXPECTED: &str = "`az vm list-skus --output json`, the Azure Retail Prices API's JSON, `aws ec2 \
     describe-instance-types --output json`, `aws pricing get-products` JSON, or a CSV with a header of \
     row,cloud,name,… (docs/catalog.md)";

/// The rows and prices in `text`, by its content, each figure a limit or price; Err is what was
/// expected instead.
pub fn parse(text: &str) -> Result<Imported, String> {
    let got = read(text)?;
    let rows = Catalog { disks: got.disks, vms: got.vms, prices: got.prices, sources: Vec::new() };
    super::rows_ok(&rows)?;
    Ok(Imported { format: got.format, disks: rows.disks, vms: rows.vms, prices: rows.prices })
}

fn read(text: &str) -> Result<Imported, String> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if !t.starts_with(['{', '[']) {
        return csv_rows::parse(t).map_err(|e| format!("{e}; expected {EXPECTED}"));
    }
    let not_it = |what: &str, e: serde_json::Error| format!("looks like {what} but does not parse: {e}");
    if t.contains("\"resourceType\"") && t.contains("\"capabilities\"") {
        let list: azure::SkuList = serde_json::from_str(t).map_err(|e| not_it("`az vm list-skus` output", e))?;
        return Ok(azure::skus(list.into_vec()));
    }
    if t.contains("\"Items\"") && t.contains("\"retailPrice\"") {
        let page: azure::PricePage = serde_json::from_str(t).map_err(|e| not_it("an Azure Retail Prices page", e))?;
        return Ok(azure::prices(page.items));
    }
    if t.contains("\"InstanceTypes\"") {
        let list: aws::InstanceTypes =
            serde_json::from_str(t).map_err(|e| not_it("`aws ec2 describe-instance-types` output", e))?;
        return Ok(aws::instance_types(list.instance_types));
    }
    if t.contains("\"product\"") && t.contains("\"terms\"") && !t.contains("\"PriceList\"") {
        let one = serde_json::from_str(t).map_err(|e| not_it("an AWS price list product", e))?;
        return Ok(aws::prices(vec![aws::product(one)?]));
    }
    if t.contains("\"PriceList\"") {
        let list: aws::Products =
            serde_json::from_str(t).map_err(|e| not_it("`aws pricing get-products` output", e))?;
        let products = list
            .price_list
            .into_iter()
            .enumerate()
            .map(|(i, v)| aws::product(v).map_err(|e| format!("PriceList entry {i} is not a product: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(aws::prices(products));
    }
    Err(format!("is JSON of no known export; expected {EXPECTED}"))
}

/// What an import changes: the rows and prices to keep in the user's catalog, and one line per
/// changed, added or unchanged-count.
#[derive(Debug, Default)]
pub struct Merge {
    pub report: Vec<String>,
}

/// Merges `new` (read from a file, named in `source`) into `user`, the user's catalog, over
/// what `shipped` (built-in and user rows so far) holds: a row keeps every figure the export
/// does not give, and cites both sources.
pub fn merge(user: &mut Catalog, shipped: &Catalog, new: Imported, source: Source) -> Merge {
    let mut m = Merge::default();
    let id = source.id.clone();
    let (mut same, mut changed) = (0, 0);
    for d in new.disks {
        let base = shipped.disks.iter().find(|b| key(&b.cloud, &b.name) == key(&d.cloud, &d.name));
        let (row, diff) = overlay(base, &d, &id);
        tally(&mut m, &mut same, &mut changed, &format!("{} disk {}", d.cloud, d.name), base.is_some(), &diff);
        user.disks.retain(|u| key(&u.cloud, &u.name) != key(&row.cloud, &row.name));
        user.disks.push(row);
    }
    for v in new.vms {
        let base = shipped.vms.iter().find(|b| key(&b.cloud, &b.name) == key(&v.cloud, &v.name));
        let (row, diff) = overlay(base, &v, &id);
        tally(&mut m, &mut same, &mut changed, &format!("{} VM {}", v.cloud, v.name), base.is_some(), &diff);
        user.vms.retain(|u| key(&u.cloud, &u.name) != key(&row.cloud, &row.name));
        user.vms.push(row);
    }
    for mut p in new.prices {
        p.price_source = id.clone();
        let region = p.region.clone().unwrap_or_default();
        let before = shipped.price_of(&p.cloud, &p.name, &region);
        let line = format!("{} price {} {region}: {}", p.cloud, p.name, p.terms());
        match before {
            Some(b) if b.terms() == p.terms() => same += 1,
            Some(b) => {
                changed += 1;
                m.report.push(format!("{line} (was {})", b.terms()));
            }
            None => {
                changed += 1;
                m.report.push(format!("{line} (new)"));
            }
        }
        user.prices.retain(|u| (key(&u.cloud, &u.name), &u.region) != (key(&p.cloud, &p.name), &p.region));
        user.prices.push(p);
    }
    user.sources.retain(|s| s.id != id);
    user.sources.push(source);
    m.report.push(format!("{changed} rows or prices added or changed, {same} as before"));
    m
}

/// An Azure size of a generation before the fifth (D4s_v3, DS13): planned after the current ones.
fn older_azure(name: &str) -> bool {
    let v = name.rsplit_once("_v").and_then(|(_, v)| v.parse::<u32>().ok());
    v.is_none_or(|v| v < 5)
}

/// An AWS instance of a family before the sixth generation (m5.large, r5.xlarge).
fn older_aws(name: &str) -> bool {
    let family = name.split('.').next().unwrap_or("");
    let generation = family.chars().find(char::is_ascii_digit).and_then(|c| c.to_digit(10));
    generation.is_some_and(|g| g < 6)
}

fn key(cloud: &str, name: &str) -> (String, String) {
    (cloud.to_lowercase(), name.to_lowercase())
}

fn tally(m: &mut Merge, same: &mut u32, changed: &mut u32, what: &str, existed: bool, diff: &[String]) {
    if !existed {
        *changed += 1;
        m.report.push(format!("{what}: new"));
    } else if diff.is_empty() {
        *same += 1;
    } else {
        *changed += 1;
        m.report.push(format!("{what}: {}", diff.join(", ")));
    }
}

/// `new`'s figures over `base`'s, and each figure that changed ("uncached_iops 6400 → 6800").
fn overlay<T: Serialize + DeserializeOwned + Clone>(base: Option<&T>, new: &T, id: &str) -> (T, Vec<String>) {
    let as_map = |t: &T| match serde_json::to_value(t) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let (mut row, add) = (base.map(as_map).unwrap_or_default(), as_map(new));
    let mut diff = Vec::new();
    for (k, v) in add {
        if v.is_null() || k == "source" || (v.is_array() && v.as_array().is_some_and(Vec::is_empty)) {
            continue;
        }
        let old = row.get(&k).cloned().unwrap_or(Value::Null);
        if base.is_some() && !same_value(&old, &v) {
            diff.push(format!("{k} {} → {}", shown(&old), shown(&v)));
        }
        row.insert(k, v);
    }
    let cited = match row.get("source").and_then(Value::as_str).filter(|s| !s.is_empty()) {
        Some(s) if !s.split([',', ' ']).any(|x| x == id) => format!("{s}, {id}"),
        Some(s) => s.to_string(),
        None => id.to_string(),
    };
    row.insert("source".into(), Value::String(cited));
    let merged = serde_json::from_value(Value::Object(row)).unwrap_or_else(|_| new.clone());
    (merged, diff)
}

/// Figures within rounding, names in any case ("DSv3" as the API spells the series "Dsv3").
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => x.eq_ignore_ascii_case(y),
        _ => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(1.0),
            _ => a == b,
        },
    }
}

fn shown(v: &Value) -> String {
    match v {
        Value::Null => "-".into(),
        Value::String(s) => s.clone(),
        Value::Number(n) => n.as_f64().map_or(n.to_string(), |x| format!("{}", (x * 1000.0).round() / 1000.0)),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests;

//! A CSV of one's own (an on-premises SAN's LUNs, a hosting provider's plans): a header of
//! catalog field names, `row` first (`disk`, `vm` or `price`), then one row per line. Every
//! column must be a field of that kind of row, so a misspelt header is named, not ignored.

use super::{Imported, Price};
use crate::analyze::catalog::{Disk, Vm};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// Columns whose text stays text; every other non-empty cell is a number or true/false.
const TEXT: [&str; 14] = [
    "cloud",
    "kind",
    "name",
    "unit",
    "burst",
    "source",
    "note",
    "currency",
    "region",
    "price_source",
    "series",
    "family",
    "disk",
    "effective",
];

pub(super) fn parse(text: &str) -> Result<Imported, String> {
    let mut r = csv::ReaderBuilder::new().trim(csv::Trim::All).from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().map_err(|e| format!("is not CSV: {e}"))?.iter().map(str::to_string).collect();
    if header.first().map(String::as_str) != Some("row") || !header.iter().any(|h| h == "name") {
        return Err("is not a catalog CSV: its header must start with `row` and name a `name` column".into());
    }
    let mut out = Imported::new("CSV");
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| format!("line {line}: {e}"))?;
        let mut m = Map::new();
        for (h, cell) in header.iter().zip(rec.iter()).skip(1) {
            if !cell.is_empty() {
                m.insert(h.clone(), value(h, cell).map_err(|e| format!("line {line}, column {h}: {e}"))?);
            }
        }
        let kind = rec.get(0).unwrap_or("");
        match kind {
            "disk" => out.disks.push(typed::<Disk>(m, &[("kind", "own"), ("source", "")], line)?),
            "vm" => out.vms.push(typed::<Vm>(m, &[("source", "")], line)?),
            "price" => out.prices.push(typed::<Price>(m, &[("price_source", "")], line)?),
            other => return Err(format!("line {line}: row '{other}' is not disk, vm or price")),
        }
    }
    Ok(out)
}

fn value(column: &str, cell: &str) -> Result<Value, String> {
    if TEXT.contains(&column) {
        return Ok(Value::String(cell.to_string()));
    }
    match cell {
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        _ => {}
    }
    let x: f64 = cell.replace(',', "").parse().map_err(|_| format!("'{cell}' is not a number"))?;
    serde_json::Number::from_f64(x)
        .map(|n| {
            // Counts (max_disks, vcpus, io_unit_kib) are integers in the catalog.
            if x.fract() == 0.0 && (0.0..1e15).contains(&x) {
                Value::from(x as u64)
            } else {
                Value::Number(n)
            }
        })
        .ok_or_else(|| format!("'{cell}' is not a finite number"))
}

/// A row of kind `T`, with `defaults` for the text fields a CSV may leave out; a column that is
/// not a field of `T` is named.
fn typed<T: DeserializeOwned>(mut m: Map<String, Value>, defaults: &[(&str, &str)], line: usize) -> Result<T, String> {
    for (k, v) in defaults {
        m.entry(k.to_string()).or_insert(Value::String(v.to_string()));
    }
    serde_json::from_value(Value::Object(m)).map_err(|e| format!("line {line}: {e}"))
}

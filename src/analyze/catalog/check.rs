//! A catalog file checked and made uniform: every limit a finite figure, every price with its
//! currency and a listed source, throughput turned into MB/s (10^6 B/s).

use super::{Catalog, Disk, Source, MIB};
use crate::error::UsageError;

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
            for e in &mut v.caps {
                for f in [&mut e.mbps, &mut e.read_mbps, &mut e.write_mbps, &mut e.burst_mbps] {
                    *f = f.map(|x| x * MIB);
                }
            }
        }
    }
    for p in &mut c.prices {
        if p.unit.as_deref() == Some("MiB/s") {
            p.price_mbps_month = p.price_mbps_month.map(|x| x / MIB);
            p.unit = None;
        }
    }
}

/// A catalog's TOML text (`what` names it in errors), its throughput converted to MB/s.
pub fn parse(text: &str, what: &str) -> Result<Catalog, UsageError> {
    parse_with(text, what, &[])
}

/// As `parse`, a price's source found among the file's own or `known` (the built-in ones, which
/// a user's file may cite).
pub fn parse_with(text: &str, what: &str, known: &[Source]) -> Result<Catalog, UsageError> {
    let mut c: Catalog = toml::from_str(text).map_err(|e| {
        let first = e.to_string().lines().next().unwrap_or("").to_string();
        UsageError::new(what, format!("is not a catalog: {first}"))
    })?;
    rows_ok(&c).map_err(|m| UsageError::new(what, m))?;
    check_prices(&c, known).map_err(|m| UsageError::new(what, m))?;
    convert(&mut c);
    Ok(c)
}

/// Every row's units known and every figure a limit or price (finite, 0 or more).
pub fn rows_ok(c: &Catalog) -> Result<(), String> {
    for u in c.disks.iter().filter_map(|d| d.unit.as_deref()).chain(c.vms.iter().filter_map(|v| v.unit.as_deref())) {
        if u != "MB/s" && u != "MiB/s" {
            return Err(format!("unit '{u}' is not MB/s or MiB/s"));
        }
    }
    for d in &c.disks {
        figures_ok(&d.name, &d.figures())?;
    }
    for v in &c.vms {
        figures_ok(&v.name, &v.figures())?;
        for e in &v.caps {
            figures_ok(&v.name, &e.figures())?;
        }
    }
    for p in &c.prices {
        let figures = [
            ("price_month", p.price_month),
            ("price_hour", p.price_hour),
            ("price_gib_month", p.price_gib_month),
            ("price_iops_month", p.price_iops_month),
            ("price_mbps_month", p.price_mbps_month),
        ];
        figures_ok(&p.name, &figures)?;
    }
    Ok(())
}

/// A limit that is NaN, infinite or negative would make every plan and match built on it
/// meaningless (NaN compares false both ways), so the row is refused by name.
pub(super) fn figures_ok(row: &str, figures: &[(&str, Option<f64>)]) -> Result<(), String> {
    match figures.iter().find_map(|&(k, v)| v.filter(|x| !x.is_finite() || *x < 0.0).map(|x| (k, x))) {
        Some((k, x)) => Err(format!("row '{row}': {k} = {x} is not a limit (a finite figure, 0 or more)")),
        None => Ok(()),
    }
}

fn disk_priced(d: &Disk) -> bool {
    [d.price_month, d.price_gib_month, d.price_iops_month, d.price_mbps_month].iter().any(Option::is_some)
}

/// Every priced row names its currency and a source the file lists.
fn check_prices(c: &Catalog, known: &[Source]) -> Result<(), String> {
    let listed = |id: &str| c.sources.iter().chain(known).any(|s| s.id == id);
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
        if !listed(src) {
            return Err(format!("row '{name}': price_source '{src}' is not in sources"));
        }
    }
    for p in &c.prices {
        if !listed(&p.price_source) {
            return Err(format!("prices: '{}': price_source '{}' is not in sources", p.name, p.price_source));
        }
    }
    for u in c.prices.iter().filter_map(|p| p.unit.as_deref()) {
        if u != "MB/s" && u != "MiB/s" {
            return Err(format!("prices: unit '{u}' is not MB/s or MiB/s"));
        }
    }
    Ok(())
}

//! What a configuration costs a month at list prices: the catalog's price of each disk (a
//! tier's monthly price, or a formula type's per GiB, per provisioned IOPS and per provisioned
//! MB/s), and of the VM (an hourly on-demand price over the 730 hours AWS and Azure bill a
//! month by). A row's price must name the source it was read from; a row without one has no
//! price, and a configuration with an unpriced part says so instead of guessing.

use super::catalog::{Catalog, Disk, PriceOverride, Vm};

/// The hours of a month as AWS and Azure turn hourly prices into monthly ones.
pub const HOURS_MONTH: f64 = 730.0;

fn disk_priced(d: &Disk) -> bool {
    [d.price_month, d.price_gib_month, d.price_iops_month, d.price_mbps_month].iter().any(Option::is_some)
}

/// Every priced row names its currency and a source the file lists.
pub fn check(c: &Catalog) -> Result<(), String> {
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
pub fn apply(c: &mut Catalog, prices: &[PriceOverride]) -> Result<(), String> {
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

/// One disk's list price a month at `gib`, with `iops` provisioned and `mbps` (10^6 B/s) of
/// throughput provisioned (formula types); None when the row has no price.
pub fn disk_month(d: &Disk, gib: f64, iops: Option<f64>, mbps: f64) -> Option<f64> {
    d.price_source.as_ref()?;
    if let Some(p) = d.price_month {
        return Some(p);
    }
    let mut total = d.price_gib_month? * gib;
    if let Some(p) = d.price_iops_month {
        total += p * (iops? - d.base_iops.unwrap_or(0.0)).max(0.0);
    }
    if let Some(p) = d.price_mbps_month {
        total += p * (mbps - d.base_mbps.unwrap_or(0.0)).max(0.0);
    }
    Some(total)
}

/// A VM's list price a month, on demand; None when the row has no price.
pub fn vm_month(v: &Vm) -> Option<f64> {
    v.price_source.as_ref()?;
    v.price_hour.map(|h| h * HOURS_MONTH)
}

#[cfg(test)]
mod tests;

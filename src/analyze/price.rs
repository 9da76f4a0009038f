//! What a configuration costs a month at list prices: the catalog's price of each disk (a
//! tier's monthly price, or a formula type's per GiB, per provisioned IOPS and per provisioned
//! MB/s), and of the VM (an hourly on-demand price over the 730 hours AWS and Azure bill a
//! month by). A row's price must name the source it was read from; a row without one has no
//! price, and a configuration with an unpriced part says so instead of guessing.

use super::catalog::{Disk, Vm};

/// The hours of a month as AWS and Azure turn hourly prices into monthly ones.
pub const HOURS_MONTH: f64 = 730.0;

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

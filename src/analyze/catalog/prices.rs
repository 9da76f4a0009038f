//! Prices by region. A row may carry its own price (in the region it names); a catalog's
//! `prices` list gives rows prices in further regions (what `catalog import` reads from the
//! clouds' price lists). A plan prices every row in one region per cloud, and a row with no
//! price there has none: a price from another region is never passed off as this one's.

use super::{Catalog, PriceOverride};

/// The region a plan prices in when none is asked for: each cloud's first and largest.
pub fn default_region(cloud: &str) -> Option<&'static str> {
    match cloud.to_ascii_lowercase().as_str() {
        "azure" => Some("eastus"),
        "aws" => Some("us-east-1"),
        "gcp" => Some("us-central1"),
        _ => None,
    }
}

fn is(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// `prices` into `c`: one without a region replaces its row's own price; one with a region
/// goes before any earlier price of that row and region.
pub(super) fn apply(c: &mut Catalog, prices: Vec<PriceOverride>) -> Result<(), String> {
    for p in prices {
        let known = c.disks.iter().any(|d| is(&d.cloud, &p.cloud) && is(&d.name, &p.name))
            || c.vms.iter().any(|v| is(&v.cloud, &p.cloud) && is(&v.name, &p.name));
        if !known {
            return Err(format!("prices: '{}' is not a disk or VM of {} in the catalog", p.name, p.cloud));
        }
        if p.region.is_some() {
            c.prices.retain(|x| !(is(&x.cloud, &p.cloud) && is(&x.name, &p.name) && x.region == p.region));
            c.prices.push(p);
            continue;
        }
        if let Some(d) = c.disks.iter_mut().find(|d| is(&d.cloud, &p.cloud) && is(&d.name, &p.name)) {
            d.price_month = p.price_month;
            d.price_gib_month = p.price_gib_month;
            d.price_iops_month = p.price_iops_month;
            d.price_mbps_month = p.price_mbps_month;
            d.currency = Some(p.currency.clone());
            d.region = None;
            d.price_source = Some(p.price_source.clone());
        } else if let Some(v) = c.vms.iter_mut().find(|v| is(&v.cloud, &p.cloud) && is(&v.name, &p.name)) {
            v.price_hour = p.price_hour;
            v.currency = Some(p.currency.clone());
            v.region = None;
            v.price_source = Some(p.price_source.clone());
        }
    }
    Ok(())
}

impl PriceOverride {
    /// The price in words: "0.096 USD an hour", "0.08000 USD per GiB-month, 0.00500 USD per
    /// IOPS-month above the free baseline".
    pub fn terms(&self) -> String {
        let c = &self.currency;
        let parts = [
            self.price_hour.map(|v| format!("{v} {c} an hour")),
            self.price_month.map(|v| format!("{v} {c} a month")),
            self.price_gib_month.map(|v| format!("{v:.5} {c} per GiB-month")),
            self.price_iops_month.map(|v| format!("{v:.5} {c} per IOPS-month above the free baseline")),
            self.price_mbps_month.map(|v| format!("{v:.5} {c} per MB/s-month above the free baseline")),
        ];
        parts.into_iter().flatten().collect::<Vec<_>>().join(", ")
    }
}

impl Catalog {
    /// The latest price of a row in `region`.
    pub fn price_of(&self, cloud: &str, name: &str, region: &str) -> Option<&PriceOverride> {
        self.prices
            .iter()
            .rev()
            .find(|p| is(&p.cloud, cloud) && is(&p.name, name) && p.region.as_deref().is_some_and(|r| is(r, region)))
    }

    /// Every region some price names, per cloud, sorted.
    pub fn regions(&self) -> Vec<(String, String)> {
        let rows =
            self.disks.iter().map(|d| (&d.cloud, &d.region)).chain(self.vms.iter().map(|v| (&v.cloud, &v.region)));
        let mut out: Vec<(String, String)> = rows
            .filter_map(|(c, r)| Some((c.to_lowercase(), r.clone()?)))
            .chain(self.prices.iter().filter_map(|p| Some((p.cloud.to_lowercase(), p.region.clone()?))))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// This catalog with every row priced in its cloud's region: the one of `regions` that
    /// some price of that cloud names, else the cloud's default. A row keeps its own price
    /// where that is the region's (or names none and the cloud has no default), takes the
    /// region's entry from `prices` where there is one, keeps a price that names no region (a
    /// contract's), and has none otherwise.
    pub fn priced_in(&self, regions: &[String]) -> Catalog {
        let region_of = |cloud: &str| -> Option<String> {
            let known = self.regions();
            regions
                .iter()
                .find(|r| known.iter().any(|(c, k)| is(c, cloud) && is(k, r)))
                .cloned()
                .or_else(|| default_region(cloud).map(str::to_string))
        };
        let mut c = self.clone();
        for d in &mut c.disks {
            let Some(region) = region_of(&d.cloud) else { continue };
            if let Some(p) = self.price_of(&d.cloud, &d.name, &region) {
                (d.price_month, d.price_gib_month, d.price_iops_month, d.price_mbps_month) =
                    (p.price_month, p.price_gib_month, p.price_iops_month, p.price_mbps_month);
                (d.currency, d.price_source) = (Some(p.currency.clone()), Some(p.price_source.clone()));
            } else if d.region.is_none() && d.price_source.is_some() {
                // A price tied to no region (a contract's) holds in every one.
                continue;
            } else if !d.region.as_deref().is_some_and(|r| is(r, &region)) {
                (d.price_month, d.price_gib_month, d.price_iops_month, d.price_mbps_month) = (None, None, None, None);
                (d.currency, d.price_source) = (None, None);
            }
            d.region = Some(region);
        }
        for v in &mut c.vms {
            let Some(region) = region_of(&v.cloud) else { continue };
            if let Some(p) = self.price_of(&v.cloud, &v.name, &region) {
                v.price_hour = p.price_hour;
                (v.currency, v.price_source) = (Some(p.currency.clone()), Some(p.price_source.clone()));
            } else if v.region.is_none() && v.price_source.is_some() {
                continue;
            } else if !v.region.as_deref().is_some_and(|r| is(r, &region)) {
                (v.price_hour, v.currency, v.price_source) = (None, None, None);
            }
            v.region = Some(region);
        }
        c
    }
}

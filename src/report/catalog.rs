//! What `iolens catalog` prints: the catalog's rows, the caps VMs publish for some disks or one
//! controller, prices by region, and the sources they cite with the day each was read.

use crate::analyze::catalog::{Disk, PriceOverride, Source, Vm, VmCaps};
use std::fmt::Write;

pub fn opt(v: Option<f64>) -> String {
    v.map(|x| if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x:.1}") }).unwrap_or_else(|| "-".into())
}

/// The catalog rows chosen, then the prices by region, then the sources they cite.
pub fn catalog(disks: &[&Disk], vms: &[&Vm], prices: &[&PriceOverride], sources: &[Source]) -> String {
    let mut o = String::new();
    if !disks.is_empty() {
        disk_rows(&mut o, disks);
    }
    if !vms.is_empty() {
        vm_rows(&mut o, vms);
    }
    if !prices.is_empty() {
        let _ = writeln!(o, "\nPrices by region:");
        for p in prices {
            let region = p.region.as_deref().unwrap_or("-");
            let _ = writeln!(o, "  {} {} {region}: {} [price {}]", p.cloud, p.name, price_terms(p), p.price_source);
        }
    }
    if disks.is_empty() && vms.is_empty() {
        let _ = writeln!(o, "no rows match");
    }
    let _ = writeln!(o, "\nMB/s = 10^6 B/s (MiB/s rows converted). Sources:");
    let cited: Vec<&str> = disks
        .iter()
        .flat_map(|d| [Some(d.source.as_str()), d.price_source.as_deref()])
        .chain(vms.iter().flat_map(|v| [Some(v.source.as_str()), v.price_source.as_deref()]))
        .flatten()
        .chain(prices.iter().map(|p| p.price_source.as_str()))
        .collect();
    for s in sources.iter().filter(|s| cited.iter().any(|c| c.split([',', ' ']).any(|x| x == s.id))) {
        let read = s.read.as_deref().map(|r| format!(" (read {r})")).unwrap_or_default();
        let url = s.url.as_deref().map(|u| format!(" {u}")).unwrap_or_default();
        let _ = writeln!(o, "  {}: {}{url}{read}", s.id, s.reference);
    }
    o
}

/// The disk rows: fixed tiers with their figures, formula types with what their smallest size
/// gives and their maxima.
fn disk_rows(o: &mut String, disks: &[&Disk]) {
    let _ = writeln!(
        o,
        "{:<6} {:<22} {:<20} {:>8} {:>8} {:>8} {:>10} {:>10}  source",
        "cloud", "kind", "disk", "GiB", "IOPS", "MB/s", "burst IOPS", "burst MB/s"
    );
    for d in disks {
        let (gib, iops, mbps, extra) = if d.is_formula() {
            let c = d.caps(d.min_gib.unwrap_or(1.0), None);
            let prov = if d.provisioned { "provisioned" } else { "per GiB" };
            (
                format!("{}-{}", opt(d.min_gib), opt(d.max_gib)),
                Some(c.iops),
                Some(c.mbps),
                format!(" (formula, {prov}: up to {} IOPS, {} MB/s)", opt(d.max_iops), opt(d.max_mbps)),
            )
        } else {
            (opt(d.size_gib), d.iops, d.mbps, String::new())
        };
        let terms = d.burst.as_ref().map(|b| format!(" [burst: {b}]")).unwrap_or_default();
        let price = disk_price(d);
        let _ = writeln!(
            o,
            "{:<6} {:<22} {:<20} {:>8} {:>8} {:>8} {:>10} {:>10}  {}{extra}{terms}{price}",
            d.cloud,
            d.kind,
            d.name,
            gib,
            opt(iops),
            opt(mbps),
            opt(d.burst_iops),
            opt(d.burst_mbps),
            d.source
        );
    }
}

/// The VM rows, each followed by the caps it publishes for some disks or one controller.
fn vm_rows(o: &mut String, vms: &[&Vm]) {
    let _ = writeln!(
        o,
        "\n{:<6} {:<28} {:>5} {:>6} {:>13} {:>13} {:>13}  source",
        "cloud", "VM", "vCPU", "disks", "uncached", "cached", "burst"
    );
    let pair = |i: Option<f64>, m: Option<f64>| match (i, m) {
        (Some(i), Some(m)) => format!("{}/{}", opt(Some(i)), opt(Some(m))),
        _ => "-".into(),
    };
    for v in vms {
        let terms = v.burst.as_ref().map(|b| format!(" [burst: {b}]")).unwrap_or_default();
        let price = match (v.price_hour, &v.currency, &v.price_source) {
            (Some(h), Some(c), Some(src)) => {
                format!(" [{h} {c} an hour, {}, price {src}]", v.region.as_deref().unwrap_or("no region named"))
            }
            _ => String::new(),
        };
        let prev = if v.previous { " [previous generation]" } else { "" };
        let _ = writeln!(
            o,
            "{:<6} {:<28} {:>5} {:>6} {:>13} {:>13} {:>13}  {}{terms}{price}{prev}",
            v.cloud,
            v.name,
            v.vcpus.map_or("-".into(), |d| d.to_string()),
            v.max_disks.map_or("-".into(), |d| d.to_string()),
            pair(v.uncached_iops, v.uncached_mbps),
            pair(v.cached_iops, v.cached_mbps),
            pair(v.burst_iops, v.burst_mbps),
            v.source
        );
        for e in &v.caps {
            let _ = writeln!(o, "{:<6}   {}", "", vm_caps(e));
        }
    }
    let _ = writeln!(o, "(VM limits as IOPS/MB/s)");
}

/// A disk row's list price, as its source gives it: a tier's monthly price or a formula's terms.
fn disk_price(d: &Disk) -> String {
    let (Some(cur), Some(src)) = (&d.currency, &d.price_source) else { return String::new() };
    let region = d.region.as_deref().unwrap_or("no region named");
    let terms = match d.price_month {
        Some(p) => format!("{p} {cur} a month"),
        None => {
            let parts = [
                d.price_gib_month.map(|p| format!("{p} {cur} per GiB-month")),
                d.price_iops_month.map(|p| format!("{p} per IOPS-month above {}", opt(d.base_iops))),
                d.price_mbps_month.map(|p| format!("{p:.4} per MB/s-month above {}", opt(d.base_mbps))),
            ];
            parts.into_iter().flatten().collect::<Vec<_>>().join(", ")
        }
    };
    format!(" [{terms}, {region}, price {src}]")
}

/// A VM's cap for some disks or one controller: "Premium SSD v2/Ultra Disk on NVMe: 8333/248,
/// burst 52083/1463"; read and write apart where published.
fn vm_caps(e: &VmCaps) -> String {
    let on = match &e.controller {
        Some(c) => format!("{} on {c}", e.disks.join("/")),
        None => e.disks.join("/"),
    };
    let rw = |i: Option<f64>, m: Option<f64>| format!("{}/{}", opt(i), opt(m));
    let mut s = match (e.iops, e.mbps) {
        (None, None) => format!("reads {}, writes {}", rw(e.read_iops, e.read_mbps), rw(e.write_iops, e.write_mbps)),
        (i, m) => rw(i, m),
    };
    if e.burst_iops.is_some() || e.burst_mbps.is_some() {
        s.push_str(&format!(", burst {}", rw(e.burst_iops, e.burst_mbps)));
    }
    format!("{on}: {s}")
}

fn price_terms(p: &PriceOverride) -> String {
    let eff = p.effective.as_deref().map(|e| format!(" (from {e})")).unwrap_or_default();
    p.terms() + &eff
}

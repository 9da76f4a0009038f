//! What `iolens catalog` and `iolens plan` print: the catalog's rows with their sources, a named
//! configuration's sustained and burst limits per block size, and ranked configurations.

use crate::analyze::catalog::{Disk, Source, Vm};
use crate::analyze::plan::{AtSize, Candidate};
use crate::analyze::{burst::model_of, thousands as num};
use crate::result::analysis::{BurstModel, Expected};
use crate::workload::size::format_block;
use std::fmt::Write;

fn opt(v: Option<f64>) -> String {
    v.map(|x| if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x:.1}") }).unwrap_or_else(|| "-".into())
}

/// The catalog rows chosen, then the sources they cite.
pub fn catalog(disks: &[&Disk], vms: &[&Vm], sources: &[Source]) -> String {
    let mut o = String::new();
    if !disks.is_empty() {
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
    if !vms.is_empty() {
        let _ = writeln!(
            o,
            "\n{:<6} {:<28} {:>6} {:>13} {:>13} {:>13}  source",
            "cloud", "VM", "disks", "uncached", "cached", "burst"
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
            let _ = writeln!(
                o,
                "{:<6} {:<28} {:>6} {:>13} {:>13} {:>13}  {}{terms}{price}",
                v.cloud,
                v.name,
                v.max_disks.map_or("-".into(), |d| d.to_string()),
                pair(v.uncached_iops, v.uncached_mbps),
                pair(v.cached_iops, v.cached_mbps),
                pair(v.burst_iops, v.burst_mbps),
                v.source
            );
        }
        let _ = writeln!(o, "(VM limits as IOPS/MB/s)");
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
        .collect();
    for s in sources.iter().filter(|s| cited.iter().any(|c| c.split([',', ' ']).any(|x| x == s.id))) {
        let read = s.read.as_deref().map(|r| format!(" (read {r})")).unwrap_or_default();
        let url = s.url.as_deref().map(|u| format!(" {u}")).unwrap_or_default();
        let _ = writeln!(o, "  {}: {}{url}{read}", s.id, s.reference);
    }
    o
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

/// A named configuration (`what`: "3 × P30 on D2s_v4"): sustained and burst limits, which part
/// binds each, and what it gives per block size.
pub struct Prediction<'a> {
    pub what: String,
    pub expected: &'a Expected,
    /// The I/O size counted as one, KiB.
    pub unit_kib: Option<u32>,
    pub sustained: &'a [AtSize],
    pub burst: Option<&'a [AtSize]>,
    pub cached: bool,
    /// The disk row, to say when it could burst on demand but that is not counted.
    pub disk: Option<&'a Disk>,
    pub on_demand_counted: bool,
}

pub fn prediction(p: &Prediction) -> String {
    let x = p.expected;
    let mut o = String::new();
    let _ = writeln!(o, "{}", p.what);
    // The disks' own figure matters only where the VM's limit is lower.
    let vs = |d: Option<f64>, by: &str, unit: &str| {
        d.filter(|_| by.starts_with("VM")).map(|d| format!(" (the disks give {}{unit})", num(d))).unwrap_or_default()
    };
    let _ = writeln!(o, "  IOPS {} sustained: {} binds{}", num(x.iops), x.iops_by, vs(x.disks_iops, &x.iops_by, ""));
    match x.mbps {
        Some(m) => {
            let _ = writeln!(
                o,
                "  MB/s {} sustained: {} binds{}",
                num(m),
                x.mbps_by,
                vs(x.disks_mbps, &x.mbps_by, " MB/s")
            );
        }
        None => {
            let _ = writeln!(o, "  MB/s: no limit published");
        }
    }
    if let (Some(bi), Some(by)) = (x.burst_iops, &x.burst_iops_by) {
        let _ = writeln!(o, "  IOPS {} burst: {by} binds", num(bi));
        if let (Some(bm), Some(by)) = (x.burst_mbps, &x.burst_mbps_by) {
            let _ = writeln!(o, "  MB/s {} burst: {by} binds", num(bm));
        }
        for b in &x.bursts {
            let _ = writeln!(o, "  {}: {} [catalog: {}]", b.by, b.model.describe(), b.terms);
        }
    } else {
        let _ = writeln!(o, "  burst: none above the sustained figures");
    }
    if let Some(d) = p.disk.filter(|_| !p.on_demand_counted) {
        if d.burst.as_deref().map(model_of) == Some(BurstModel::OnDemand) {
            let _ = writeln!(
                o,
                "  {} can also burst on demand to {} IOPS / {} MB/s per disk (billed, enabled per disk; --on-demand-burst counts it)",
                d.name,
                num(d.burst_iops.unwrap_or(0.0)),
                num(d.burst_mbps.unwrap_or(0.0))
            );
        }
    }
    if let Some(u) = p.unit_kib {
        let _ = writeln!(o, "  I/O above {u} KiB counts as several, as the cloud counts it");
    }
    match p.burst {
        Some(b) => {
            let _ = writeln!(
                o,
                "\n  {:>6} {:>9} {:>9}  {:<6} {:>11} {:>11}  burst binds",
                "block", "IOPS", "MB/s", "binds", "burst IOPS", "burst MB/s"
            );
            for (s, b) in p.sustained.iter().zip(b) {
                let _ = writeln!(
                    o,
                    "  {:>6} {:>9.0} {:>9.1}  {:<6} {:>11.0} {:>11.1}  {}",
                    format_block(s.bs),
                    s.iops,
                    s.mbps,
                    s.binds,
                    b.iops,
                    b.mbps,
                    b.binds
                );
            }
        }
        None => {
            let _ = writeln!(o, "\n  {:>6} {:>9} {:>9}  binds", "block", "IOPS", "MB/s");
            for t in p.sustained {
                let _ = writeln!(o, "  {:>6} {:>9.0} {:>9.1}  {}", format_block(t.bs), t.iops, t.mbps, t.binds);
            }
        }
    }
    let _ = writeln!(
        o,
        "\nMB/s = 10^6 B/s; published limits ({}), not measurements.",
        if p.cached { "host cache on" } else { "host cache off" }
    );
    o
}

/// A configuration's price a month: the total, or the disks' part and "VM no price", or none.
fn price(c: &Candidate) -> String {
    let cur = c.currency.as_deref().unwrap_or("");
    match (c.price_month, c.disk_price_month) {
        (Some(p), _) => format!("{p:.2} {cur}"),
        (None, Some(d)) if c.vm.is_some() => format!("{:.2} {cur} + VM no price", d * c.count as f64),
        (None, Some(d)) => format!("{:.2} {cur} disks", d * c.count as f64),
        _ => "no price".into(),
    }
}

/// Ranked configurations meeting a target; `sources`: the catalog's, for where prices hold.
pub fn candidates(
    found: &[Candidate],
    top: usize,
    max_disks: u32,
    latency_asked: bool,
    cat: &crate::analyze::catalog::Catalog,
) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{:>3}  {:<6} {:<24} {:>5} {:>8} {:<22} {:>9} {:>9} {:>11}  {:<24} binds (headroom)",
        "#", "cloud", "disk", "count", "GiB each", "VM", "IOPS", "MB/s", "burst IOPS", "list price a month"
    );
    for (i, c) in found.iter().take(top).enumerate() {
        let prov = match (c.provisioned_iops, c.provisioned_mbps) {
            (Some(i), Some(m)) => format!(" @{i:.0}/{m:.0}"),
            (Some(i), None) => format!(" @{i:.0}"),
            _ => String::new(),
        };
        let _ = writeln!(
            o,
            "{:>3}  {:<6} {:<24} {:>5} {:>8.0} {:<22} {:>9.0} {:>9.1} {:>11}  {:<24} IOPS: {} ({:+.0} %), MB/s: {} ({:+.0} %)",
            i + 1,
            c.cloud,
            format!("{}{prov}", c.disk),
            c.count,
            c.disk_gib,
            c.vm.as_deref().unwrap_or("(no VM in catalog)"),
            c.iops,
            c.mbps,
            c.burst_iops.map_or("-".into(), |b| format!("{b:.0}")),
            price(c),
            c.iops_by,
            c.iops_headroom_pct,
            c.mbps_by,
            c.mbps_headroom_pct
        );
    }
    if found.is_empty() {
        let _ = writeln!(o, "no configuration in the catalog meets it with up to {max_disks} disks");
    } else if found.len() > top {
        let _ = writeln!(o, "… {} more (--top N)", found.len() - top);
    }
    let _ = writeln!(
        o,
        "\nMB/s = 10^6 B/s; published limits, met without bursting. @N: provisioned IOPS per disk; @N/M: and\n\
         MB/s per disk, where throughput is provisioned apart; the disks give, and are priced for, what is shown.\n\
         Cheapest first where every part has a list price (disks × count + VM on demand, 730 hours a month),\n\
         then by the disks' price where the VM has none, then fewest disks; \"no price\": no source gave one."
    );
    prices_used(&mut o, found.iter().take(top), cat);
    if latency_asked {
        let _ = writeln!(
            o,
            "note: --latency-ms: published limits say nothing of latency; measure a candidate with `iolens run`"
        );
    }
    o
}

/// Where and when the prices shown hold: each row's region and its source, with the day read.
fn prices_used<'a>(o: &mut String, shown: impl Iterator<Item = &'a Candidate>, cat: &crate::analyze::catalog::Catalog) {
    let mut rows: Vec<(String, String, String)> = Vec::new();
    for c in shown {
        let disk = cat.disks.iter().find(|d| d.cloud == c.cloud && d.name == c.disk);
        let vm = c.vm.as_ref().and_then(|v| cat.vms.iter().find(|x| x.cloud == c.cloud && &x.name == v));
        let found = [
            disk.and_then(|d| Some((d.name.clone(), d.region.clone()?, d.price_source.clone()?))),
            vm.and_then(|v| Some((v.name.clone(), v.region.clone()?, v.price_source.clone()?))),
        ];
        for r in found.into_iter().flatten() {
            if !rows.contains(&r) {
                rows.push(r);
            }
        }
    }
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(o, "Prices (list, on demand):");
    for (name, region, src) in rows {
        let s = cat.sources.iter().find(|s| s.id == src);
        let read = s.and_then(|s| s.read.as_deref()).map(|r| format!(", read {r}")).unwrap_or_default();
        let url = s.and_then(|s| s.url.as_deref()).unwrap_or("");
        let _ = writeln!(o, "  {name}: region {region}; {src} {url}{read}");
    }
}

//! What `iolens plan` prints: a named configuration's sustained and burst limits per block
//! size, and ranked configurations with the source of every figure.

use crate::analyze::catalog::Disk;
use crate::analyze::plan::{AtSize, Candidate, FromStats};
use crate::analyze::{burst::model_of, thousands as num};
use crate::result::analysis::{BurstModel, Expected};
use crate::workload::size::format_block;
use std::fmt::Write;

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
    if !x.sources.is_empty() {
        let _ = writeln!(o, "Catalog sources: {} (`iolens catalog` names each).", x.sources.join("; "));
    }
    o
}

/// A configuration's price a month: the total, or the disks' part and "VM no price", or none.
fn price(c: &Candidate) -> String {
    let cur = c.currency.as_deref().unwrap_or("");
    match (c.price_month, c.disk_price_month) {
        (Some(p), _) => format!("{p:.2} {cur}"),
        (None, Some(d)) if c.vm.is_some() => format!("{:.2} {cur} + VM no price", d * c.count as f64),
        (None, Some(d)) => format!("{:.2} {cur} disks", d * c.count as f64),
        _ => match &c.region {
            Some(r) => format!("no price in {r}"),
            None => "no price".into(),
        },
    }
}

/// The VM as a plan names it: its controller where that sets the caps, and a mark on a previous
/// generation.
fn vm_shown(c: &Candidate) -> String {
    let mut s = c.vm.clone().unwrap_or_else(|| "(no VM in catalog)".into());
    if let Some(ctl) = &c.controller {
        s.push_str(&format!(" {ctl}"));
    }
    if c.previous {
        s.push_str(" (prev)");
    }
    s
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
            vm_shown(c),
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
         then the rest, fewest disks first; \"no price in R\": no source prices a part in region R (`iolens\n\
         catalog import` reads the clouds' price lists). (prev): a previous generation, listed after the\n\
         current ones (--all-generations ranks them together)."
    );
    sources_used(&mut o, found.iter().take(top), cat);
    if latency_asked {
        let _ = writeln!(
            o,
            "note: --latency-ms: published limits say nothing of latency; measure a candidate with `iolens run`"
        );
    }
    o
}

/// Where every figure shown comes from: the sources of the disks' and VMs' limits and prices,
/// each with the day it was read, and the region the prices hold for.
fn sources_used<'a>(
    o: &mut String,
    shown: impl Iterator<Item = &'a Candidate>,
    cat: &crate::analyze::catalog::Catalog,
) {
    let mut ids: Vec<&str> = Vec::new();
    let mut regions: Vec<String> = Vec::new();
    for c in shown {
        for id in &c.sources {
            if !ids.contains(&id.as_str()) {
                ids.push(id);
            }
        }
        if let Some(r) = c.region.as_ref().filter(|_| c.disk_price_month.is_some() || c.vm_price_month.is_some()) {
            let r = format!("{} {r}", c.cloud);
            if !regions.contains(&r) {
                regions.push(r);
            }
        }
    }
    if !regions.is_empty() {
        let _ = writeln!(o, "Prices: list, on demand, in {}.", regions.join(", "));
    }
    if ids.is_empty() {
        return;
    }
    let _ = writeln!(o, "Sources of the figures shown:");
    for id in ids {
        let Some(s) = cat.sources.iter().find(|s| s.id == id) else { continue };
        let read = s.read.as_deref().map(|r| format!(" (read {r})")).unwrap_or_default();
        let url = s.url.as_deref().map(|u| format!(" {u}")).unwrap_or_default();
        let _ = writeln!(o, "  {id}: {}{url}{read}", s.reference);
    }
}

/// What the counters saw (`plan --from-stats`), per file, and the target planned for.
pub fn observed(f: &FromStats) -> String {
    let mut o = format!(
        "Observed: {:.1} IOPS, {:.2} MB/s over {:.0} s; planned with {:.0} % headroom for {:.1} IOPS, {:.2} MB/s\n",
        f.observed_iops,
        f.observed_mbps,
        f.observed.first().map_or(0.0, |x| x.seconds),
        f.headroom_pct,
        f.target.iops,
        f.target.mbps
    );
    for x in &f.observed {
        o.push_str(&format!(
            "  {}: {:.1} reads/s of {:.1} KiB, {:.1} writes/s of {:.1} KiB\n",
            x.name,
            x.reads_per_s(),
            x.read_size() / 1024.0,
            x.writes_per_s(),
            x.write_size() / 1024.0
        ));
    }
    o + "\n"
}

//! What a configuration gives while bursting. Credit bursting (Azure P20 and smaller, Standard
//! SSD, gp2, st1/sc1, Azure VM-level and AWS EC2 bursting) is on by default, so it counts;
//! Azure's on-demand disk bursting is enabled per disk and billed, so it counts only when the
//! user says it is on. Each part bursts to its own limit; the lower part wins, as sustained.

use super::catalog::{Caps, Disk, Vm};
use crate::result::analysis::{Burst, BurstModel, Expected};

pub fn model_of(terms: &str) -> BurstModel {
    if terms.trim_start().to_lowercase().starts_with("on-demand") {
        BurstModel::OnDemand
    } else {
        BurstModel::Credit
    }
}

/// A burst's terms as the catalog gives them, with the bucket's or the day's minutes:
/// "credit, 30 min", "daily: 30 min at least once a day".
fn terms(burst: Option<&str>, bucket_min: Option<f64>) -> String {
    let b = burst.unwrap_or("credit");
    match bucket_min {
        Some(m) if !b.contains("min") => format!("{b}, {m} min"),
        _ => b.to_string(),
    }
}

/// One side of a configuration: its sustained caps and, if it bursts above them, how.
#[derive(Debug, Clone)]
pub struct Part {
    pub name: String,
    pub caps: Caps,
    pub burst: Option<(Caps, BurstModel, String)>,
}

/// `n` disks of `d` at `gib` each; `on_demand`: on-demand bursting is enabled.
pub fn disks(d: &Disk, gib: f64, n: u32, want_iops: Option<f64>, on_demand: bool) -> Part {
    let k = n as f64;
    let one = d.caps(gib, want_iops);
    let name = if n == 1 { d.name.clone() } else { format!("{n} × {}", d.name) };
    let caps = Caps { iops: one.iops * k, mbps: one.mbps * k };
    let terms = terms(d.burst.as_deref(), d.burst_bucket_min);
    let model = model_of(&terms);
    let bursts = d.burst_iops.is_some() || d.burst_mbps.is_some();
    let burst = (bursts && (model == BurstModel::Credit || on_demand)).then(|| {
        // A figure that is not published for bursting stays at its sustained value.
        let b = Caps {
            iops: d.burst_iops.unwrap_or(0.0).max(one.iops) * k,
            mbps: d.burst_mbps.unwrap_or(0.0).max(one.mbps) * k,
        };
        (b, model, terms)
    });
    Part { name, caps, burst: burst.filter(|(b, _, _)| b.iops > caps.iops || b.mbps > caps.mbps) }
}

/// A VM's disk limits (`label`: "VM D2s_v4 uncached") and what VM-level bursting lifts them
/// to (`burst`: uncached limits only; the host cache does not burst).
pub fn vm(v: &Vm, caps: Caps, burst: Option<Caps>, label: String) -> Part {
    let burst = burst.filter(|b| b.iops > caps.iops || b.mbps > caps.mbps).map(|b| {
        let terms = terms(v.burst.as_deref(), v.burst_bucket_min);
        let model = model_of(&terms);
        (Caps { iops: b.iops.max(caps.iops), mbps: b.mbps.max(caps.mbps) }, model, terms)
    });
    Part { name: label, caps, burst }
}

/// The lower of two (figure, by) pairs; either may be missing.
fn lower(a: Option<(f64, String)>, b: Option<(f64, String)>) -> Option<(f64, String)> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// Sustained and burst limits of `disks` behind `vm`.
pub fn expected(disks: Option<Part>, vm: Option<Part>) -> Option<Expected> {
    let sus = |p: &Option<Part>, f: fn(&Caps) -> f64| p.as_ref().map(|p| (f(&p.caps), p.name.clone()));
    let bur = |p: &Option<Part>, f: fn(&Caps) -> f64| {
        p.as_ref().map(|p| match &p.burst {
            Some((b, _, _)) => (f(b), format!("{} burst", p.name)),
            None => (f(&p.caps), p.name.clone()),
        })
    };
    let iops = |c: &Caps| c.iops;
    let mbps = |c: &Caps| c.mbps;
    let (si, si_by) = lower(sus(&disks, iops), sus(&vm, iops))?;
    let (sm, sm_by) = lower(sus(&disks, mbps), sus(&vm, mbps))?;
    let (bi, bi_by) = lower(bur(&disks, iops), bur(&vm, iops))?;
    let (bm, bm_by) = lower(bur(&disks, mbps), bur(&vm, mbps))?;
    let lifts = bi > si || bm > sm;
    let bursts: Vec<Burst> = [&disks, &vm]
        .into_iter()
        .flatten()
        .filter(|_| lifts)
        .filter_map(|p| {
            let (b, model, terms) = p.burst.clone()?;
            Some(Burst { by: p.name.clone(), model, terms, iops: b.iops, mbps: b.mbps.is_finite().then_some(b.mbps) })
        })
        .collect();
    let finite = |m: f64| m.is_finite().then_some(m);
    Some(Expected {
        iops: si,
        mbps: finite(sm),
        iops_by: si_by,
        mbps_by: sm_by,
        disks_iops: disks.as_ref().map(|d| d.caps.iops),
        disks_mbps: disks.as_ref().map(|d| d.caps.mbps).and_then(finite),
        burst_iops: lifts.then_some(bi),
        burst_mbps: if lifts { finite(bm) } else { None },
        burst_iops_by: lifts.then_some(bi_by),
        burst_mbps_by: lifts.then_some(bm_by),
        bursts,
        sources: Vec::new(),
    })
}

//! The planner: configurations (disk type × disks striped × VM size) that meet a target, ranked,
//! and what a named configuration should deliver at each block size, counting I/Os as the
//! clouds do (an I/O larger than the disk's I/O unit counts as several).

use super::burst;
use super::catalog::{Caps, Catalog, Disk, Vm};
use super::price;
use serde::Serialize;

mod answer;
pub use answer::{predict, FromStats, Prediction, Rates, StatsPlan, SIZES};

#[derive(Debug, Clone, Default)]
pub struct Target {
    pub iops: f64,
    /// 10^6 B/s.
    pub mbps: f64,
    pub clouds: Vec<String>,
    pub max_disks: u32,
    /// Total capacity needed, GiB.
    pub size_gib: Option<f64>,
    /// Rank previous generations (Azure v2–v4, AWS m5 …) among the current ones instead of
    /// after them.
    pub generations_together: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    pub cloud: String,
    pub disk: String,
    pub count: u32,
    /// Each disk's size, GiB.
    pub disk_gib: f64,
    /// Provisioned IOPS per disk (provisioned types).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provisioned_iops: Option<f64>,
    /// Provisioned MB/s (10^6 B/s) per disk, for types whose throughput is provisioned apart
    /// from their IOPS: what each disk gives and what its price pays for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provisioned_mbps: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vm: Option<String>,
    /// The disk controller whose caps apply, where the VM publishes them apart (NVMe).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
    /// The disk or the VM is of a previous generation.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub previous: bool,
    pub iops: f64,
    /// 10^6 B/s.
    pub mbps: f64,
    /// Which limit sets each: "disks" or "VM".
    pub iops_by: String,
    pub mbps_by: String,
    /// How far the configuration exceeds the target, %.
    pub iops_headroom_pct: f64,
    pub mbps_headroom_pct: f64,
    /// While bursting (credit bursting of the disks and the VM), absent when nothing bursts
    /// above the sustained figures; the target is met without it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst_iops: Option<f64>,
    /// 10^6 B/s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst_mbps: Option<f64>,
    /// List price a month of one disk and of the VM; None where the catalog has none.
    pub disk_price_month: Option<f64>,
    pub vm_price_month: Option<f64>,
    /// Disks × count + VM, when every part has a price.
    pub price_month: Option<f64>,
    pub currency: Option<String>,
    /// The region the prices are for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// The catalog sources of every figure used: the disk's and the VM's limits and prices.
    pub sources: Vec<String>,
}

/// The configuration's prices: each disk at the IOPS and MB/s it is provisioned for (those
/// shown), the VM on demand.
fn priced(mut c: Candidate, d: &Disk, vm: Option<&Vm>, t: &Target) -> Candidate {
    let n = c.count as f64;
    let mbps = c.provisioned_mbps.unwrap_or(t.mbps / n);
    c.disk_price_month = price::disk_month(d, c.disk_gib, c.provisioned_iops, mbps);
    c.vm_price_month = vm.and_then(price::vm_month);
    c.price_month = match (c.disk_price_month, c.vm_price_month) {
        (Some(dp), Some(vp)) if d.currency == vm.and_then(|v| v.currency.clone()) => Some(dp * n + vp),
        _ => None,
    };
    c.currency = d.currency.clone().or_else(|| vm.and_then(|v| v.currency.clone()));
    c
}

/// Priced configurations first, cheapest first; then every one without a whole price (a disk
/// or VM no source prices in the region), which a partial price cannot rank against the rest.
fn by_price(c: &Candidate) -> (u8, f64) {
    match c.price_month {
        Some(p) => (0, p),
        None => (1, 0.0),
    }
}

/// How each disk of a stripe is sized and provisioned, and what it then gives.
struct Each {
    gib: f64,
    iops: Option<f64>,
    mbps: Option<f64>,
    caps: Caps,
}

/// Each disk of a `count`-disk stripe sized (and provisioned) to carry its share of `t`.
fn sized(d: &Disk, t: &Target, count: u32) -> Option<Each> {
    let n = count as f64;
    let need_gib = t.size_gib.map_or(0.0, |g| g / n);
    let each = |gib: f64| Each { gib, iops: None, mbps: None, caps: d.caps(gib, None) };
    if !d.is_formula() {
        let gib = d.size_gib.unwrap_or(0.0);
        return (gib >= need_gib).then(|| each(gib));
    }
    let (min, max) = (d.min_gib.unwrap_or(1.0), d.max_gib.unwrap_or(65536.0));
    let share = t.iops / n;
    let mut gib = need_gib.max(min);
    if d.provisioned {
        // Throughput grows with provisioned IOPS on some types: provision for both, in whole IOPS.
        let iops = share.max(d.mbps_per_iops.map_or(0.0, |p| t.mbps / n / p)).max(d.base_iops.unwrap_or(0.0)).ceil();
        // The free baseline comes at any size (gp3's and Premium SSD v2's 3,000 IOPS on 1 GiB);
        // only IOPS above it need GiB at the per-GiB ratio.
        let floor = d.min_iops.unwrap_or(0.0).max(d.base_iops.unwrap_or(0.0));
        if let Some(r) = d.iops_per_gib.filter(|_| iops > floor) {
            gib = gib.max(iops / r);
        }
        let gib = gib.ceil();
        let allowed = d.caps(gib, Some(iops));
        // A type with free baseline throughput (gp3, Premium SSD v2, Hyperdisk Balanced) has its
        // MB/s provisioned, and paid for, apart from its IOPS: the disk's share of the target,
        // at least the baseline. It gives that, not the most its IOPS would allow.
        let mbps = d.base_mbps.map(|b| (t.mbps / n).max(b).min(allowed.mbps));
        let caps = Caps { iops: allowed.iops, mbps: mbps.unwrap_or(allowed.mbps) };
        return (gib <= max).then_some(Each { gib, iops: Some(allowed.iops), mbps, caps });
    }
    if let Some(r) = d.iops_per_gib.filter(|r| *r > 0.0) {
        gib = gib.max((share - d.base_iops.unwrap_or(0.0)) / r);
    }
    if let Some(r) = d.mbps_per_gib.filter(|r| *r > 0.0) {
        gib = gib.max((t.mbps / n - d.base_mbps.unwrap_or(0.0)) / r);
    }
    let gib = gib.ceil().max(min);
    (gib <= max).then(|| each(gib))
}

/// A VM that carries the disks, on one of its controllers, with the caps they get there.
struct Carrier<'a> {
    vm: &'a Vm,
    controller: Option<String>,
    caps: Caps,
    burst: Option<Caps>,
}

/// Every VM (and controller, where a VM publishes caps apart for one) that can carry `count`
/// disks of `d`; `[None]` when none can.
fn vms_for<'a>(cat: &'a Catalog, d: &Disk, count: u32) -> Vec<Option<Carrier<'a>>> {
    // Disks of a cloud the catalog has no VM of (an on-premises SAN) are a configuration alone;
    // a cloud's disks are not one without the VM that bounds them.
    if !cat.vms.iter().any(|v| v.cloud == d.cloud) {
        return vec![None];
    }
    let mut v = Vec::new();
    for vm in cat.vms.iter().filter(|v| v.cloud == d.cloud && v.max_disks.is_none_or(|m| m >= count)) {
        let other = vm.controllers().into_iter().filter(|c| !c.eq_ignore_ascii_case("SCSI")).map(Some);
        for controller in std::iter::once(None).chain(other) {
            if let Some((caps, burst)) = vm.caps_for(d, controller.as_deref()) {
                v.push(Some(Carrier { vm, controller, caps, burst }));
            }
        }
    }
    v
}

/// How many disks of what size a configuration has, and the burst they give.
struct Sizing {
    count: u32,
    gib: f64,
    prov: Option<f64>,
    prov_mbps: Option<f64>,
    burst: (Option<f64>, Option<f64>),
}

/// The ids a row's `source` or `price_source` names ("A1, A5").
fn ids(s: Option<&str>) -> impl Iterator<Item = String> + '_ {
    s.into_iter().flat_map(|s| s.split([',', ' ']).filter(|x| !x.is_empty()).map(str::to_string))
}

/// One configuration, priced: `gives` is its IOPS and MB/s, each with what limits it.
fn candidate(d: &Disk, on: Option<&Carrier>, s: &Sizing, gives: [(f64, &str); 2], t: &Target) -> Candidate {
    let [(iops, iops_by), (mbps, mbps_by)] = gives;
    let vm = on.map(|c| c.vm);
    let mut sources: Vec<String> = ids(Some(&d.source)).chain(ids(d.price_source.as_deref())).collect();
    if let Some(v) = vm {
        sources.extend(ids(Some(&v.source)).chain(ids(v.price_source.as_deref())));
    }
    let mut seen = std::collections::HashSet::new();
    sources.retain(|s| seen.insert(s.clone()));
    let headroom = |have: f64, want: f64| if want > 0.0 { (have / want - 1.0) * 100.0 } else { 0.0 };
    let c = Candidate {
        cloud: d.cloud.clone(),
        disk: d.name.clone(),
        count: s.count,
        disk_gib: s.gib,
        provisioned_iops: s.prov,
        provisioned_mbps: s.prov_mbps,
        vm: vm.map(|v| v.name.clone()),
        controller: on.and_then(|c| c.controller.clone()),
        previous: d.previous || vm.is_some_and(|v| v.previous),
        iops,
        mbps,
        iops_by: iops_by.into(),
        mbps_by: mbps_by.into(),
        iops_headroom_pct: headroom(iops, t.iops),
        mbps_headroom_pct: headroom(mbps, t.mbps),
        burst_iops: s.burst.0,
        burst_mbps: s.burst.1,
        disk_price_month: None,
        vm_price_month: None,
        price_month: None,
        currency: None,
        region: d.region.clone().or_else(|| vm.and_then(|v| v.region.clone())),
        sources,
    };
    priced(c, d, vm, t)
}

/// The disks' part in what the configuration gives, bursting included, at what each disk is
/// provisioned for (`caps`), not the most its type allows.
fn disks_part(d: &Disk, gib: f64, count: u32, prov: Option<f64>, caps: Caps) -> burst::Part {
    let mut part = burst::disks(d, gib, count, prov, false);
    part.caps = Caps { iops: caps.iops * count as f64, mbps: caps.mbps * count as f64 };
    part
}

/// Configurations meeting `t`, cheapest first where the catalog has prices, then fewest disks
/// and the smallest VM that carries them.
pub fn plan(cat: &Catalog, t: &Target) -> Vec<Candidate> {
    let mut out = Vec::new();
    // Rows without a published MB/s limit (legacy unmanaged disks) cannot be planned for MB/s.
    let plannable = |d: &&Disk| d.is_formula() || d.mbps.is_some();
    for d in cat.disks.iter().filter(plannable).filter(|d| t.clouds.is_empty() || t.clouds.contains(&d.cloud)) {
        for count in 1..=t.max_disks.max(1) {
            let Some(Each { gib, iops: prov, mbps: prov_mbps, caps }) = sized(d, t, count) else { continue };
            let (di, dm) = (caps.iops * count as f64, caps.mbps * count as f64);
            // The disks with the VM's part, if any: what the configuration gives, bursting included.
            let sizing = |vm_part| {
                let x = burst::expected(Some(disks_part(d, gib, count, prov, caps)), vm_part);
                let burst = x.map_or((None, None), |x| (x.burst_iops, x.burst_mbps));
                Sizing { count, gib, prov, prov_mbps, burst }
            };
            if di < t.iops || dm < t.mbps {
                continue;
            }
            for on in vms_for(cat, d, count) {
                let vc = on.as_ref().map(|c| c.caps);
                let (iops, iops_by) = match vc {
                    Some(c) if c.iops < di => (c.iops, "VM"),
                    _ => (di, "disks"),
                };
                let (mbps, mbps_by) = match vc {
                    Some(c) if c.mbps < dm => (c.mbps, "VM"),
                    _ => (dm, "disks"),
                };
                if iops < t.iops || mbps < t.mbps {
                    continue;
                }
                let vm_part = on.as_ref().map(|c| burst::vm(c.vm, c.caps, c.burst, c.vm.name.clone()));
                out.push(candidate(d, on.as_ref(), &sizing(vm_part), [(iops, iops_by), (mbps, mbps_by)], t));
            }
        }
    }
    // More of the same disk on the same VM that gives no more and costs no less is noise.
    let dominated = |c: &Candidate| {
        out.iter().any(|o| {
            (&o.cloud, &o.disk, &o.vm, &o.controller) == (&c.cloud, &c.disk, &c.vm, &c.controller)
                && o.count < c.count
                && o.iops >= c.iops
                && o.mbps >= c.mbps
                && by_price(o) <= by_price(c)
        })
    };
    let keep: Vec<bool> = out.iter().map(|c| !dominated(c)).collect();
    let mut kept = keep.iter();
    out.retain(|_| *kept.next().expect("one flag per candidate"));
    // Current generations first (unless asked to rank them together), then by price (see
    // `by_price`); among equals, fewest disks, then the least the VM could give beyond the
    // target, then the least capacity.
    out.sort_by(|a, b| {
        let key = |c: &Candidate| (c.count, c.iops + c.mbps * 10.0, c.disk_gib * c.count as f64);
        let (x, y) = (key(a), key(b));
        let (pa, pb) = (by_price(a), by_price(b));
        let old = |c: &Candidate| c.previous && !t.generations_together;
        old(a)
            .cmp(&old(b))
            .then(pa.0.cmp(&pb.0))
            .then(pa.1.total_cmp(&pb.1))
            .then(x.0.cmp(&y.0))
            .then(x.1.total_cmp(&y.1))
            .then(x.2.total_cmp(&y.2))
    });
    out
}

/// Why a cloud in `t`'s scope has no configuration in `found`, where its disks alone could meet
/// the target: no VM in the catalog carries that much uncached. One line per such cloud, with
/// the most any of its VMs gives and the disks that would do.
pub fn no_vm_carries(cat: &Catalog, t: &Target, found: &[Candidate]) -> Vec<String> {
    let mut clouds: Vec<&str> = cat.vms.iter().map(|v| v.cloud.as_str()).collect();
    clouds.dedup();
    let mut out = Vec::new();
    for cloud in clouds.into_iter().filter(|c| t.clouds.is_empty() || t.clouds.iter().any(|x| x == c)) {
        if found.iter().any(|c| c.cloud == cloud) {
            continue;
        }
        let disks = cat.disks.iter().filter(|d| d.cloud == cloud && (d.is_formula() || d.mbps.is_some()));
        let alone = disks.flat_map(|d| (1..=t.max_disks.max(1)).map(move |n| (d, n))).find(|(d, n)| {
            sized(d, t, *n).is_some_and(|e| e.caps.iops * *n as f64 >= t.iops && e.caps.mbps * *n as f64 >= t.mbps)
        });
        let Some((d, n)) = alone else { continue };
        // The most any VM of the cloud gives uncached, to any disk kind.
        let mut best: (f64, &str, f64, &str) = (0.0, "", 0.0, "");
        for v in cat.vms.iter().filter(|v| v.cloud == cloud) {
            for c in v.caps(false).into_iter().chain(v.caps.iter().filter_map(|e| e.caps())) {
                if c.iops > best.0 {
                    (best.0, best.1) = (c.iops, &v.name);
                }
                if c.mbps.is_finite() && c.mbps > best.2 {
                    (best.2, best.3) = (c.mbps, &v.name);
                }
            }
        }
        let k = super::thousands;
        out.push(format!(
            "no {cloud} VM in the catalog carries {} IOPS and {} MB/s uncached: the most any gives is {} IOPS ({}) \
             and {} MB/s ({}); {n} × {} would, on a VM the catalog does not hold",
            k(t.iops),
            k(t.mbps),
            k(best.0),
            best.1,
            k(best.2),
            best.3,
            d.name
        ));
    }
    out
}

/// What a configuration gives at one block size.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AtSize {
    pub bs: u64,
    pub iops: f64,
    /// 10^6 B/s.
    pub mbps: f64,
    /// "iops" or "mbps".
    pub binds: &'static str,
}

/// IOPS and MB/s at each block size under `caps`, an I/O above `unit_kib` counting as several.
pub fn at_sizes(caps: Caps, unit_kib: Option<u32>, sizes: &[u64]) -> Vec<AtSize> {
    sizes
        .iter()
        .map(|&bs| {
            let units = unit_kib.map_or(1.0, |u| (bs as f64 / (u as f64 * 1024.0)).ceil().max(1.0));
            let by_iops = caps.iops / units;
            let by_mbps = caps.mbps * 1e6 / bs as f64;
            let (iops, binds) = if by_iops <= by_mbps { (by_iops, "iops") } else { (by_mbps, "mbps") };
            AtSize { bs, iops, mbps: iops * bs as f64 / 1e6, binds }
        })
        .collect()
}

#[cfg(test)]
mod tests;

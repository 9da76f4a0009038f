//! The planner: configurations (disk type × disks striped × VM size) that meet a target, ranked,
//! and what a named configuration should deliver at each block size, counting I/Os as the
//! clouds do (an I/O larger than the disk's I/O unit counts as several).

use super::burst;
use super::catalog::{Caps, Catalog, Disk, Vm};
use serde::Serialize;

#[derive(Debug, Clone, Default)]
pub struct Target {
    pub iops: f64,
    /// 10^6 B/s.
    pub mbps: f64,
    pub clouds: Vec<String>,
    pub max_disks: u32,
    /// Total capacity needed, GiB.
    pub size_gib: Option<f64>,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vm: Option<String>,
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
}

/// Each disk of a `count`-disk stripe sized (and provisioned) to carry its share of `t`.
fn sized(d: &Disk, t: &Target, count: u32) -> Option<(f64, Option<f64>, Caps)> {
    let n = count as f64;
    let need_gib = t.size_gib.map_or(0.0, |g| g / n);
    if !d.is_formula() {
        let gib = d.size_gib.unwrap_or(0.0);
        return (gib >= need_gib).then(|| (gib, None, d.caps(gib, None)));
    }
    let (min, max) = (d.min_gib.unwrap_or(1.0), d.max_gib.unwrap_or(65536.0));
    let share = t.iops / n;
    let mut gib = need_gib.max(min);
    if d.provisioned {
        if let Some(r) = d.iops_per_gib {
            gib = gib.max(share / r);
        }
        // Throughput grows with provisioned IOPS on some types: provision for both.
        let iops = share.max(d.mbps_per_iops.map_or(0.0, |p| t.mbps / n / p)).max(d.base_iops.unwrap_or(0.0));
        if let Some(r) = d.iops_per_gib {
            gib = gib.max(iops / r);
        }
        let gib = gib.ceil();
        return (gib <= max).then(|| (gib, Some(d.caps(gib, Some(iops)).iops), d.caps(gib, Some(iops))));
    }
    if let Some(r) = d.iops_per_gib.filter(|r| *r > 0.0) {
        gib = gib.max((share - d.base_iops.unwrap_or(0.0)) / r);
    }
    if let Some(r) = d.mbps_per_gib.filter(|r| *r > 0.0) {
        gib = gib.max((t.mbps / n - d.base_mbps.unwrap_or(0.0)) / r);
    }
    let gib = gib.ceil().max(min);
    (gib <= max).then(|| (gib, None, d.caps(gib, None)))
}

fn vms_for<'a>(cat: &'a Catalog, d: &Disk, count: u32) -> Vec<Option<&'a Vm>> {
    let v: Vec<Option<&Vm>> = cat
        .vms
        .iter()
        .filter(|v| v.cloud == d.cloud && v.max_disks.is_none_or(|m| m >= count))
        .filter(|v| v.disk.as_deref().is_none_or(|x| x == d.name))
        .map(Some)
        .collect();
    if v.is_empty() {
        vec![None]
    } else {
        v
    }
}

/// Configurations meeting `t`, fewest disks first, then the smallest VM that carries them.
pub fn plan(cat: &Catalog, t: &Target) -> Vec<Candidate> {
    let mut out = Vec::new();
    // Rows without a published MB/s limit (legacy unmanaged disks) cannot be planned for MB/s.
    let plannable = |d: &&Disk| d.is_formula() || d.mbps.is_some();
    for d in cat.disks.iter().filter(plannable).filter(|d| t.clouds.is_empty() || t.clouds.contains(&d.cloud)) {
        for count in 1..=t.max_disks.max(1) {
            let Some((gib, prov, caps)) = sized(d, t, count) else { continue };
            let (di, dm) = (caps.iops * count as f64, caps.mbps * count as f64);
            if di < t.iops || dm < t.mbps {
                continue;
            }
            let before = out.len();
            for vm in vms_for(cat, d, count) {
                let vc = vm.and_then(|v| v.caps(false));
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
                let x = burst::expected(
                    Some(burst::disks(d, gib, count, prov, false)),
                    vm.and_then(|v| Some(burst::vm(v, vc?, false, v.name.clone()))),
                );
                let (burst_iops, burst_mbps) = x.map_or((None, None), |x| (x.burst_iops, x.burst_mbps));
                out.push(Candidate {
                    cloud: d.cloud.clone(),
                    disk: d.name.clone(),
                    count,
                    disk_gib: gib,
                    provisioned_iops: prov,
                    vm: vm.map(|v| v.name.clone()),
                    iops,
                    mbps,
                    iops_by: iops_by.into(),
                    mbps_by: mbps_by.into(),
                    iops_headroom_pct: if t.iops > 0.0 { (iops / t.iops - 1.0) * 100.0 } else { 0.0 },
                    mbps_headroom_pct: if t.mbps > 0.0 { (mbps / t.mbps - 1.0) * 100.0 } else { 0.0 },
                    burst_iops,
                    burst_mbps,
                });
            }
            // The disks can do it but no VM in the catalog carries them: still worth showing.
            if out.len() == before {
                let x = burst::expected(Some(burst::disks(d, gib, count, prov, false)), None);
                let (burst_iops, burst_mbps) = x.map_or((None, None), |x| (x.burst_iops, x.burst_mbps));
                out.push(Candidate {
                    cloud: d.cloud.clone(),
                    disk: d.name.clone(),
                    count,
                    disk_gib: gib,
                    provisioned_iops: prov,
                    vm: None,
                    iops: di,
                    mbps: dm,
                    iops_by: "disks".into(),
                    mbps_by: "disks".into(),
                    iops_headroom_pct: if t.iops > 0.0 { (di / t.iops - 1.0) * 100.0 } else { 0.0 },
                    mbps_headroom_pct: if t.mbps > 0.0 { (dm / t.mbps - 1.0) * 100.0 } else { 0.0 },
                    burst_iops,
                    burst_mbps,
                });
            }
        }
    }
    // Fewest disks, then the least the VM could give beyond the target, then the least capacity.
    out.sort_by(|a, b| {
        let key = |c: &Candidate| (c.count, c.iops + c.mbps * 10.0, c.disk_gib * c.count as f64);
        let (x, y) = (key(a), key(b));
        x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)).then(x.2.total_cmp(&y.2))
    });
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
mod tests {
    use super::*;
    use crate::analyze::{expected, Config};
    use crate::result::analysis::BurstModel;

    fn cat() -> Catalog {
        Catalog::load(None).unwrap()
    }

    #[test]
    fn the_vm_binds_before_four_p30s() {
        let cfg = Config { disk: Some("P30".into()), count: 4, vm: Some("D8s_v3".into()), ..Config::default() };
        let x = expected(&cat(), &cfg).unwrap().unwrap();
        assert_eq!((x.iops, x.iops_by.as_str(), x.disks_iops), (12800.0, "VM D8s_v3 uncached", Some(20000.0)));
        assert_eq!((x.mbps, x.mbps_by.as_str()), (Some(192.0), "VM D8s_v3 uncached"));
    }

    #[test]
    fn three_p30s_on_a_d2s_v4_sustain_3200_and_burst_to_the_vms_4000() {
        let cfg = Config { disk: Some("P30".into()), count: 3, vm: Some("D2s_v4".into()), ..Config::default() };
        let x = expected(&cat(), &cfg).unwrap().unwrap();
        assert_eq!((x.iops, x.iops_by.as_str()), (3200.0, "VM D2s_v4 uncached"));
        assert_eq!((x.burst_iops, x.burst_iops_by.as_deref()), (Some(4000.0), Some("VM D2s_v4 uncached burst")));
        assert_eq!(x.burst_mbps, Some(200.0));
        // Only the VM bursts: P30's on-demand bursting is billed and off unless asked for.
        assert_eq!(x.bursts.len(), 1);
        assert_eq!((x.bursts[0].by.as_str(), x.bursts[0].model), ("VM D2s_v4 uncached", BurstModel::Credit));
    }

    #[test]
    fn on_a_d8s_v4_the_disks_bind_the_burst_unless_they_burst_on_demand() {
        let mut cfg = Config { disk: Some("P30".into()), count: 3, vm: Some("D8s_v4".into()), ..Config::default() };
        let x = expected(&cat(), &cfg).unwrap().unwrap();
        assert_eq!((x.iops, x.burst_iops, x.burst_iops_by.as_deref()), (12800.0, Some(15000.0), Some("3 × P30")));
        cfg.on_demand_burst = true;
        let x = expected(&cat(), &cfg).unwrap().unwrap();
        assert_eq!((x.burst_iops, x.burst_iops_by.as_deref()), (Some(16000.0), Some("VM D8s_v4 uncached burst")));
        let models: Vec<BurstModel> = x.bursts.iter().map(|b| b.model).collect();
        assert_eq!(models, vec![BurstModel::OnDemand, BurstModel::Credit]);
    }

    #[test]
    fn credit_bursting_small_disks_burst_on_their_own_and_a_host_cache_does_not_burst() {
        let cfg = Config { disk: Some("P10".into()), count: 2, ..Config::default() };
        let x = expected(&cat(), &cfg).unwrap().unwrap();
        assert_eq!((x.iops, x.burst_iops, x.burst_mbps), (1000.0, Some(7000.0), Some(340.0)));
        assert_eq!(x.bursts[0].model, BurstModel::Credit);
        let cfg = Config { vm: Some("D8s_v3".into()), cached: true, ..Config::default() };
        let x = expected(&cat(), &cfg).unwrap().unwrap();
        assert_eq!((x.iops, x.burst_iops), (16000.0, None));
    }

    #[test]
    fn plans_say_what_bursting_adds() {
        let t = Target { iops: 3000.0, mbps: 40.0, clouds: vec!["azure".into()], max_disks: 3, size_gib: None };
        let p = plan(&cat(), &t);
        let c = p
            .iter()
            .find(|c| c.disk == "P30" && c.count == 1 && c.vm.as_deref() == Some("D2s_v4"))
            .expect("one P30 on a D2s_v4 meets it");
        assert_eq!((c.iops, c.burst_iops), (3200.0, Some(4000.0)));
    }

    #[test]
    fn three_e30_disks_cap_at_1500_iops() {
        let cfg = Config { disk: Some("E30".into()), count: 3, ..Config::default() };
        let x = expected(&cat(), &cfg).unwrap().unwrap();
        assert_eq!((x.iops, x.mbps, x.iops_by.as_str()), (1500.0, Some(180.0), "3 × E30"));
    }

    #[test]
    fn gp3_at_16000_iops_needs_32_gib() {
        let t = Target { iops: 16000.0, mbps: 0.0, clouds: vec!["aws".into()], max_disks: 1, size_gib: None };
        let gp3 = plan(&cat(), &t).into_iter().find(|c| c.disk == "gp3").expect("gp3 can do it");
        assert_eq!((gp3.disk_gib, gp3.provisioned_iops), (32.0, Some(16000.0)));
    }

    #[test]
    fn pd_ssd_on_a_4_vcpu_n2_is_capped_at_15000() {
        let cfg = Config {
            disk: Some("pd-ssd".into()),
            count: 1,
            vm: Some("n2-standard-4".into()),
            size_gib: Some(1000.0),
            ..Config::default()
        };
        let x = expected(&cat(), &cfg).unwrap().unwrap();
        assert_eq!((x.iops, x.disks_iops), (15000.0, Some(36000.0)));
        assert!(x.iops_by.starts_with("VM n2 2-7 vCPU pd-ssd"), "{}", x.iops_by);
    }

    #[test]
    fn large_io_counts_as_several_and_bandwidth_binds() {
        let caps = Caps { iops: 5000.0, mbps: 200.0 };
        let t = at_sizes(caps, Some(256), &[4096, 65536, 1 << 20]);
        assert_eq!((t[0].iops, t[0].binds), (5000.0, "iops"));
        assert_eq!(t[1].binds, "mbps");
        assert!((t[2].iops - 200e6 / 1048576.0).abs() < 1e-6);
        // 1 MiB counts as four I/Os: a 5,000-IOPS disk with ample bandwidth does 1,250 of them.
        let t = at_sizes(Caps { iops: 5000.0, mbps: 10_000.0 }, Some(256), &[1 << 20]);
        assert_eq!((t[0].iops, t[0].binds), (1250.0, "iops"));
    }

    #[test]
    fn plans_rank_fewest_disks_first_and_meet_the_target() {
        let t = Target { iops: 20000.0, mbps: 300.0, clouds: vec!["azure".into()], max_disks: 8, size_gib: None };
        let p = plan(&cat(), &t);
        assert!(!p.is_empty());
        assert!(p.iter().all(|c| c.iops >= 20000.0 && c.mbps >= 300.0));
        assert!(p.windows(2).all(|w| w[0].count <= w[1].count));
        assert!(p.iter().any(|c| c.disk == "P30" && c.count == 4 && c.vm.as_deref() == Some("D16s_v3")));
    }
}

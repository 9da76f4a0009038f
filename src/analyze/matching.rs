//! Inferred caps against the catalog: which published tiers and VM limits they match, and, for a
//! configuration the user names, which limit should bind and how far the measurement is from it.

use super::catalog::{Caps, Catalog};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Match {
    /// "Azure Premium SSD P30", or several tiers with the same limits: "Azure Standard SSD E1–E50".
    pub name: String,
    pub iops: f64,
    /// 10^6 B/s; absent where the row publishes no MB/s limit.
    pub mbps: Option<f64>,
    /// What matched: "iops and mbps", "iops", "mbps"; "burst …" for burst figures, "VM …" for VM limits.
    pub on: String,
}

fn close(measured: Option<f64>, published: Option<f64>, tol: f64) -> Option<bool> {
    let p = published.filter(|p| p.is_finite())?;
    Some((measured? - p).abs() <= tol * p)
}

fn cloud(c: &str) -> String {
    match c {
        "azure" => "Azure".into(),
        "aws" => "AWS".into(),
        "gcp" => "GCP".into(),
        o => o.to_string(),
    }
}

/// Rows whose limits match `iops`/`mbps` (either may be unknown) within `tol` (0.10 = ±10 %).
pub fn matches(cat: &Catalog, iops: Option<f64>, mbps: Option<f64>, tol: f64) -> Vec<Match> {
    // (group, tier, caps, what matched), in catalog order.
    let mut raw: Vec<(String, String, Caps, String)> = Vec::new();
    let mut test = |group: String, tier: &str, c: Caps, what: &str| {
        let on = match (close(iops, Some(c.iops), tol), close(mbps, Some(c.mbps), tol)) {
            (Some(true), Some(true)) => "iops and mbps",
            (Some(true), None) => "iops",
            (None, Some(true)) => "mbps",
            _ => return,
        };
        let on = if what.is_empty() { on.to_string() } else { format!("{what} {on}") };
        raw.push((group, tier.to_string(), c, on));
    };
    for d in cat.disks.iter().filter(|d| !d.is_formula()) {
        let group = format!("{} {}", cloud(&d.cloud), d.kind);
        test(group.clone(), &d.name, d.caps(0.0, None), "");
        if let (Some(i), Some(m)) = (d.burst_iops, d.burst_mbps) {
            test(group, &d.name, Caps { iops: i, mbps: m }, "burst");
        }
    }
    for v in &cat.vms {
        let group = format!("{} VM", cloud(&v.cloud));
        for (what, c) in [("VM uncached", v.caps(false)), ("VM cached", v.caps(true))] {
            if let Some(c) = c {
                test(group.clone(), &v.name, c, what);
            }
        }
        if let (Some(i), Some(m)) = (v.burst_iops, v.burst_mbps) {
            test(group, &v.name, Caps { iops: i, mbps: m }, "VM burst");
        }
    }
    // Neighbouring tiers with the same limits (E1 … E50) read as one line: "E1–E50".
    let mut out: Vec<Match> = Vec::new();
    let mut last: Option<(String, String, Caps, String, String)> = None;
    let flush = |l: Option<(String, String, Caps, String, String)>, out: &mut Vec<Match>| {
        if let Some((g, first, c, on, end)) = l {
            let tiers = if first == end { first } else { format!("{first}–{end}") };
            out.push(Match {
                name: format!("{g} {tiers}"),
                iops: c.iops,
                mbps: c.mbps.is_finite().then_some(c.mbps),
                on,
            });
        }
    };
    for (g, tier, c, on) in raw {
        match &mut last {
            Some((lg, _, lc, lon, end)) if *lg == g && *lc == c && *lon == on => *end = tier,
            _ => {
                flush(last.take(), &mut out);
                last = Some((g, tier.clone(), c, on, tier));
            }
        }
    }
    flush(last, &mut out);
    // Both figures matching first.
    out.sort_by_key(|m| !m.on.ends_with("iops and mbps"));
    out
}

/// The limits a configuration should show: `count` disks striped, behind a VM's uncached (or,
/// with host caching, cached) limit; the lower wins on each axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    pub iops: f64,
    /// 10^6 B/s; absent where nothing named publishes a MB/s limit (legacy unmanaged disks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mbps: Option<f64>,
    /// What sets each: "4 × P30" or "VM D8s_v3 uncached".
    pub iops_by: String,
    pub mbps_by: String,
    /// The disks' sum alone, before the VM's limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disks_iops: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disks_mbps: Option<f64>,
}

pub fn expected(disks: Option<(Caps, &str, u32)>, vm: Option<(Caps, String)>) -> Option<Expected> {
    let d = disks.map(|(c, name, n)| {
        (c.iops * n as f64, c.mbps * n as f64, if n == 1 { name.to_string() } else { format!("{n} × {name}") })
    });
    let pick = |disk: Option<(f64, String)>, v: Option<(f64, String)>| match (disk, v) {
        (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
        (a, b) => a.or(b),
    };
    let vi = vm.as_ref().map(|(c, n)| (c.iops, n.clone()));
    let vm_ = vm.as_ref().map(|(c, n)| (c.mbps, n.clone()));
    let (iops, iops_by) = pick(d.as_ref().map(|x| (x.0, x.2.clone())), vi)?;
    let (mbps, mbps_by) = pick(d.as_ref().map(|x| (x.1, x.2.clone())), vm_)?;
    Some(Expected {
        iops,
        mbps: mbps.is_finite().then_some(mbps),
        iops_by,
        mbps_by,
        disks_iops: d.as_ref().map(|x| x.0),
        disks_mbps: d.as_ref().map(|x| x.1).filter(|m| m.is_finite()),
    })
}

//! Inferred caps against the catalog: which published tiers and VM limits they match, sustained
//! or burst.

use super::catalog::{Caps, Catalog, Vm};
use crate::result::analysis::{Axes, Limit, Match, MatchOn};
use crate::result::Host;

/// What the measured host can be, from what iolens read of it: a row of another cloud, or a VM
/// size with other vCPUs or memory, cannot be the wall it hit. Unknown facts rule nothing out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostFit {
    /// "azure", "aws" or "gcp", from the DMI vendor (Microsoft's also names Hyper-V at home:
    /// either way no other cloud's row applies).
    pub cloud: Option<&'static str>,
    pub vcpus: Option<u32>,
    pub memory_gib: Option<f64>,
}

impl HostFit {
    pub fn of(h: &Host) -> HostFit {
        let vendor = h.vm_vendor.as_deref().unwrap_or("").to_ascii_lowercase();
        let cloud = if vendor.starts_with("microsoft") {
            Some("azure")
        } else if vendor.starts_with("amazon") {
            Some("aws")
        } else if vendor.starts_with("google") {
            Some("gcp")
        } else {
            None
        };
        HostFit {
            cloud,
            vcpus: (h.cores > 0).then_some(h.cores),
            memory_gib: (h.memory_bytes > 0).then(|| h.memory_bytes as f64 / (1u64 << 30) as f64),
        }
    }

    fn allows_cloud(&self, cloud: &str) -> bool {
        self.cloud.is_none_or(|c| c == cloud)
    }

    /// A guest sees a little less memory than its size's (firmware, the kernel's own), never more.
    fn allows_vm(&self, v: &Vm) -> bool {
        let vcpus = match (self.vcpus, v.vcpus) {
            (Some(h), Some(n)) => h == n,
            (Some(h), None) => v.vcpus_min.is_none_or(|m| h >= m) && v.vcpus_max.is_none_or(|m| h <= m),
            _ => true,
        };
        let memory = match (self.memory_gib, v.memory_gib) {
            (Some(h), Some(m)) => h <= m * 1.02 && h >= m * 0.8,
            _ => true,
        };
        self.allows_cloud(&v.cloud) && vcpus && memory
    }
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

/// Rows whose limits match `iops`/`mbps` (either may be unknown) within `tol` (0.10 = ±10 %), of
/// those the host can be.
pub fn matches(cat: &Catalog, iops: Option<f64>, mbps: Option<f64>, tol: f64, host: &HostFit) -> Vec<Match> {
    // (group, tier, caps, what matched, source), in catalog order.
    let mut raw: Vec<(String, String, Caps, MatchOn, String)> = Vec::new();
    let mut test = |group: String, tier: &str, c: Caps, limit: Limit, src: &str| {
        let axes = match (close(iops, Some(c.iops), tol), close(mbps, Some(c.mbps), tol)) {
            (Some(true), Some(true)) => Axes::IopsAndMbps,
            (Some(true), None) => Axes::Iops,
            (None, Some(true)) => Axes::Mbps,
            _ => return,
        };
        raw.push((group, tier.to_string(), c, MatchOn { limit, axes }, cat.cited(src)));
    };
    for d in cat.disks.iter().filter(|d| !d.is_formula() && host.allows_cloud(&d.cloud)) {
        let group = format!("{} {}", cloud(&d.cloud), d.kind);
        test(group.clone(), &d.name, d.caps(0.0, None), Limit::Disk, &d.source);
        if let (Some(i), Some(m)) = (d.burst_iops, d.burst_mbps) {
            test(group, &d.name, Caps { iops: i, mbps: m }, Limit::DiskBurst, &d.source);
        }
    }
    for v in cat.vms.iter().filter(|v| host.allows_vm(v)) {
        let group = format!("{} VM", cloud(&v.cloud));
        for (what, c) in [(Limit::VmUncached, v.caps(false)), (Limit::VmCached, v.caps(true))] {
            if let Some(c) = c {
                test(group.clone(), &v.name, c, what, &v.source);
            }
        }
        if let (Some(i), Some(m)) = (v.burst_iops, v.burst_mbps) {
            test(group.clone(), &v.name, Caps { iops: i, mbps: m }, Limit::VmBurst, &v.source);
        }
        // Caps published for some disk kinds or one controller: each a limit of its own.
        for e in &v.caps {
            let on = [e.controller.clone(), Some(e.disks.join("/"))].into_iter().flatten().filter(|s| !s.is_empty());
            let name = format!("{} ({})", v.name, on.collect::<Vec<_>>().join(" "));
            if let Some(c) = e.caps() {
                test(group.clone(), &name, c, Limit::VmUncached, &v.source);
            }
        }
    }
    // Neighbouring tiers with the same limits (E1 … E50) read as one line: "E1–E50".
    let mut out: Vec<Match> = Vec::new();
    type Run = (String, String, Caps, MatchOn, String, String);
    let mut last: Option<Run> = None;
    let flush = |l: Option<Run>, out: &mut Vec<Match>| {
        if let Some((g, first, c, on, end, source)) = l {
            let tiers = if first == end { first } else { format!("{first}–{end}") };
            out.push(Match {
                name: format!("{g} {tiers}"),
                iops: c.iops,
                mbps: c.mbps.is_finite().then_some(c.mbps),
                on,
                source: Some(source).filter(|s| !s.is_empty()),
            });
        }
    };
    for (g, tier, c, on, source) in raw {
        match &mut last {
            Some((lg, _, lc, lon, end, ls)) if *lg == g && *lc == c && *lon == on && *ls == source => *end = tier,
            _ => {
                flush(last.take(), &mut out);
                last = Some((g, tier.clone(), c, on, tier, source));
            }
        }
    }
    flush(last, &mut out);
    // Both figures matching first.
    out.sort_by_key(|m| m.on.axes != Axes::IopsAndMbps);
    out
}

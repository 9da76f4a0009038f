//! A VM's disk limits: its own uncached and cached caps, and the caps it publishes for some disk
//! kinds or one controller only, which a disk of that kind gets instead.

use super::{Caps, Disk, Vm};
use serde::{Deserialize, Serialize};

/// A VM's cap for the disks it names (kinds or names), on one controller if it says which.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VmCaps {
    #[serde(default)]
    pub disks: Vec<String>,
    /// "NVMe" or "SCSI"; none: either.
    pub controller: Option<String>,
    pub iops: Option<f64>,
    pub mbps: Option<f64>,
    pub read_iops: Option<f64>,
    pub write_iops: Option<f64>,
    pub read_mbps: Option<f64>,
    pub write_mbps: Option<f64>,
    pub burst_iops: Option<f64>,
    pub burst_mbps: Option<f64>,
    /// The machine types it holds for, where narrower than the row (GCP's pd-extreme).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machine_types: Vec<String>,
}

impl VmCaps {
    /// One figure for a mix of reads and writes: the combined cap where published, else the
    /// lower of the read and write caps, so a plan never promises what one direction lacks.
    fn one(both: Option<f64>, read: Option<f64>, write: Option<f64>) -> Option<f64> {
        both.or(match (read, write) {
            (Some(r), Some(w)) => Some(r.min(w)),
            (r, w) => r.or(w),
        })
    }

    pub(super) fn figures(&self) -> [(&'static str, Option<f64>); 8] {
        [
            ("iops", self.iops),
            ("mbps", self.mbps),
            ("read_iops", self.read_iops),
            ("write_iops", self.write_iops),
            ("read_mbps", self.read_mbps),
            ("write_mbps", self.write_mbps),
            ("burst_iops", self.burst_iops),
            ("burst_mbps", self.burst_mbps),
        ]
    }

    pub fn caps(&self) -> Option<Caps> {
        Some(Caps {
            iops: Self::one(self.iops, self.read_iops, self.write_iops)?,
            mbps: Self::one(self.mbps, self.read_mbps, self.write_mbps)?,
        })
    }

    fn fits(&self, d: &Disk, controller: Option<&str>) -> bool {
        let named = self.disks.is_empty()
            || self.disks.iter().any(|k| k.eq_ignore_ascii_case(&d.kind) || k.eq_ignore_ascii_case(&d.name));
        named
            && controller.is_none_or(|c| self.controller.as_deref().is_none_or(|x| x.eq_ignore_ascii_case(c)))
            && (controller.is_some() || self.controller.as_deref().is_none_or(|x| x.eq_ignore_ascii_case("SCSI")))
    }
}

impl Vm {
    pub(super) fn figures(&self) -> [(&'static str, Option<f64>); 11] {
        [
            ("memory_gib", self.memory_gib),
            ("burst_bucket_min", self.burst_bucket_min),
            ("burst_daily_min", self.burst_daily_min),
            ("cached_iops", self.cached_iops),
            ("cached_mbps", self.cached_mbps),
            ("cache_gib", self.cache_gib),
            ("uncached_iops", self.uncached_iops),
            ("uncached_mbps", self.uncached_mbps),
            ("burst_iops", self.burst_iops),
            ("burst_mbps", self.burst_mbps),
            ("price_hour", self.price_hour),
        ]
    }

    /// The caps disks of this VM share: uncached, or the host cache's when `cached`.
    pub fn caps(&self, cached: bool) -> Option<Caps> {
        let (i, m) =
            if cached { (self.cached_iops, self.cached_mbps) } else { (self.uncached_iops, self.uncached_mbps) };
        Some(Caps { iops: i?, mbps: m? })
    }

    /// The uncached caps disks of kind `d` share on this VM, on `controller` (None: the one a
    /// VM gets by default, SCSI where it has both), and what they burst to: the first `caps`
    /// entry naming the disk, else the row's own. None: this VM cannot carry such disks, or
    /// publishes no cap for them.
    pub fn caps_for(&self, d: &Disk, controller: Option<&str>) -> Option<(Caps, Option<Caps>)> {
        if self.disk.as_deref().is_some_and(|x| !x.eq_ignore_ascii_case(&d.name)) {
            return None;
        }
        if let Some(e) = self.caps.iter().find(|e| !e.disks.is_empty() && e.fits(d, controller)) {
            let c = e.caps()?;
            let burst = (e.burst_iops.is_some() || e.burst_mbps.is_some()).then(|| Caps {
                iops: e.burst_iops.unwrap_or(c.iops).max(c.iops),
                mbps: e.burst_mbps.unwrap_or(c.mbps).max(c.mbps),
            });
            return Some((c, burst));
        }
        // A row whose caps are all per disk type (GCP) publishes none for other types; a
        // controller the row does not have is not there to choose.
        let has_controller =
            |c: &str| self.caps.iter().any(|e| e.controller.as_deref().is_some_and(|x| x.eq_ignore_ascii_case(c)));
        if controller.is_some_and(|c| !c.eq_ignore_ascii_case("SCSI") && !has_controller(c)) {
            return None;
        }
        let c = self.caps(false)?;
        let burst = match (self.burst_iops, self.burst_mbps) {
            (None, None) => None,
            (i, m) => Some(Caps { iops: i.unwrap_or(c.iops).max(c.iops), mbps: m.unwrap_or(c.mbps).max(c.mbps) }),
        };
        Some((c, burst))
    }

    /// The controllers this row publishes caps apart for (Ebsv5: NVMe beside SCSI); empty when
    /// it has one set.
    pub fn controllers(&self) -> Vec<String> {
        let mut v: Vec<String> = self.caps.iter().filter_map(|e| e.controller.clone()).collect();
        v.sort();
        v.dedup();
        v
    }
}

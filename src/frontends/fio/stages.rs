//! fio's latency-stage options (slat_percentiles, clat_percentiles, lat_percentiles,
//! unified_rw_reporting) and its per-I/O priorities (cmdprio_percentage, cmdprio_class,
//! cmdprio, cmdprio_bssplit), as a job collects them and as they settle into the spec.

use super::values::{block, boolean, per_dir};
use crate::workload::stages::{ioprio, CmdPrio, LatStages, PrioShare, CLASS_RT};

use super::error::{JobError, R};

#[derive(Default)]
pub(super) struct FioStages {
    stages: Option<LatStages>,
    /// cmdprio_percentage per direction.
    pct: Option<[u64; 2]>,
    class: Option<[u64; 2]>,
    level: [u64; 2],
    bssplit: Option<String>,
}

impl FioStages {
    /// Applies one of this file's options; `kb` is the job's kb_base.
    pub(super) fn set(&mut self, key: &str, v: &str, kb: u64) -> R<()> {
        let mut st = self.stages.unwrap_or_default();
        match key {
            "slat_percentiles" => st.slat = boolean(v)?,
            "clat_percentiles" => st.clat = boolean(v)?,
            "lat_percentiles" => st.lat = boolean(v)?,
            "unified_rw_reporting" => {
                st.unified = match v {
                    "mixed" | "1" => true,
                    "none" | "0" => false,
                    "both" | "2" => {
                        return Err(format!(
                    "'{v}': reporting both the directions and their sum is not supported by iolens; use none or mixed"
                )
                        .into())
                    }
                    _ => return Err(format!("'{v}' is not none, mixed, both, 0, 1 or 2").into()),
                }
            }
            "cmdprio_percentage" => {
                let p = per_dir(v, 0, |s| num(s, 100))?;
                self.pct = Some(p);
                return Ok(());
            }
            "cmdprio_class" => {
                self.class = Some(per_dir(v, 0, |s| {
                    num(s, 3).and_then(|c| if c == 0 { Err("0 is not a class (1 to 3)".into()) } else { Ok(c) })
                })?);
                return Ok(());
            }
            "cmdprio" => {
                self.level = per_dir(v, 0, |s| num(s, 7))?;
                return Ok(());
            }
            "cmdprio_bssplit" => {
                // Checked now, so that a bad share is refused on its own line.
                let (r, w) = v.split_once(',').unwrap_or((v, v));
                for d in [r, w] {
                    CmdPrio::parse_bssplit(d, CLASS_RT, 0, |s| block(s, kb))?;
                }
                self.bssplit = Some(v.to_string());
                return Ok(());
            }
            _ => return Err("is not supported by iolens".into()),
        }
        self.stages = Some(st);
        Ok(())
    }

    /// The stages the job reports, when it named any.
    pub(super) fn stages(&self) -> Option<LatStages> {
        self.stages
    }

    /// The job's cmdprio, when it asked for one; `kb` reads the bssplit's sizes.
    pub(super) fn cmdprio(&self, kb: u64) -> R<Option<CmdPrio>> {
        let class = self.class.map_or([CLASS_RT; 2], |c| c.map(|c| c as u16));
        let level = self.level.map(|l| l as u16);
        let mut out = CmdPrio::default();
        match (&self.bssplit, self.pct) {
            (Some(_), Some(_)) => {
                let why = "cmdprio_percentage and cmdprio_bssplit are mutually exclusive (in fio too)";
                return Err(JobError::of("cmdprio_bssplit", why));
            }
            (Some(v), None) => {
                let (r, w) = v.split_once(',').unwrap_or((v, v));
                out.read = CmdPrio::parse_bssplit(r, class[0], level[0], |s| block(s, kb))?;
                out.write = CmdPrio::parse_bssplit(w, class[1], level[1], |s| block(s, kb))?;
            }
            (None, Some(p)) => {
                for (d, dir) in [&mut out.read, &mut out.write].into_iter().enumerate() {
                    if p[d] > 0 {
                        dir.push(PrioShare { bs: None, pct: p[d] as u8, ioprio: ioprio(class[d], level[d]) });
                    }
                }
            }
            (None, None) => return Ok(None),
        }
        Ok((!out.read.is_empty() || !out.write.is_empty()).then_some(out))
    }
}

fn num(s: &str, max: u64) -> Result<u64, String> {
    s.trim().parse::<u64>().ok().filter(|&n| n <= max).ok_or_else(|| format!("'{s}' is not a number from 0 to {max}"))
}

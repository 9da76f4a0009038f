//! What a worker keeps of fio's latency stages (see `workload::stages`) and of its per-I/O
//! priorities: histograms per fio direction (read, write, trim), allocated only for jobs that
//! ask, so the plain path carries none.

use crate::engine::OpKind;
use crate::result::{PrioLat, Stages};
use crate::stats::LatRec;
use crate::workload::stages::CmdPrio;
use crate::workload::Spec;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// fio's data direction of an operation; fsyncs have their own record.
#[inline]
pub(super) fn ddir(op: OpKind) -> Option<usize> {
    match op {
        OpKind::Read => Some(0),
        OpKind::Write => Some(1),
        OpKind::Trim => Some(2),
        OpKind::Flush => None,
    }
}

pub struct StageRecs {
    /// Queued → submitted; none on an engine that does the I/O in the submitting call.
    slat: Option<Box<[LatRec; 3]>>,
    /// Queued (or due, when paced) → completed.
    lat: Option<Box<[LatRec; 3]>>,
    /// Per priority (`CmdPrio::levels` order): lat where the job reports lat percentiles,
    /// else clat, as fio's per-priority figures.
    prio: Vec<[LatRec; 3]>,
    prio_lat: bool,
}

impl StageRecs {
    /// The records `spec` asks for on an engine that is `synchronous` or not; None when it
    /// asks for none.
    pub fn new(spec: &Spec, synchronous: bool) -> Option<Box<StageRecs>> {
        if spec.stages.is_none() && spec.cmdprio.is_none() {
            return None;
        }
        let three = || Box::new([LatRec::default(), LatRec::default(), LatRec::default()]);
        let kept = spec.stages.is_some();
        Some(Box::new(StageRecs {
            slat: (kept && !synchronous).then(three),
            lat: kept.then(three),
            prio: (0..spec.cmdprio.as_ref().map_or(0, |c| c.levels().len())).map(|_| Default::default()).collect(),
            prio_lat: spec.stages.is_some_and(|s| s.lat),
        }))
    }

    /// Records one completed I/O of direction `d`: its stages (ns) and its priority's figure.
    #[inline]
    pub fn record(&mut self, d: usize, slat: u64, clat: u64, lat: u64, prio: u8) {
        if let Some(s) = &mut self.slat {
            s[d].record(slat);
        }
        if let Some(l) = &mut self.lat {
            l[d].record(lat);
        }
        if let Some(p) = self.prio.get_mut(prio as usize) {
            p[d].record(if self.prio_lat { lat } else { clat });
        }
    }

    pub fn prefault(&mut self) {
        let all = self.slat.iter_mut().chain(self.lat.iter_mut()).flat_map(|b| b.iter_mut());
        all.chain(self.prio.iter_mut().flatten()).for_each(LatRec::prefault);
    }

    /// The workers' records merged into the result's stages; `levels` are the priorities of
    /// `prio`, in order.
    pub fn merged<'a>(recs: impl Iterator<Item = &'a StageRecs>, levels: &[u16]) -> Option<Stages> {
        let mut recs = recs.peekable();
        let first = recs.peek()?;
        let mut slat: Option<[LatRec; 3]> = first.slat.as_ref().map(|_| Default::default());
        let mut lat: Option<[LatRec; 3]> = first.lat.as_ref().map(|_| Default::default());
        let mut prio: Vec<[LatRec; 3]> = (0..first.prio.len()).map(|_| Default::default()).collect();
        for r in recs {
            add(&mut slat, &r.slat);
            add(&mut lat, &r.lat);
            for (all, one) in prio.iter_mut().zip(&r.prio) {
                all.iter_mut().zip(one.iter()).for_each(|(a, b)| *a += b);
            }
        }
        let dump = |x: Option<[LatRec; 3]>| x.map(|a| a.map(|r| r.dump()));
        let mut prios = Vec::new();
        for (level, per_dir) in levels.iter().zip(&prio) {
            for (d, rec) in per_dir.iter().enumerate() {
                if rec.count() > 0 {
                    prios.push(PrioLat { ddir: d as u8, ioprio: *level, lat: rec.dump() });
                }
            }
        }
        Some(Stages { slat: dump(slat), lat: dump(lat), prios })
    }
}

fn add(all: &mut Option<[LatRec; 3]>, one: &Option<Box<[LatRec; 3]>>) {
    if let (Some(a), Some(o)) = (all, one) {
        a.iter_mut().zip(o.iter()).for_each(|(x, y)| *x += y);
    }
}

/// Draws each I/O's priority as fio's cmdprio does (a percentage per direction, or per block
/// size), from a generator of its own so that the workload's offsets do not change with it.
pub struct PrioPick {
    prio: CmdPrio,
    levels: Vec<u16>,
    rng: SmallRng,
}

impl PrioPick {
    pub fn new(spec: &Spec, seed: u64) -> Option<PrioPick> {
        let prio = spec.cmdprio.clone()?;
        let levels = prio.levels();
        Some(PrioPick { prio, levels, rng: SmallRng::seed_from_u64(seed ^ 0x7072_696f) })
    }

    /// The priority of the next I/O: its index among the levels, and its value.
    #[inline]
    pub fn next(&mut self, op: OpKind, len: u32) -> (u8, u16) {
        if !matches!(op, OpKind::Read | OpKind::Write) {
            return (0, 0);
        }
        let draw = self.rng.random_range(0..100u8);
        let p = self.prio.pick(op == OpKind::Write, len, draw);
        (self.levels.iter().position(|&l| l == p).unwrap_or(0) as u8, p)
    }
}

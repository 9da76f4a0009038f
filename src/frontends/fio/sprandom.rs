//! fio's sprandom options (sprandom, spr_op, spr_num_regions, spr_cs) and what fio requires
//! with them: random writes, its lfsr generator and no random map, one file.

use super::error::{JobError, R};
use crate::workload::sprandom::Settings;
use crate::workload::{Pattern, RandomDist, Spec};

#[derive(Debug, Clone)]
pub(super) struct FioSprandom {
    pub(super) on: bool,
    pub(super) settings: Settings,
    /// random_generator as given: whether it was lfsr.
    pub(super) lfsr_named: Option<bool>,
    /// norandommap as given.
    pub(super) no_map_named: Option<bool>,
}

impl Default for FioSprandom {
    fn default() -> Self {
        FioSprandom {
            on: false,
            settings: Settings { op: 0.15, regions: 100, cache: 0 },
            lfsr_named: None,
            no_map_named: None,
        }
    }
}

impl FioSprandom {
    /// Puts sprandom in the spec, or says why fio would refuse it. True when it is on (the
    /// job then has no random map and no lfsr of its own: sprandom's stream replaces them).
    pub(super) fn settle(&self, s: &mut Spec, nrfiles: u64, notes: &mut Vec<String>) -> R<bool> {
        if !self.on {
            return Ok(false);
        }
        let all = "needs random writes (rw=randwrite or randrw), random_generator=lfsr and norandommap=1";
        if s.pattern != Pattern::Random || !s.writes() {
            return Err(JobError::of("sprandom", all));
        }
        match self.lfsr_named {
            Some(false) => return Err(JobError::of("sprandom", "requires random_generator=lfsr")),
            Some(true) => {}
            None => notes.push("sprandom sets random_generator=lfsr".into()),
        }
        match self.no_map_named {
            Some(false) => return Err(JobError::of("sprandom", "requires norandommap=1")),
            Some(true) => {}
            None => notes.push("sprandom sets norandommap=1".into()),
        }
        // Several files named in filename= are counted once the files are known.
        if nrfiles > 1 {
            return Err(JobError::of("sprandom", "supports only one file"));
        }
        s.random_dist = RandomDist::SpRandom(self.settings);
        Ok(true)
    }
}

#[cfg(test)]
mod tests;

//! A fio job as its options leave it, and how that becomes a [`Spec`]: fio's defaults (read, 4k,
//! iodepth 1, numjobs 1, buffered, psync), its per-direction `read,write` values settled into
//! iolens' one setting for both where they agree, rates summed over numjobs, and a note wherever
//! iolens runs the job differently from fio. Errors are one line, "option: why".

use crate::workload::{BlockShare, EngineKind, MinRate, Pattern, Spec, ThinkTime};

use super::error::{fio_name, JobError, R};

/// A job's options turned into a spec.
pub(super) struct Built {
    pub name: String,
    pub spec: Spec,
    pub notes: Vec<String>,
    pub ran: super::Ran,
    /// numjobs when its clones are reported apart (no group_reporting), else 1.
    pub clones: u32,
    pub group_reporting: bool,
    pub stonewall: bool,
    pub new_group: bool,
    pub exitall: bool,
    pub wait_for: Option<String>,
    pub allow_file_create: bool,
    pub size_pct: Option<u32>,
    /// The job ends when its files' bytes are done this many times (fio's `size` with `loops`,
    /// not time_based, no io_size or number_ios): the count is set once the files are known.
    pub size_passes: Option<u64>,
    pub unlink: bool,
    pub hist: Option<crate::workload::iolog::HistLog>,
}

/// A fio job as its options so far leave it: fio's defaults, then each option applied in turn.
#[derive(Default)]
pub(super) struct Job {
    pub(super) kb: u64,
    pub(super) name: String,
    pub(super) spec: Spec,
    pub(super) notes: Vec<String>,
    /// What ran in place of an option as written (`None`: nothing did), for fio's JSON.
    pub(super) ran: super::Ran,
    pub(super) mixed: bool,
    pub(super) rwmix: u32,
    pub(super) bs: [u64; 2],
    pub(super) split: [Option<Vec<BlockShare>>; 2],
    /// bsrange's ends as given, and bs_unaligned: any length between them, not only multiples.
    pub(super) range: [Option<(u64, u64)>; 2],
    pub(super) unaligned: bool,
    pub(super) align: [u64; 2],
    pub(super) files: Vec<String>,
    pub(super) dirs: Vec<String>,
    pub(super) filename_format: Option<String>,
    pub(super) size: Option<u64>,
    pub(super) size_pct: Option<u32>,
    pub(super) filesize: Option<u64>,
    pub(super) runtime: f64,
    pub(super) time_based: bool,
    pub(super) rate: [u64; 2],
    pub(super) rate_iops: [u64; 2],
    pub(super) rate_min: [u64; 2],
    pub(super) rate_iops_min: [u64; 2],
    pub(super) batch: Option<u32>,
    pub(super) nrfiles: u64,
    pub(super) group_reporting: bool,
    pub(super) stonewall: bool,
    pub(super) new_group: bool,
    pub(super) norandommap: bool,
    pub(super) spr: super::sprandom::FioSprandom,
    /// fio's random_generator=lfsr: a full-period sequence, every block once, map or none.
    pub(super) lfsr: bool,
    pub(super) seq_stride: bool,
    /// The numjobs clone (jobnum) this job is, and of how many, when clones are reported apart.
    pub(super) clone: Option<(u32, u32)>,
    pub(super) exitall: bool,
    pub(super) wait_for: Option<String>,
    pub(super) allow_file_create: bool,
    pub(super) rate_cycle: u64,
    pub(super) think: ThinkTime,
    pub(super) think_blocks: Option<u32>,
    pub(super) io_size: Option<u64>,
    pub(super) number_ios: Option<u64>,
    /// fio's `loops`: the job's I/O done this many times over (0 as 1).
    pub(super) loops: u64,
    /// fio's `unlink`: remove the files the job made when it ends.
    pub(super) unlink: bool,
    pub(super) verify: super::verify::FioVerify,
    pub(super) flow: crate::workload::Flow,
    /// fio's `ss` (its default when unset), `ss_dur` and `ss_ramp`, s; a duration of 0 is off.
    pub(super) steady: (Option<String>, f64, f64),
    /// fio's zonemode=strided, zonerange, zonesize and zoneskip.
    pub(super) zones: (bool, u64, u64, u64),
    pub(super) logs: crate::workload::iolog::IoLogs,
    pub(super) stages: super::stages::FioStages,
    /// fio's randrepeat (allrandrepeat its alias, as in fio's current options.c) and whether randseed
    /// was given: either makes the random sequences repeat from run to run.
    pub(super) repeat: (bool, bool),
    /// fio's file_service_type and its `:N`.
    pub(super) service: (crate::workload::ServiceKind, u32),
    pub(super) hist: super::hist::HistOpts,
    pub(super) replay: FioReplay,
}

impl Job {
    /// A job named after its section, at fio's defaults; `kb` is its kb_base.
    pub(super) fn new(section: &str, kb: u64, stonewall: bool) -> Job {
        let spec = Spec {
            pattern: Pattern::Sequential,
            read_pct: 100,
            direct: false,
            engine: EngineKind::Psync,
            ..Spec::default()
        };
        Job {
            kb,
            name: section.to_string(),
            spec,
            stonewall,
            rwmix: 50,
            bs: [4096; 2],
            nrfiles: 1,
            allow_file_create: true,
            rate_cycle: 1000,
            repeat: (true, false),
            service: (crate::workload::ServiceKind::RoundRobin, 1),
            ..Job::default()
        }
    }

    /// fio's random map (and its lfsr generator): every block once per pass, which iolens
    /// does for uniform offsets; and with randrepeat=0 (unless randseed pins
    /// it) a seed of the run's own.
    fn randomness(&mut self) -> R<()> {
        if self.repeat == (false, false) {
            self.spec.seed = fresh_seed();
        }
        let k = u64::from(self.clone.map_or(0, |c| c.0));
        self.spec.seed = self.spec.seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let s = &mut self.spec;
        if let crate::workload::RandomDist::Sequence { stride, .. } = &mut s.random_dist {
            *stride = self.seq_stride;
        }
        let spr = self.spr.settle(s, self.nrfiles, &mut self.notes)?;
        s.random_map = s.pattern == Pattern::Random && (!self.norandommap || self.lfsr) && !spr;
        if s.random_map && s.random_dist != crate::workload::RandomDist::Uniform {
            self.notes.push(
                "random map: fio hits each block once per pass; iolens does so for uniform offsets, and draws these \
                 independently"
                    .into(),
            );
        }
        Ok(())
    }

    /// fio's steady state (`ss`, its default when unset); a duration under 1 s is off.
    fn steady_state(&self) -> R<Option<crate::workload::SteadyState>> {
        let (how, dur, ramp) = &self.steady;
        if *dur < 1.0 {
            return Ok(None);
        }
        let how = how.as_deref().unwrap_or("iops_slope:0.01%");
        Ok(Some(crate::workload::SteadyState::parse(how, *dur as u32, *ramp)?))
    }

    /// fio's strided zones: a zone range of 0 is the zone size, as in fio.
    fn strided(&self) -> R<Option<crate::workload::Strided>> {
        let (on, range, size, skip) = self.zones;
        if !on {
            return Ok(None);
        }
        if size == 0 {
            return Err(JobError::of("zonesize", "zonemode=strided needs a zone size above 0"));
        }
        let range = if range == 0 { size } else { range };
        Ok(Some(crate::workload::Strided { range, size, skip }))
    }

    /// The job's verification; true when a verify_only job reads each block once (its writes
    /// are walked, not issued, and what they wrote is read).
    fn settle_verify(&mut self) -> R<bool> {
        let sizes = |b: &[crate::workload::BlockShare]| {
            let s = b.iter().map(|b| b.size);
            (s.clone().min().unwrap_or(4096), s.max().unwrap_or(4096))
        };
        let (min_w, max_w) = sizes(self.spec.write_blocks.as_ref().unwrap_or(&self.spec.blocks));
        // fio compares the interval with the read block in a job that reads only.
        let min_r = if self.spec.read_pct > 0 { sizes(&self.spec.blocks).0 } else { u64::MAX };
        let bs = (min_w, max_w, min_r);
        let verify = self.verify.finish(bs, self.spec.writes(), (&mut self.notes, &mut self.ran))?;
        let mut once = false;
        if verify.as_ref().and_then(|v| v.fio.as_ref()).is_some_and(|f| f.only) {
            let s = &mut self.spec;
            // fio keeps the latest write per offset where writes may overlap (a pure write job
            // wrapping over its files): each block is checked once, not once per pass.
            once = s.read_pct == 0 && !s.trim && !self.norandommap;
            if let Some(w) = s.write_blocks.take() {
                s.blocks = w;
            }
            (s.read_pct, s.trim, s.trim_write) = (100, false, false);
        }
        self.spec.verify = verify;
        Ok(once)
    }

    /// fio's latency stages and per-I/O priorities (stages.rs), the latter on engines that take
    /// a priority per I/O only.
    fn settle_stages(&mut self) -> R<()> {
        (self.spec.stages, self.spec.cmdprio) = (self.stages.stages(), self.stages.cmdprio(self.kb)?);
        if self.spec.cmdprio.is_some() && self.spec.engine != EngineKind::IoUring {
            let why = "per-I/O priorities are an option of ioengine=libaio and io_uring (in fio too)";
            return Err(JobError::of("cmdprio_percentage", why));
        }
        Ok(())
    }

    pub(super) fn note(&mut self, s: impl Into<String>) {
        self.notes.push(s.into());
    }

    /// rate and rate_iops, per direction and per job in fio; iolens caps the whole run, so the
    /// figure is over numjobs and a mix's two caps become one.
    fn settle_rates(&mut self) -> R<()> {
        let (s, notes) = (&mut self.spec, &mut self.notes);
        let (rp, jobs) = (s.read_pct, s.threads as f64);
        let mut rate = |what: &str, v: [u64; 2]| -> R<Option<f64>> {
            Ok(match (rp, v) {
                (_, [0, 0]) => None,
                (100, [r, _]) | (0, [_, r]) => (r > 0).then_some(r as f64 * jobs),
                (_, [r, w]) if r > 0 && w > 0 => {
                    notes.push(format!("{what}: fio caps reads and writes separately; iolens caps their sum"));
                    Some(r.saturating_add(w) as f64 * jobs)
                }
                _ => {
                    let why = "capping only reads or only writes of a mix is not supported by iolens";
                    return Err(JobError::of(what, why));
                }
            })
        };
        s.rate_mbps = rate("rate", self.rate)?.map(|b| b / 1e6);
        s.rate_iops = rate("rate_iops", self.rate_iops)?;
        if s.rate_mbps.is_some() && s.rate_iops.is_some() {
            return Err(JobError::of("rate_iops", "rate and rate_iops are mutually exclusive (in fio too)"));
        }
        Ok(())
    }

    /// Settles what depends on several options (per-direction values, rates over numjobs, the
    /// runtime, the files) and checks the spec.
    pub(super) fn finish(mut self) -> R<Built> {
        let s = &mut self.spec;
        let clones = if self.group_reporting || self.clone.is_some() { 1 } else { s.threads };
        if let Some(c) = &mut self.clone {
            // A clone is its job's worker k alone (its files place it, and its seed sets it apart).
            (c.1, s.threads) = (s.threads, 1);
        }
        if self.mixed {
            s.read_pct = self.rwmix;
        }
        let rp = s.read_pct;
        let pick = |what: &str, r: String, w: String| -> R<()> {
            match rp {
                0 | 100 => Ok(()),
                _ if r == w => Ok(()),
                _ => Err(JobError::of(what, format!("reads use {r} and writes {w}; iolens uses one setting for both"))),
            }
        };
        let mut blocks =
            [0, 1].map(|d| self.split[d].clone().unwrap_or(vec![BlockShare { size: self.bs[d], pct: 100 }]));
        s.unaligned = self.unaligned && self.split.iter().zip(&self.range).any(|(s, r)| s.is_some() && r.is_some());
        // More sizes than whole percents share out: drawn between the range's ends.
        s.ranged = !s.unaligned && self.range.iter().flatten().any(|&(lo, hi)| hi / lo > 100);
        if s.unaligned || s.ranged {
            unaligned_ends(&self.range, &mut blocks);
        }
        s.blocks = blocks[usize::from(rp == 0)].clone();
        // A mix whose writes use other sizes than its reads keeps both.
        s.write_blocks = (rp > 0 && rp < 100 && blocks[0] != blocks[1]).then(|| blocks[1].clone());
        pick("ba", self.align[0].to_string(), self.align[1].to_string())?;
        let align = self.align[usize::from(rp == 0)];
        s.align = (align > 0).then_some(align);
        self.settle_rates()?;
        let s = &mut self.spec;
        s.batch = match self.batch {
            Some(0) => s.qd,
            Some(n) => n,
            None => 1,
        };
        // As fio: a job that is not time_based ends when its bytes (io_size, else its files'
        // size; times loops) or its number_ios are done, or at its runtime if it has one.
        s.duration = if self.runtime > 0.0 { self.runtime } else { UNTIMED };
        let loops = self.loops.max(1);
        let mut size_passes = None;
        if !self.time_based {
            (s.io_limit, s.number_ios) = (self.io_size.map(|b| b.saturating_mul(loops)), self.number_ios);
            size_passes = (self.io_size.is_none() && self.number_ios.is_none()).then_some(loops);
        } else if self.runtime <= 0.0 {
            return Err(JobError::of("time_based", "needs a runtime (fio would run forever)"));
        }
        if self.think.us > 0 {
            // thinktime_iotime alone: time decides, not a count of I/Os (fio's reading too).
            let blocks = self.think_blocks.unwrap_or(if self.think.iotime_us > 0 { 0 } else { 1 });
            s.think = Some(ThinkTime { blocks, ..self.think });
        }
        s.flow = (self.flow.weight > 0).then_some(self.flow);
        self.logs.check().map_err(|c| JobError::of(c.option, c.why))?;
        s.logs = std::mem::take(&mut self.logs).settle(&self.name);
        let hist = self.hist.settle(&self.name, s.threads, &mut s.logs)?;
        self.spec.steady = self.steady_state()?;
        self.spec.strided = self.strided()?;
        // Verification and the random map first: how the files are served depends on both.
        if self.settle_verify()? && !self.time_based && size_passes.is_none() && self.number_ios.is_none() {
            size_passes = Some(1);
        }
        self.settle_stages()?;
        self.randomness()?;
        let replayed = self.settle_replay()?;
        let s = &mut self.spec;
        super::engines::settle_io(s, &mut self.notes);
        let cycle_ms = self.rate_cycle.div_ceil(1000) * 1000;
        let min_rate = MinRate { bytes: self.rate_min, iops: self.rate_iops_min, cycle_ms };
        s.min_rate = (min_rate.bytes != [0, 0] || min_rate.iops != [0, 0]).then_some(min_rate);
        if s.min_rate.is_some() && cycle_ms != self.rate_cycle {
            let c = self.rate_cycle;
            self.notes.push(format!("rate_cycle={c}: iolens checks rate_min over whole seconds, every {cycle_ms} ms"));
        }
        unaligned_fits(s)?;
        s.validate().map_err(|e| JobError::of(fio_name(&e.option), e.message))?;
        Ok(Built {
            name: self.name,
            spec: self.spec,
            notes: self.notes,
            ran: self.ran,
            clones,
            group_reporting: self.group_reporting,
            stonewall: self.stonewall,
            new_group: self.new_group,
            exitall: self.exitall,
            wait_for: self.wait_for,
            allow_file_create: self.allow_file_create,
            size_pct: self.size_pct,
            size_passes: size_passes.filter(|_| !replayed),
            unlink: self.unlink,
            hist,
        })
    }
}

/// A seed no earlier run used: fio's randrepeat=0 seeds from the system's entropy, which
/// std's hasher keys come from; the clock tells apart two processes that got the same keys.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    h.write_u128(now.as_nanos());
    h.finish()
}

/// The longest a run may last: a fio job without a runtime ends when its I/O is done.
const UNTIMED: f64 = 30.0 * 86400.0;

/// The job's replay options as written; `log` set means the job replays.
#[derive(Default)]
pub(super) struct FioReplay {
    pub(super) log: Option<String>,
    pub(super) no_stall: bool,
    pub(super) time_scale: Option<String>,
    pub(super) redirect: Option<String>,
    pub(super) align: Option<String>,
    pub(super) scale: Option<String>,
}

/// bs_unaligned on a bsrange: the range's two ends are the bounds the length is drawn between
/// (fio's draw caps at the high end, which is not a multiple of the low one).
fn unaligned_ends(range: &[Option<(u64, u64)>; 2], blocks: &mut [Vec<BlockShare>; 2]) {
    for (b, r) in blocks.iter_mut().zip(range) {
        if let Some((lo, hi)) = *r {
            *b = vec![BlockShare { size: lo, pct: 50 }, BlockShare { size: hi, pct: 50 }];
            b.dedup_by_key(|b| b.size);
            b[0].pct = 100 / b.len() as u32;
        }
    }
}

/// Lengths of any byte count suit buffered I/O only, and iolens verifies whole blocks.
fn unaligned_fits(s: &Spec) -> R<()> {
    if s.unaligned && s.direct {
        return Err(JobError::of("bs_unaligned", "direct=1 needs whole sectors; bs_unaligned needs direct=0"));
    }
    if s.unaligned && s.verify.is_some() {
        return Err(JobError::of("bs_unaligned", "iolens verifies whole blocks; use verify or bs_unaligned"));
    }
    Ok(())
}

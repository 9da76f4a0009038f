//! What each fio option means for a [`Spec`]: fio's defaults (read, 4k, iodepth 1, numjobs 1,
//! buffered, psync), its number syntax (parse.c `str_to_decimal`: k/m/g/t/p are powers of
//! kb_base, kib/mib/… of the other base, 0x hex; times default to seconds) and its per-direction
//! `read,write` values. Errors are one line, "option: why", naming what iolens cannot do.

use super::names::{canonical, fio_name, FLAGS};
use super::unapplied::{engine, note, noted};
use super::Opt;
use crate::workload::{BlockShare, DataPattern, EngineKind, MinRate, OnError, Pattern, RateProcess, Spec};
use crate::workload::{StartDelay, ThinkTime};

use super::values::u32v;
use super::values::{
    block, boolean, bssplit, buffer_pattern, distribution, fixed_range, int, micros, names, pct, per_dir, time,
};

type R<T> = Result<T, String>;

/// A job's options turned into a spec.
pub(super) struct Built {
    pub name: String,
    pub spec: Spec,
    pub notes: Vec<String>,
    pub group_reporting: bool,
    pub stonewall: bool,
    pub new_group: bool,
    pub exitall: bool,
    pub wait_for: Option<String>,
    pub allow_file_create: bool,
    pub size_pct: Option<u32>,
}

/// Applies `opts` (globals first) in order, later values winning, as fio does.
pub(super) fn build(section: &str, opts: &[Opt], stonewall: bool) -> R<Built> {
    let kb = match opts.iter().rev().find(|(k, _)| k == "kb_base").and_then(|(_, v)| v.as_deref()) {
        None | Some("1024") => 1024,
        Some("1000") => 1000,
        Some(v) => return Err(format!("kb_base: '{v}' is not 1000 or 1024")),
    };
    let spec = Spec {
        pattern: Pattern::Sequential,
        read_pct: 100,
        direct: false,
        engine: EngineKind::Psync,
        ..Spec::default()
    };
    let mut j = Job {
        kb,
        name: section.to_string(),
        spec,
        stonewall,
        rwmix: 50,
        bs: [4096; 2],
        nrfiles: 1,
        allow_file_create: true,
        rate_cycle: 1000,
        ..Job::default()
    };
    for (k, v) in opts {
        j.apply(canonical(k).unwrap_or(""), v.as_deref()).map_err(|m| format!("{k}: {m}"))?;
    }
    j.finish()
}

#[derive(Default)]
pub(super) struct Job {
    kb: u64,
    pub(super) name: String,
    pub(super) spec: Spec,
    pub(super) notes: Vec<String>,
    mixed: bool,
    rwmix: u32,
    bs: [u64; 2],
    split: [Option<Vec<BlockShare>>; 2],
    align: [u64; 2],
    pub(super) files: Vec<String>,
    pub(super) dirs: Vec<String>,
    pub(super) filename_format: Option<String>,
    pub(super) size: Option<u64>,
    pub(super) size_pct: Option<u32>,
    pub(super) filesize: Option<u64>,
    runtime: f64,
    time_based: bool,
    rate: [u64; 2],
    rate_iops: [u64; 2],
    rate_min: [u64; 2],
    rate_iops_min: [u64; 2],
    batch: Option<u32>,
    pub(super) nrfiles: u64,
    group_reporting: bool,
    stonewall: bool,
    new_group: bool,
    norandommap: bool,
    exitall: bool,
    wait_for: Option<String>,
    allow_file_create: bool,
    rate_cycle: u64,
    think: ThinkTime,
    think_blocks: Option<u32>,
    io_size: Option<u64>,
    number_ios: Option<u64>,
    verify: super::verify::FioVerify,
    flow: crate::workload::Flow,
}

impl Job {
    fn apply(&mut self, key: &str, v: Option<&str>) -> R<()> {
        if noted(key).is_some() {
            if let Some(n) = note(key, v) {
                self.note(n);
            }
            return Ok(());
        }
        if FLAGS.contains(&key) {
            let on = match v {
                None => true,
                Some(s) => s.trim().parse::<i64>().map_err(|_| format!("'{s}' is not 0 or 1"))? != 0,
            };
            match key {
                "time_based" => self.time_based = on,
                "group_reporting" => self.group_reporting = on,
                "stonewall" => self.stonewall = on,
                "new_group" => self.new_group = on,
                "norandommap" => self.norandommap = on,
                "exitall" => self.exitall = on,
                "do_verify" | "verify_fatal" => self.verify.flag(key, on),
                "zero_buffers" if on => self.spec.data = DataPattern::Zero,
                "hipri" | "fixedbufs" | "registerfiles" if on => self.note(format!("{key}: accepted, not applied")),
                _ => {}
            }
            return Ok(());
        }
        let v = v.map(str::trim).filter(|s| !s.is_empty()).ok_or("needs a value")?;
        let kb = self.kb;
        match key {
            "name" => self.name = v.to_string(),
            "kb_base" => {}
            "filename" => self.files = names(v),
            "filename_format" => self.filename_format = Some(v.to_string()),
            "allow_file_create" => self.allow_file_create = boolean(v)?,
            "directory" => self.dirs = names(v),
            "size" => match v.strip_suffix('%') {
                Some(p) => (self.size, self.size_pct) = (None, Some(pct(p, kb)?.max(1))),
                None => (self.size, self.size_pct) = (Some(int(v, kb)?), None),
            },
            "filesize" => self.filesize = Some(int(v, kb)?),
            "offset" => self.spec.offset = int(v, kb)?,
            "rw" => {
                let (word, suffix) = v.split_once(':').unwrap_or((v, ""));
                self.spec.seq_skip = 0;
                if !suffix.is_empty() {
                    if word.starts_with("rand") {
                        return Err(format!("'{v}': the ':{suffix}' sequential-run count is not supported by iolens"));
                    }
                    let (sign, n) = suffix.strip_prefix('-').map_or((1, suffix), |n| (-1, n));
                    self.spec.seq_skip =
                        sign * i64::try_from(int(n, kb)?).map_err(|_| format!("'{v}' is too large"))?;
                }
                self.spec.trim = matches!(word, "trim" | "randtrim");
                let (pattern, pct, mixed) = match word {
                    "read" => (Pattern::Sequential, 100, false),
                    "write" => (Pattern::Sequential, 0, false),
                    "randread" => (Pattern::Random, 100, false),
                    "randwrite" => (Pattern::Random, 0, false),
                    "rw" | "readwrite" => (Pattern::Sequential, 50, true),
                    "randrw" => (Pattern::Random, 50, true),
                    "trim" => (Pattern::Sequential, 0, false),
                    "randtrim" => (Pattern::Random, 0, false),
                    "trimwrite" | "randtrimwrite" => {
                        return Err(format!("'{v}' is not supported by iolens (trims alone are: trim, randtrim)"))
                    }
                    _ => return Err(format!("'{v}' is not one of fio's read, write, rw, trim and their rand forms")),
                };
                (self.spec.pattern, self.spec.read_pct, self.mixed) = (pattern, pct, mixed);
            }
            "rwmixread" => self.rwmix = pct(v, kb)?,
            "rwmixwrite" => self.rwmix = 100 - pct(v, kb)?,
            "bs" => self.bs = per_dir(v, 4096, |s| block(s, kb))?,
            "bssplit" => {
                let (r, w) = v.split_once(',').unwrap_or((v, v));
                let w = w.split(',').next().unwrap_or("");
                let (r, w) = (bssplit(r, kb)?, bssplit(w, kb)?);
                self.split = [r.0, w.0];
                self.notes.extend([r.1, w.1].into_iter().flatten());
            }
            "bsrange" => {
                let (r, w) = v.split_once(',').unwrap_or((v, v));
                self.bs =
                    [fixed_range(r, self.bs[0], kb)?, fixed_range(w.split(',').next().unwrap_or(""), self.bs[1], kb)?];
            }
            "ba" => self.align = per_dir(v, 0, |s| int(s, kb))?,
            "iodepth" => self.spec.qd = u32v(v, kb)?,
            "iodepth_batch" => self.batch = Some(u32v(v, kb)?),
            "numjobs" => self.spec.threads = u32v(v, kb)?,
            "runtime" => self.runtime = time(v)?,
            "ramp_time" => self.spec.warmup = time(v)?,
            "direct" => self.spec.direct = boolean(v)?,
            "buffered" => self.spec.direct = !boolean(v)?,
            "invalidate" => _ = boolean(v)?,
            "sync" => {
                self.spec.write_through = match v {
                    "none" | "0" => false,
                    "dsync" => true,
                    "sync" | "1" => {
                        self.note("sync: fio opens with O_SYNC, iolens with O_DSYNC");
                        true
                    }
                    _ => return Err(format!("'{v}' is not none, 0, sync, 1 or dsync")),
                }
            }
            "fsync" => self.spec.fsync_every = u32v(v, kb)?,
            "rate" => self.rate = per_dir(v, 0, |s| int(s, kb))?,
            "rate_iops" => self.rate_iops = per_dir(v, 0, |s| int(s, kb))?,
            "rate_min" => self.rate_min = per_dir(v, 0, |s| int(s, kb))?,
            "rate_iops_min" => self.rate_iops_min = per_dir(v, 0, |s| int(s, kb))?,
            "rate_cycle" => self.rate_cycle = int(v, kb)?.max(1),
            "rate_process" => {
                self.spec.rate_process = match v {
                    "linear" => RateProcess::Linear,
                    "poisson" => RateProcess::Poisson,
                    _ => return Err(format!("'{v}' is not linear or poisson")),
                }
            }
            "thinktime" => self.think.us = micros(v)?,
            "thinktime_spin" => self.think.spin_us = micros(v)?,
            "thinktime_blocks" => self.think_blocks = Some(u32v(v, kb)?),
            "thinktime_iotime" => self.think.iotime_us = (time(v)? * 1e6) as u64,
            "thinktime_blocks_type" => {
                self.think.on_issue = match v {
                    "complete" => false,
                    "issue" => true,
                    _ => return Err(format!("'{v}' is not complete or issue")),
                }
            }
            // fio's FLOW_MAX_WEIGHT; 0 (its default) leaves the job out of flow control.
            "flow" => {
                self.flow.weight = u32v(v, kb)
                    .and_then(|w| if w <= 1000 { Ok(w) } else { Err(String::new()) })
                    .map_err(|_| format!("'{v}' is not a weight from 0 to 1000"))?
            }
            "flow_id" => self.flow.id = u32v(v, kb)?,
            "flow_sleep" => self.flow.sleep_us = micros(v)?,
            "startdelay" => {
                let (a, b) = v.split_once('-').unwrap_or((v, v));
                self.spec.start_delay = StartDelay { min: time(a.trim())?, max: time(b.trim())? };
                if self.spec.start_delay.max < self.spec.start_delay.min {
                    return Err(format!("'{v}': the range must go from low to high"));
                }
            }
            "offset_increment" => self.spec.offset_increment = int(v, kb)?,
            "io_size" => self.io_size = Some(int(v, kb)?),
            "number_ios" => self.number_ios = Some(int(v, kb)?),
            "continue_on_error" => {
                self.spec.on_error.go_on = OnError::parse_policy("", v).map_err(|e| e.message)?;
                if v == "verify" {
                    self.note("continue_on_error=verify: iolens does not check data, so it stops at any I/O error");
                }
            }
            "ignore_error" => {
                let mut lists = v.split(',');
                for d in 0..2 {
                    self.spec.on_error.errors[d] =
                        OnError::parse_errors("", lists.next().unwrap_or("")).map_err(|e| e.message)?;
                }
            }
            "buffer_pattern" => self.spec.data = buffer_pattern(v)?,
            "exit_what" => match v {
                "group" => {}
                "stonewall" | "all" => self.note(format!("exit_what={v}: exitall stops the jobs of its group only")),
                _ => return Err(format!("'{v}' is not group, stonewall or all")),
            },
            "wait_for" => self.wait_for = Some(v.to_string()),
            "randrepeat" if !boolean(v)? => self.note("randrepeat=0: iolens repeats its random sequence anyway"),
            "randrepeat" => {}
            "randseed" => self.spec.seed = int(v, kb)?,
            "random_distribution" => self.spec.random_dist = distribution(v)?,
            "ioengine" => {
                let (kind, n) = engine(v)?;
                self.spec.engine = kind;
                self.notes.extend(n);
            }
            "buffer_compress_percentage" => self.spec.data = DataPattern::Compress { pct: pct(v, kb)? },
            "end_fsync" if boolean(v)? => self.note("end_fsync: iolens does not fsync at the end"),
            "end_fsync" => {}
            "loops" if int(v, kb)? <= 1 => {}
            "loops" => self.note(format!("loops={v}: iolens runs once, for the runtime")),
            "nrfiles" => self.nrfiles = int(v, kb)?,
            k if k.starts_with("verify") => self.notes.extend(self.verify.set(k, v)?),
            _ => return Err("is not supported by iolens".into()),
        }
        Ok(())
    }

    fn note(&mut self, s: impl Into<String>) {
        self.notes.push(s.into());
    }

    fn finish(mut self) -> R<Built> {
        let s = &mut self.spec;
        if self.mixed {
            s.read_pct = self.rwmix;
        }
        let rp = s.read_pct;
        let pick = |what: &str, r: String, w: String| -> R<()> {
            match rp {
                0 | 100 => Ok(()),
                _ if r == w => Ok(()),
                _ => Err(format!("{what}: reads use {r} and writes {w}; iolens uses one setting for both")),
            }
        };
        let blocks = [0, 1].map(|d| self.split[d].clone().unwrap_or(vec![BlockShare { size: self.bs[d], pct: 100 }]));
        s.blocks = blocks[usize::from(rp == 0)].clone();
        // A mix whose writes use other sizes than its reads keeps both.
        s.write_blocks = (rp > 0 && rp < 100 && blocks[0] != blocks[1]).then(|| blocks[1].clone());
        pick("ba", self.align[0].to_string(), self.align[1].to_string())?;
        let align = self.align[usize::from(rp == 0)];
        s.align = (align > 0).then_some(align);
        let jobs = s.threads as f64;
        let mut rate = |what: &str, v: [u64; 2]| -> R<Option<f64>> {
            Ok(match (rp, v) {
                (_, [0, 0]) => None,
                (100, [r, _]) | (0, [_, r]) => (r > 0).then_some(r as f64 * jobs),
                (_, [r, w]) if r > 0 && w > 0 => {
                    self.notes.push(format!("{what}: fio caps reads and writes separately; iolens caps their sum"));
                    Some(r.saturating_add(w) as f64 * jobs)
                }
                _ => {
                    return Err(format!(
                        "{what}: capping only reads or only writes of a mix is not supported by iolens"
                    ))
                }
            })
        };
        s.rate_mbps = rate("rate", self.rate)?.map(|b| b / 1e6);
        s.rate_iops = rate("rate_iops", self.rate_iops)?;
        if s.rate_mbps.is_some() && s.rate_iops.is_some() {
            return Err("rate_iops: rate and rate_iops are mutually exclusive (in fio too)".into());
        }
        s.batch = match self.batch {
            Some(0) => s.qd,
            Some(n) => n,
            None => 1,
        };
        if self.runtime > 0.0 {
            s.duration = self.runtime;
            if !self.time_based && self.io_size.is_none() && self.number_ios.is_none() {
                self.notes.push("runtime without time_based: iolens runs for the runtime".into());
            }
        } else {
            s.duration = 10.0;
            let until =
                if self.io_size.is_some() || self.number_ios.is_some() { "io_size/number_ios is" } else { "size is" };
            self.notes.push(format!("no runtime: fio runs until {until} done; iolens stops after 10 s at the latest"));
        }
        // As fio: a time_based job keeps going for its runtime whatever it has done.
        if !self.time_based {
            (s.io_limit, s.number_ios) = (self.io_size, self.number_ios);
        }
        if self.think.us > 0 {
            // thinktime_iotime alone: time decides, not a count of I/Os (fio's reading too).
            let blocks = self.think_blocks.unwrap_or(if self.think.iotime_us > 0 { 0 } else { 1 });
            s.think = Some(ThinkTime { blocks, ..self.think });
        }
        s.flow = (self.flow.weight > 0).then_some(self.flow);
        self.targets()?;
        self.spec.verify = self.verify.finish(&mut self.notes);
        let s = &mut self.spec;
        if s.pattern == Pattern::Random && !self.norandommap {
            self.notes.push("random map: fio hits each block once per pass; iolens draws offsets independently".into());
        }
        if !s.direct {
            self.notes.push("direct=0 (fio's default): buffered I/O through the page cache".into());
        }
        let cycle_ms = self.rate_cycle.div_ceil(1000) * 1000;
        let min_rate = MinRate { bytes: self.rate_min, iops: self.rate_iops_min, cycle_ms };
        s.min_rate = (min_rate.bytes != [0, 0] || min_rate.iops != [0, 0]).then_some(min_rate);
        if s.min_rate.is_some() && cycle_ms != self.rate_cycle {
            let c = self.rate_cycle;
            self.notes.push(format!("rate_cycle={c}: iolens checks rate_min over whole seconds, every {cycle_ms} ms"));
        }
        s.validate().map_err(|e| format!("{}: {}", fio_name(&e.option), e.message))?;
        Ok(Built {
            name: self.name,
            spec: self.spec,
            notes: self.notes,
            group_reporting: self.group_reporting,
            stonewall: self.stonewall,
            new_group: self.new_group,
            exitall: self.exitall,
            wait_for: self.wait_for,
            allow_file_create: self.allow_file_create,
            size_pct: self.size_pct,
        })
    }
}

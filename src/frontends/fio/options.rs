//! The fio options iolens applies, one definition each as in fio's options.c: fio's name, the
//! aliases it also answers to, whether it may stand alone, and what it does to the job. `build`
//! looks each option of a job up here and applies it; values are read as fio reads them (see
//! values.rs), and errors are one line, "option: why", naming what iolens cannot do.

use super::job::{Built, Job};
use super::logs;
use super::unapplied::{unapplied, unapplied_note};
use super::values::{block, boolean, buffer_pattern, distribution, int, micros, names, pct, per_dir, time, u32v};
use super::Opt;
use setters::*;

mod setters;
use crate::workload::DataPattern;

use super::error::{JobError, R};

/// How an option is written, with what it does to the job.
enum Kind {
    /// May stand alone (fio's FIO_OPT_STR_SET); `=0` turns it off.
    Flag(fn(&mut Job, bool)),
    /// Needs a value, given trimmed and never empty.
    Value(fn(&mut Job, &str) -> R<()>),
    /// Takes a value or stands alone (fio's FIO_OPT_STR with a callback taking none).
    Either(fn(&mut Job, Option<&str>) -> R<()>),
}

/// One fio option iolens applies.
struct Def {
    name: &'static str,
    aliases: &'static [&'static str],
    kind: Kind,
}

const fn flag(name: &'static str, aliases: &'static [&'static str], apply: fn(&mut Job, bool)) -> Def {
    Def { name, aliases, kind: Kind::Flag(apply) }
}

const fn value(name: &'static str, aliases: &'static [&'static str], apply: fn(&mut Job, &str) -> R<()>) -> Def {
    Def { name, aliases, kind: Kind::Value(apply) }
}

const fn either(name: &'static str, apply: fn(&mut Job, Option<&str>) -> R<()>) -> Def {
    Def { name, aliases: &[], kind: Kind::Either(apply) }
}

const OPTIONS: &[Def] = &[
    // Flags.
    flag("time_based", &[], |j, on| j.time_based = on),
    flag("bs_unaligned", &["blocksize_unaligned"], |j, on| j.unaligned = on),
    flag("group_reporting", &[], |j, on| j.group_reporting = on),
    flag("stonewall", &["wait_for_previous"], |j, on| j.stonewall = on),
    flag("new_group", &[], |j, on| j.new_group = on),
    flag("norandommap", &[], |j, on| {
        j.norandommap = on;
        j.spr.no_map_named = Some(on);
    }),
    flag("sprandom", &[], |j, on| j.spr.on = on),
    value("spr_num_regions", &[], |j, v| set(&mut j.spr.settings.regions, u32v(v, j.kb))),
    value("spr_op", &[], |j, v| {
        set(&mut j.spr.settings.op, v.trim().parse::<f64>().map_err(|_| format!("'{v}' is not a number")))
    }),
    value("spr_cs", &[], |j, v| set(&mut j.spr.settings.cache, int(v, j.kb))),
    flag("thread", &[], |_, _| {}),
    flag("refill_buffers", &[], |_, _| {}),
    flag("zero_buffers", &[], |j, on| {
        if on {
            j.spec.data = DataPattern::Zero
        }
    }),
    flag("hipri", &[], |j, on| accepted(j, "hipri", on)),
    flag("fixedbufs", &[], |j, on| accepted(j, "fixedbufs", on)),
    flag("registerfiles", &[], |j, on| accepted(j, "registerfiles", on)),
    flag("exitall", &[], |j, on| j.exitall = on),
    // As fio: the files a job made stay unless it says unlink.
    flag("unlink", &[], |j, on| j.unlink = on),
    flag("do_verify", &[], |j, on| j.verify.flag("do_verify", on)),
    flag("verify_fatal", &[], |j, on| j.verify.flag("verify_fatal", on)),
    flag("verify_only", &[], |j, on| j.verify.flag("verify_only", on)),
    flag("verify_dump", &[], |j, on| j.verify.flag("verify_dump", on)),
    flag("verify_write_sequence", &[], |j, on| j.verify.flag("verify_write_sequence", on)),
    flag("verify_state_save", &[], |j, on| j.verify.flag("verify_state_save", on)),
    flag("verify_state_load", &[], |j, on| j.verify.flag("verify_state_load", on)),
    // fio replays its random sequence instead of keeping a list of written blocks; iolens's
    // page map knows every written page either way, so the pages read back are the same.
    flag("experimental_verify", &[], |_, _| {}),
    // The job and its files.
    value("name", &[], |j, v| put(&mut j.name, v.into())),
    value("kb_base", &[], |_, _| Ok(())),
    value("filename", &[], |j, v| put(&mut j.files, names(v))),
    value("filename_format", &[], |j, v| put(&mut j.filename_format, Some(v.into()))),
    value("allow_file_create", &[], |j, v| set(&mut j.allow_file_create, boolean(v))),
    value("directory", &[], |j, v| put(&mut j.dirs, names(v))),
    value("nrfiles", &["nr_files"], |j, v| set(&mut j.nrfiles, int(v, j.kb))),
    value("file_service_type", &[], super::files::file_service_type),
    value("size", &[], size),
    value("filesize", &[], |j, v| set(&mut j.filesize, int(v, j.kb).map(Some))),
    value("offset", &["fileoffset"], |j, v| set(&mut j.spec.offset, int(v, j.kb))),
    value("offset_increment", &[], |j, v| set(&mut j.spec.offset_increment, int(v, j.kb))),
    value("io_size", &["io_limit"], |j, v| set(&mut j.io_size, int(v, j.kb).map(Some))),
    value("number_ios", &[], |j, v| set(&mut j.number_ios, int(v, j.kb).map(Some))),
    // The I/O.
    value("rw", &["readwrite"], rw),
    value("rwmixread", &[], |j, v| set(&mut j.rwmix, pct(v, j.kb))),
    value("rwmixwrite", &[], |j, v| set(&mut j.rwmix, pct(v, j.kb).map(|p| 100 - p))),
    value("bs", &["blocksize"], |j, v| set(&mut j.bs, per_dir(v, 4096, |s| block(s, j.kb)))),
    value("bssplit", &[], bs_split),
    value("bsrange", &["blocksize_range"], bs_range),
    value("ba", &["blockalign"], |j, v| set(&mut j.align, per_dir(v, 0, |s| int(s, j.kb)))),
    value("iodepth", &[], |j, v| set(&mut j.spec.qd, u32v(v, j.kb))),
    value("iodepth_batch", &["iodepth_batch_submit"], |j, v| set(&mut j.batch, u32v(v, j.kb).map(Some))),
    value("numjobs", &[], |j, v| set(&mut j.spec.threads, u32v(v, j.kb))),
    value("ioengine", &[], ioengine),
    value("direct", &[], |j, v| set(&mut j.spec.direct, boolean(v))),
    value("buffered", &[], |j, v| set(&mut j.spec.direct, boolean(v).map(|b| !b))),
    value("invalidate", &[], |_, v| Ok(boolean(v).map(drop)?)),
    value("fadvise_hint", &[], fadvise_hint),
    value("sync", &[], sync),
    value("fsync", &[], |j, v| set(&mut j.spec.fsync_every, u32v(v, j.kb))),
    value("end_fsync", &[], |j, v| note_if(j, boolean(v)?, "end_fsync: iolens does not fsync at the end")),
    value("randrepeat", &["allrandrepeat"], |j, v| set(&mut j.repeat.0, boolean(v))),
    value("random_generator", &[], random_generator),
    value("randseed", &[], |j, v| {
        j.repeat.1 = true;
        set(&mut j.spec.seed, int(v, j.kb))
    }),
    value("random_distribution", &[], |j, v| set(&mut j.spec.random_dist, distribution(v))),
    // The sequence distribution's rounds each move on by its length.
    flag("random_sequence_stride", &[], |j, on| j.seq_stride = on),
    value("buffer_pattern", &[], |j, v| set(&mut j.spec.data, buffer_pattern(v))),
    value("buffer_compress_percentage", &[], |j, v| {
        set(&mut j.spec.data, pct(v, j.kb).map(|pct| DataPattern::Compress { pct }))
    }),
    // Time and pace.
    value("runtime", &["timeout"], |j, v| set(&mut j.runtime, time(v))),
    value("ramp_time", &[], |j, v| set(&mut j.spec.warmup, time(v))),
    value("startdelay", &[], start_delay),
    value("loops", &[], |j, v| set(&mut j.loops, int(v, j.kb))),
    value("rate", &[], |j, v| set(&mut j.rate, per_dir(v, 0, |s| int(s, j.kb)))),
    value("rate_iops", &[], |j, v| set(&mut j.rate_iops, per_dir(v, 0, |s| int(s, j.kb)))),
    value("rate_min", &["ratemin"], |j, v| set(&mut j.rate_min, per_dir(v, 0, |s| int(s, j.kb)))),
    value("rate_iops_min", &[], |j, v| set(&mut j.rate_iops_min, per_dir(v, 0, |s| int(s, j.kb)))),
    value("rate_cycle", &["ratecycle"], |j, v| set(&mut j.rate_cycle, int(v, j.kb).map(|c| c.max(1)))),
    value("rate_process", &[], rate_process),
    value("thinktime", &[], |j, v| set(&mut j.think.us, micros(v))),
    value("thinktime_spin", &[], |j, v| set(&mut j.think.spin_us, micros(v))),
    value("thinktime_blocks", &[], |j, v| set(&mut j.think_blocks, u32v(v, j.kb).map(Some))),
    value("thinktime_iotime", &[], |j, v| set(&mut j.think.iotime_us, time(v).map(|t| (t * 1e6) as u64))),
    value("thinktime_blocks_type", &[], think_on_issue),
    value("flow", &[], flow),
    value("flow_id", &[], |j, v| set(&mut j.flow.id, u32v(v, j.kb))),
    value("flow_sleep", &[], |j, v| set(&mut j.flow.sleep_us, micros(v))),
    value("zonemode", &[], |j, v| match v {
        "none" | "strided" => put(&mut j.zones.0, v == "strided"),
        "zbd" => note_if(
            j,
            true,
            "zonemode=zbd: iolens does not handle zoned block devices; the whole region is one area, no zone resets",
        ),
        _ => Err(format!("'{v}' is not none, strided or zbd").into()),
    }),
    value("zonerange", &[], |j, v| set(&mut j.zones.1, int(v, j.kb))),
    value("zonesize", &[], |j, v| set(&mut j.zones.2, int(v, j.kb))),
    value("zoneskip", &[], |j, v| set(&mut j.zones.3, int(v, j.kb))),
    value("steadystate", &["ss"], |j, v| {
        crate::workload::SteadyState::parse(v, 1, 0.0)?;
        j.steady.0 = Some(v.to_string());
        Ok(())
    }),
    value("steadystate_duration", &["ss_dur"], |j, v| set(&mut j.steady.1, time(v))),
    value("steadystate_ramp_time", &["ss_ramp"], |j, v| set(&mut j.steady.2, time(v))),
    // fio's logs.
    either("write_bw_log", |j, v| logs::write_log(j, "write_bw_log", v)),
    either("write_iops_log", |j, v| logs::write_log(j, "write_iops_log", v)),
    either("write_lat_log", |j, v| logs::write_log(j, "write_lat_log", v)),
    value("write_iolog", &[], logs::write_iolog),
    value("read_iolog", &[], super::replay::read_iolog),
    flag("replay_no_stall", &[], |j, on| j.replay.no_stall = on),
    value("replay_time_scale", &[], super::replay::time_scale),
    value("replay_redirect", &[], super::replay::redirect),
    value("replay_align", &[], super::replay::align),
    value("replay_scale", &[], super::replay::scale),
    value("log_avg_msec", &[], logs::avg_msec),
    flag("log_offset", &[], |j, on| j.logs.offset = on),
    flag("log_prio", &[], |j, on| j.logs.prio = on),
    Def { name: "log_window_value", aliases: &["log_max_value"], kind: Kind::Either(logs::window) },
    flag("log_issue_time", &[], |j, on| j.logs.issue_time = on),
    flag("per_job_logs", &[], |j, on| j.logs.per_job = on),
    flag("log_store_compressed", &[], |j, on| j.logs.store_compressed = on),
    value("log_compression", &[], logs::compression),
    either("write_hist_log", |j, v| put(&mut j.hist.prefix, Some(v.unwrap_or("").into()))),
    value("log_hist_msec", &[], |j, v| set(&mut j.hist.msec, int(v, j.kb))),
    value("log_hist_coarseness", &[], |j, v| set(&mut j.hist.coarseness, super::hist::coarseness(v))),
    // Errors, groups and verification.
    value("continue_on_error", &[], continue_on_error),
    value("ignore_error", &[], ignore_error),
    value("exit_what", &[], exit_what),
    value("stat_type", &[], |j, v| match v {
        "stat" | "statx" => Ok(()),
        "lstat" => note_if(j, true, "stat_type=lstat: iolens looks files up with stat (statx), following links"),
        _ => Err(format!("'{v}' is not a stat type (stat, lstat or statx)").into()),
    }),
    value("wait_for", &[], |j, v| put(&mut j.wait_for, Some(v.into()))),
    value("verify", &[], |j, v| verify(j, "verify", v)),
    value("verify_backlog", &[], |j, v| verify(j, "verify_backlog", v)),
    value("verify_backlog_batch", &[], |j, v| verify(j, "verify_backlog_batch", v)),
    value("verify_policy", &[], |j, v| verify(j, "verify_policy", v)),
    value("verify_async_cpus", &[], |j, v| verify(j, "verify_async_cpus", v)),
    value("verify_interval", &[], |j, v| verify(j, "verify_interval", v)),
    value("verify_offset", &[], |j, v| verify(j, "verify_offset", v)),
    value("verify_pattern", &[], |j, v| verify(j, "verify_pattern", v)),
    value("verify_pattern_interval", &[], |j, v| verify(j, "verify_pattern_interval", v)),
    value("verify_async", &[], |j, v| verify(j, "verify_async", v)),
    // Latency stages and I/O priorities (stages.rs).
    value("slat_percentiles", &[], |j, v| j.stages.set("slat_percentiles", v, j.kb)),
    value("clat_percentiles", &[], |j, v| j.stages.set("clat_percentiles", v, j.kb)),
    value("lat_percentiles", &[], |j, v| j.stages.set("lat_percentiles", v, j.kb)),
    value("unified_rw_reporting", &[], |j, v| j.stages.set("unified_rw_reporting", v, j.kb)),
    value("cmdprio_percentage", &[], |j, v| j.stages.set("cmdprio_percentage", v, j.kb)),
    value("cmdprio_class", &[], |j, v| j.stages.set("cmdprio_class", v, j.kb)),
    value("cmdprio", &[], |j, v| j.stages.set("cmdprio", v, j.kb)),
    value("cmdprio_bssplit", &[], |j, v| j.stages.set("cmdprio_bssplit", v, j.kb)),
];

fn def(name: &str) -> Option<&'static Def> {
    OPTIONS.iter().find(|d| d.name == name)
}

/// The fio name of an option iolens reads, aliases folded (`readwrite` → `rw`); `None` otherwise.
pub(super) fn canonical(key: &str) -> Option<&'static str> {
    let applied = OPTIONS.iter().find(|d| d.name == key || d.aliases.contains(&key)).map(|d| d.name);
    applied.or_else(|| unapplied(key))
}

/// Whether an option may stand alone.
pub(super) fn is_flag(key: &str) -> bool {
    canonical(key).and_then(def).is_some_and(|d| matches!(d.kind, Kind::Flag(_) | Kind::Either(_)))
}

/// Applies `opts` (globals first) in order, later values winning, as fio does. An error names
/// the option at fault by its index in `opts` (`JobError::At`), or is the job's as a whole.
/// `clone`: the numjobs clone this build is (its jobnum), when clones are reported apart.
pub(super) fn build(section: &str, opts: &[Opt], stonewall: bool, clone: Option<u32>) -> R<Built> {
    let kb_at = opts.iter().rposition(|(k, _)| k == "kb_base");
    let kb = match kb_at.and_then(|i| opts[i].1.as_deref()) {
        None | Some("1024") => 1024,
        Some("1000") => 1000,
        Some(v) => {
            let why = format!("'{v}' is not 1000 or 1024");
            return Err(kb_at.map_or(JobError::Job(why.clone()), |i| JobError::At(i, why)));
        }
    };
    let mut j = Job::new(section, kb, stonewall);
    j.clone = clone.map(|k| (k, 0));
    for (i, (k, v)) in opts.iter().enumerate() {
        apply(&mut j, canonical(k).unwrap_or(""), v.as_deref()).map_err(|e| e.at(i))?;
    }
    j.finish().map_err(JobError::of_job)
}

/// Applies one option, `key` being its fio name.
fn apply(j: &mut Job, key: &str, v: Option<&str>) -> R<()> {
    if let Some(key) = unapplied(key) {
        if let Some(n) = unapplied_note(key, v) {
            j.ran.push((key, None));
            j.note(n);
        }
        return Ok(());
    }
    match def(key).map(|d| &d.kind) {
        Some(Kind::Flag(apply)) => {
            let on = match v {
                None => true,
                Some(s) => s.trim().parse::<i64>().map_err(|_| format!("'{s}' is not 0 or 1"))? != 0,
            };
            apply(j, on);
            Ok(())
        }
        Some(Kind::Either(apply)) => apply(j, v.map(str::trim).filter(|s| !s.is_empty())),
        kind => {
            let v = v.map(str::trim).filter(|s| !s.is_empty()).ok_or("needs a value")?;
            match kind {
                Some(Kind::Value(apply)) => apply(j, v),
                _ => Err("is not supported by iolens".into()),
            }
        }
    }
}

fn put<T>(slot: &mut T, v: T) -> R<()> {
    *slot = v;
    Ok(())
}

fn set<T, E: Into<super::error::JobError>>(slot: &mut T, v: Result<T, E>) -> R<()> {
    *slot = v.map_err(Into::into)?;
    Ok(())
}

fn note_if(j: &mut Job, when: bool, note: impl Into<String>) -> R<()> {
    if when {
        j.note(note);
    }
    Ok(())
}

/// hipri, fixedbufs and registerfiles: io_uring tunings iolens leaves as they are.
fn accepted(j: &mut Job, key: &str, on: bool) {
    if on {
        j.note(format!("{key}: accepted, not applied"));
    }
}

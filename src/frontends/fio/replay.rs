//! fio's read_iolog and its replay_* options: the job replays the log's I/Os on the log's
//! files (or replay_redirect's), with the job's iodepth and engine, as `iolens replay` does.

use super::job::Job;
use crate::frontends::replay::{self as trace, apply, load, Shaping};

use super::error::{JobError, R};

fn set(field: &mut Option<String>, v: &str) -> R<()> {
    *field = Some(v.to_string());
    Ok(())
}

pub(super) fn read_iolog(j: &mut Job, v: &str) -> R<()> {
    set(&mut j.replay.log, v)
}
pub(super) fn time_scale(j: &mut Job, v: &str) -> R<()> {
    set(&mut j.replay.time_scale, v)
}
pub(super) fn redirect(j: &mut Job, v: &str) -> R<()> {
    set(&mut j.replay.redirect, v)
}
pub(super) fn align(j: &mut Job, v: &str) -> R<()> {
    set(&mut j.replay.align, v)
}
pub(super) fn scale(j: &mut Job, v: &str) -> R<()> {
    set(&mut j.replay.scale, v)
}

impl Job {
    /// Makes the job replay its read_iolog, if it names one: the log decides its files, its
    /// I/Os and when the job ends (or its runtime, when shorter), not its files' size. True
    /// when it does; otherwise the job's own files are settled.
    pub(super) fn settle_replay(&mut self) -> R<bool> {
        let Some(log) = self.replay.log.take() else {
            self.targets()?;
            return Ok(false);
        };
        let r = &self.replay;
        let fail = |e: crate::error::UsageError| JobError::of(e.option, e.message);
        let shaping = Shaping {
            no_stall: r.no_stall,
            time_scale: trace::time_scale("replay_time_scale", r.time_scale.as_deref().unwrap_or("100"))
                .map_err(fail)?,
            scale: trace::scale("replay_scale", r.scale.as_deref().unwrap_or("1")).map_err(fail)?,
            align: r.align.as_deref().map(|a| trace::align("replay_align", a)).transpose().map_err(fail)?.unwrap_or(0),
            redirect: r.redirect.as_deref(),
            names: ["read_iolog", "replay_redirect"],
        };
        let clones = self.spec.threads;
        let replay = load(std::path::Path::new(&log), &shaping).map_err(fail)?;
        apply(&mut self.spec, replay, &[]).map_err(fail)?;
        let s = &mut self.spec;
        (s.io_limit, s.number_ios) = (None, None);
        if self.runtime > 0.0 {
            s.duration = s.duration.min(self.runtime);
        }
        if clones > 1 {
            self.notes.push("numjobs: a replayed log runs once, on one worker".into());
        }
        Ok(true)
    }
}

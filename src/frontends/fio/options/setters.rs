//! What the fio options that need more than a line do to the job: the callbacks of the
//! table in options.rs.

use super::R;
use crate::frontends::fio::engines::engine;
use crate::frontends::fio::job::Job;
use crate::frontends::fio::values::{block, block_range, bssplit, int, pct, time, u32v};
use crate::workload::{AccessHint, OnError, Pattern, RateProcess, StartDelay};

pub(super) fn verify(j: &mut Job, key: &str, v: &str) -> R<()> {
    let note = j.verify.set(key, v)?;
    j.notes.extend(note);
    Ok(())
}

pub(super) fn size(j: &mut Job, v: &str) -> R<()> {
    (j.size, j.size_pct) = match v.strip_suffix('%') {
        Some(p) => (None, Some(pct(p, j.kb)?.max(1))),
        None => (Some(int(v, j.kb)?), None),
    };
    Ok(())
}

pub(super) fn rw(j: &mut Job, v: &str) -> R<()> {
    let (word, suffix) = v.split_once(':').unwrap_or((v, ""));
    j.spec.seq_skip = 0;
    if !suffix.is_empty() {
        if word.starts_with("rand") {
            return Err(format!("'{v}': the ':{suffix}' sequential-run count is not supported by iolens").into());
        }
        let (sign, n) = suffix.strip_prefix('-').map_or((1, suffix), |n| (-1, n));
        j.spec.seq_skip = sign * i64::try_from(int(n, j.kb)?).map_err(|_| format!("'{v}' is too large"))?;
    }
    j.spec.trim = matches!(word, "trim" | "randtrim");
    j.spec.trim_write = matches!(word, "trimwrite" | "randtrimwrite");
    let (pattern, pct, mixed) = match word {
        "read" => (Pattern::Sequential, 100, false),
        "write" => (Pattern::Sequential, 0, false),
        "randread" => (Pattern::Random, 100, false),
        "randwrite" => (Pattern::Random, 0, false),
        "rw" | "readwrite" => (Pattern::Sequential, 50, true),
        "randrw" => (Pattern::Random, 50, true),
        "trim" => (Pattern::Sequential, 0, false),
        "randtrim" => (Pattern::Random, 0, false),
        "trimwrite" => (Pattern::Sequential, 0, false),
        "randtrimwrite" => (Pattern::Random, 0, false),
        _ => {
            return Err(
                format!("'{v}' is not one of fio's read, write, rw, trim, trimwrite and their rand forms").into()
            )
        }
    };
    (j.spec.pattern, j.spec.read_pct, j.mixed) = (pattern, pct, mixed);
    Ok(())
}

pub(super) fn bs_split(j: &mut Job, v: &str) -> R<()> {
    let (r, w) = v.split_once(',').unwrap_or((v, v));
    let w = w.split(',').next().unwrap_or("");
    let (r, w) = (bssplit(r, j.kb)?, bssplit(w, j.kb)?);
    j.split = [r.0, w.0];
    j.notes.extend([r.1, w.1].into_iter().flatten());
    Ok(())
}

pub(super) fn bs_range(j: &mut Job, v: &str) -> R<()> {
    let (r, w) = v.split_once(',').unwrap_or((v, v));
    let w = w.split(',').next().unwrap_or("");
    let ends = |x: &str| x.split_once(['-', ':']).and_then(|(l, h)| Some((block(l, j.kb).ok()?, block(h, j.kb).ok()?)));
    j.range = [ends(r), ends(w)];
    let (r, w) = (block_range(r, j.bs[0], j.kb)?, block_range(w, j.bs[1], j.kb)?);
    j.bs = [r[0].size, w[0].size];
    j.split = [(r.len() > 1).then_some(r), (w.len() > 1).then_some(w)];
    Ok(())
}

pub(super) fn ioengine(j: &mut Job, v: &str) -> R<()> {
    let (kind, note) = engine(v)?;
    j.spec.engine = kind;
    if let Some(n) = note {
        j.ran.push(("ioengine", Some(super::super::engines::fio_name(kind).into())));
        j.notes.push(n);
    }
    Ok(())
}

pub(super) fn sync(j: &mut Job, v: &str) -> R<()> {
    j.spec.write_through = match v {
        "none" | "0" => false,
        "dsync" => true,
        "sync" | "1" => {
            j.note("sync: fio opens with O_SYNC, iolens with O_DSYNC");
            true
        }
        _ => return Err(format!("'{v}' is not none, 0, sync, 1 or dsync").into()),
    };
    Ok(())
}

pub(super) fn start_delay(j: &mut Job, v: &str) -> R<()> {
    let (a, b) = v.split_once('-').unwrap_or((v, v));
    j.spec.start_delay = StartDelay { min: time(a.trim())?, max: time(b.trim())? };
    if j.spec.start_delay.max < j.spec.start_delay.min {
        return Err(format!("'{v}': the range must go from low to high").into());
    }
    Ok(())
}

pub(super) fn rate_process(j: &mut Job, v: &str) -> R<()> {
    j.spec.rate_process = match v {
        "linear" => RateProcess::Linear,
        "poisson" => RateProcess::Poisson,
        _ => return Err(format!("'{v}' is not linear or poisson").into()),
    };
    Ok(())
}

pub(super) fn think_on_issue(j: &mut Job, v: &str) -> R<()> {
    j.think.on_issue = match v {
        "complete" => false,
        "issue" => true,
        _ => return Err(format!("'{v}' is not complete or issue").into()),
    };
    Ok(())
}

/// A flow weight, at most fio's FLOW_MAX_WEIGHT; 0 (its default) leaves the job out of flow control.
pub(super) fn flow(j: &mut Job, v: &str) -> R<()> {
    j.flow.weight = u32v(v, j.kb)
        .and_then(|w| if w <= 1000 { Ok(w) } else { Err(String::new()) })
        .map_err(|_| format!("'{v}' is not a weight from 0 to 1000"))?;
    Ok(())
}

pub(super) fn continue_on_error(j: &mut Job, v: &str) -> R<()> {
    j.spec.on_error.go_on = OnError::parse_policy("", v).map_err(|e| e.message)?;
    j.verify.go_on = matches!(v, "verify" | "all" | "1");
    Ok(())
}

pub(super) fn ignore_error(j: &mut Job, v: &str) -> R<()> {
    let mut lists = v.split(',');
    for d in 0..2 {
        j.spec.on_error.errors[d] = OnError::parse_errors("", lists.next().unwrap_or("")).map_err(|e| e.message)?;
    }
    Ok(())
}

pub(super) fn exit_what(j: &mut Job, v: &str) -> R<()> {
    match v {
        "group" => {}
        "stonewall" | "all" => j.note(format!("exit_what={v}: exitall stops the jobs of its group only")),
        _ => return Err(format!("'{v}' is not group, stonewall or all").into()),
    }
    Ok(())
}

/// fio's fadvise_hint: `random` and `sequential` are told to the OS as such; `0`, `normal`, and
/// `1` (advice by the job's pattern, fio's default) leave the OS its own read-ahead.
pub(super) fn fadvise_hint(j: &mut Job, v: &str) -> R<()> {
    j.spec.hint = match v {
        "random" => AccessHint::Random,
        "sequential" => AccessHint::Sequential,
        "0" | "1" | "normal" => AccessHint::None,
        _ => return Err(format!("fadvise_hint={v}: use 0, 1, normal, random or sequential").into()),
    };
    Ok(())
}

/// fio's random_generator: lfsr visits every block once even with norandommap; the
/// tausworthe ones draw as iolens' own generator does.
pub(super) fn random_generator(j: &mut Job, v: &str) -> R<()> {
    j.spr.lfsr_named = Some(v == "lfsr");
    (j.lfsr, j.spec.rand32) = match v {
        "lfsr" => (true, false),
        // Named, fio keeps it even where the range needs more than 32 bits.
        "tausworthe" => (false, true),
        "tausworthe64" => (false, false),
        _ => return Err(format!("'{v}' is not tausworthe, lfsr or tausworthe64").into()),
    };
    Ok(())
}

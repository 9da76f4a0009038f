//! Targets: checking them before anything is touched, creating and filling test files,
//! opening them with the right cache flags, and removing what iolens created. The safety rules
//! live here: no writes to a file iolens did not create without `--allow-write`, none to a
//! block device without `--force-device`, never to a mounted one.

pub mod affinity;
mod claim;
pub mod content;
pub mod data;
mod devnode;
pub mod host;
mod mark;
mod region;
mod sectors;
pub mod stamped;
pub mod tracefs;

pub use mark::adopt;

// The platform calls, one file per platform with the same functions.
#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as os;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as os;

use crate::error::{usage, Interrupted, UsageError};
use crate::result::host::TargetInfo;
use crate::workload::size::format_size;
use crate::workload::{EngineKind, Spec};
use anyhow::Context;
use claim::claim;
use host::device_mounted;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use region::{check_region, limit};
use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    NewFile,
    File {
        ours: bool,
    },
    Device,
    /// The null engine's target (fio's ioengine=null): a name only, never made, sized or read.
    Untouched,
}

/// A target after checking, before anything was created.
#[derive(Debug, Clone)]
pub struct Plan {
    pub path: PathBuf,
    pub kind: Kind,
    /// Bytes of the target the test may use (the region is `offset .. offset + range` of it).
    pub size: u64,
}

/// A target ready to measure.
pub struct Prepared {
    pub plan: Plan,
    pub file: File,
    pub info: TargetInfo,
    /// (O_DIRECT, O_DSYNC, writable) the file is open with.
    flags: (bool, bool, bool),
    /// The exclusive claim on a block device this handle writes to (see [`claim`]).
    _claim: Option<Arc<File>>,
}

fn flags_of(spec: &Spec) -> (bool, bool, bool) {
    (spec.direct, spec.write_through, spec.writes())
}

/// Another handle on a target this run already prepared (another fio job on the same file),
/// opened with this spec's flags. It is never removed through this handle.
pub fn share(spec: &Spec, of: &Prepared) -> anyhow::Result<Prepared> {
    let plan = Plan {
        kind: if of.plan.kind == Kind::NewFile { Kind::File { ours: true } } else { of.plan.kind },
        ..of.plan.clone()
    };
    let (file, claim) = open(spec, &plan)?;
    Ok(Prepared { file, info: of.info.clone(), flags: flags_of(spec), plan, _claim: claim })
}

/// Opens the targets again where a test of a series needs other flags than the last one.
pub fn reopen_for(spec: &Spec, targets: &mut [Prepared]) -> anyhow::Result<()> {
    for t in targets.iter_mut().filter(|t| t.flags != flags_of(spec)) {
        (t.file, t._claim) = open(spec, &t.plan)?;
        t.flags = flags_of(spec);
    }
    Ok(())
}

/// Checks every target against the spec; touches nothing. `size_given` says whether the user
/// typed `--size` (it then also limits existing targets).
pub fn plan(spec: &Spec) -> Result<Vec<Plan>, UsageError> {
    let size_given = spec.size_given;
    let mut plans = Vec::new();
    let mut need: HashMap<u64, (u64, u64, PathBuf)> = HashMap::new();
    for t in &spec.targets {
        // The null engine touches nothing; the file and directory engines work on the names
        // (only a missing file a stat or delete works on is laid out first, as fio lays it out).
        let by_name = matches!(spec.engine, EngineKind::Meta(op)
            if op.on_dirs() || !op.needs_existing() || Path::new(t).exists());
        if spec.engine == EngineKind::Null || by_name {
            plans.push(Plan { path: PathBuf::from(t), kind: Kind::Untouched, size: spec.size });
            continue;
        }
        let mut path = devnode::replayed(spec, t)?.unwrap_or_else(|| PathBuf::from(t));
        if path.is_dir() {
            path = path.join(format!("iolens-test-{}-{}.dat", std::process::id(), plans.len()));
        }
        let shown = path.display().to_string();
        #[cfg(windows)]
        if os::is_device_name(&path) {
            plans.push(windows_device(spec, size_given, &shown, os::device_path(&path))?);
            continue;
        }
        let plan = match fs::metadata(&path) {
            Ok(m) if os::is_block_device(&m) => {
                if spec.writes() {
                    if !spec.force_device {
                        return usage(
                            &shown,
                            "is a block device; writing to it destroys its data and needs --force-device",
                        );
                    }
                    if let Some(mp) = device_mounted(&path) {
                        return usage(&shown, format!("is mounted on {mp}; iolens never writes to a mounted device"));
                    }
                }
                let dev_size = File::open(&path)
                    .and_then(|mut f| f.seek(SeekFrom::End(0)))
                    .map_err(|e| UsageError::new(&shown, format!("cannot be opened: {e}")))?;
                Plan { path, kind: Kind::Device, size: limit(dev_size, spec, size_given, &shown)? }
            }
            // /dev/null, /dev/zero and the like (fio jobs use them to measure fio itself): no
            // size of their own, and writes need --force-device as a block device's do.
            Ok(m) if os::is_char_device(&m) => {
                if spec.writes() && !spec.force_device {
                    return usage(&shown, "is a character device; writing to it needs --force-device");
                }
                if !size_given {
                    return usage(&shown, "is a character device, which has no size; give --size (fio: size=)");
                }
                Plan { path, kind: Kind::Device, size: spec.size }
            }
            Ok(m) if m.is_file() => {
                let ours = mark::is_ours(&path);
                if spec.writes() && !ours && !spec.allow_write {
                    return usage(&shown, "exists and iolens did not create it; writing to it needs --allow-write");
                }
                Plan { path, kind: Kind::File { ours }, size: limit(m.len(), spec, size_given, &shown)? }
            }
            Ok(_) => return usage(&shown, "is neither a regular file, a directory nor a block device"),
            Err(_) => {
                let parent = match path.parent() {
                    Some(p) if p.as_os_str().is_empty() => Path::new("."),
                    Some(p) => p,
                    None => Path::new("/"),
                };
                if !parent.is_dir() {
                    return usage(&shown, format!("parent directory {} does not exist", parent.display()));
                }
                let (dev, free) =
                    free_space(parent).map_err(|e| UsageError::new(&shown, format!("cannot check free space: {e}")))?;
                let e = need.entry(dev).or_insert((0, free, parent.to_path_buf()));
                e.0 += spec.size;
                Plan { path, kind: Kind::NewFile, size: spec.size }
            }
        };
        check_region(spec, &plan)?;
        sectors::check(spec, &plan)?;
        plans.push(plan);
    }
    for (want, free, dir) in need.values() {
        if want > free {
            return usage(
                "--size",
                format!(
                    "{} of test files does not fit in {} ({:.1} GiB free); use a smaller --size",
                    format_size(*want),
                    dir.display(),
                    *free as f64 / (1u64 << 30) as f64
                ),
            );
        }
    }
    Ok(plans)
}

/// A disk or volume on Windows, judged by name before any handle on it is opened for writing.
#[cfg(windows)]
fn windows_device(spec: &Spec, size_given: bool, shown: &str, path: PathBuf) -> Result<Plan, UsageError> {
    if spec.writes() {
        if !spec.force_device {
            return usage(shown, "is a disk or volume; writing to it destroys its data and needs --force-device");
        }
        if let Some(why) = os::write_refusal(&path) {
            return usage(shown, why);
        }
    }
    let size = os::device_size(&path).map_err(|e| UsageError::new(shown, format!("cannot be opened: {e}")))?;
    let plan = Plan { path, kind: Kind::Device, size: limit(size, spec, size_given, shown)? };
    check_region(spec, &plan)?;
    sectors::check(spec, &plan)?;
    Ok(plan)
}

/// The device of `dir` and the bytes an unprivileged user may still write there.
pub fn free_space(dir: &Path) -> std::io::Result<(u64, u64)> {
    os::free_space(dir)
}

/// Creates and fills new files, opens everything with the spec's flags. On error or
/// interruption the files created so far are removed before returning.
pub fn prepare(
    spec: &Spec,
    plans: &[Plan],
    stop: &AtomicBool,
    mut progress: impl FnMut(&Path, f64),
) -> anyhow::Result<Vec<Prepared>> {
    let mut out: Vec<Prepared> = Vec::new();
    for plan in plans {
        let mut created = false;
        let mut res = (|| -> anyhow::Result<Prepared> {
            if plan.kind == Kind::NewFile {
                create_filled(spec, plan, stop, &mut progress, &mut created)?;
            }
            let (file, claim) = open(spec, plan)?;
            if plan.kind == (Kind::File { ours: false }) {
                warn_content(spec, plan);
            }
            let info = host::describe(&plan.path, plan.size, created);
            Ok(Prepared { plan: plan.clone(), file, info, flags: flags_of(spec), _claim: claim })
        })();
        if res.is_ok() && stop.load(Ordering::Relaxed) {
            res = Err(Interrupted.into());
        }
        match res {
            Ok(p) => out.push(p),
            Err(e) => {
                // Only what this run created is removed: a name that existed is not ours.
                if created {
                    remove_created(&plan.path);
                }
                cleanup(&out, false);
                return Err(e);
            }
        }
    }
    Ok(out)
}

/// Says on stderr when a file iolens did not create would inflate reads (see `content`).
fn warn_content(spec: &Spec, plan: &Plan) {
    let len = spec.range.unwrap_or(plan.size.saturating_sub(spec.offset));
    if let Some(w) = content::probe(&plan.path, spec.offset, len).ok().and_then(|c| c.warning(&plan.path)) {
        eprintln!("warning: {w}");
    }
}

/// Files this process created and has not removed yet, so that a second Ctrl-C (which exits
/// at once) can still remove them.
static CREATED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn remove_created(path: &Path) {
    os::unmark(path);
    let _ = fs::remove_file(path);
    CREATED.lock().unwrap_or_else(|e| e.into_inner()).retain(|p| p != path);
}

/// Removes every test file this process created; for the exit path of a second Ctrl-C.
pub fn remove_all_created() {
    for p in CREATED.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
        os::unmark(&p);
        let _ = fs::remove_file(p);
    }
}

fn create_filled(
    spec: &Spec,
    plan: &Plan,
    stop: &AtomicBool,
    progress: &mut impl FnMut(&Path, f64),
    created: &mut bool,
) -> anyhow::Result<()> {
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&plan.path)
        .with_context(|| format!("creating {}", plan.path.display()))?;
    *created = true;
    CREATED.lock().unwrap_or_else(|e| e.into_inner()).push(plan.path.clone());
    mark::set(&f, &plan.path);
    // Find out now, not after filling a large file, whether the file system takes O_DIRECT.
    open(spec, plan)?;
    os::reserve(&f, plan.size)
        .with_context(|| format!("reserving {} for {}", format_size(plan.size), plan.path.display()))?;
    let mut rng = SmallRng::seed_from_u64(spec.seed ^ 0xf111);
    let mut buf = vec![0u8; 1 << 20];
    let mut done = 0u64;
    // A verifying test stamps every page of its region before its first I/O: where that is
    // the whole file, filling it first would write it twice.
    if spec.verify.is_some() && spec.offset == 0 && spec.range.is_none_or(|r| r >= plan.size) {
        f.set_len(plan.size)?;
        done = plan.size;
    }
    while done < plan.size {
        if stop.load(Ordering::Relaxed) {
            return Err(Interrupted.into());
        }
        let n = (plan.size - done).min(buf.len() as u64) as usize;
        // Prefill is always incompressible: a sparse or zero file measures nothing real.
        data::fill(&mut buf[..n], &crate::workload::DataPattern::Random, &mut rng);
        f.write_all(&buf[..n]).with_context(|| format!("filling {}", plan.path.display()))?;
        done += n as u64;
        progress(&plan.path, done as f64 / plan.size as f64);
    }
    f.sync_all()?;
    // Drop the freshly written pages so a --buffered test starts from a cold cache.
    os::drop_cached(&f, 0, 0);
    Ok(())
}

/// Opens a target with the spec's flags; for writes to a block device, also its claim, which
/// the handle must keep for as long as it is used.
fn open(spec: &Spec, plan: &Plan) -> anyhow::Result<(File, Option<Arc<File>>)> {
    if plan.kind == Kind::Untouched {
        return Ok((os::null_handle().context("opening the null device")?, None));
    }
    let claim = if plan.kind == Kind::Device && spec.writes() { Some(claim(plan)?) } else { None };
    let mut options = OpenOptions::new();
    // A file this run made is stamped before a verifying read job checks it.
    let write = spec.writes() || (spec.verify.is_some() && plan.kind == Kind::NewFile);
    os::cache_flags(options.read(true).write(write), spec.direct, spec.write_through, spec.hint);
    let file = options.open(&plan.path).map_err(|e| {
        if os::direct_refused(&e) && spec.direct {
            anyhow::Error::new(UsageError::new(
                "--direct",
                format!(
                    "the file system of {} does not support {}; use --buffered",
                    plan.path.display(),
                    crate::workload::UNBUFFERED
                ),
            ))
        } else {
            anyhow::Error::new(e).context(format!("opening {}", plan.path.display()))
        }
    })?;
    os::advise(&file, spec.hint);
    Ok((file, claim))
}

/// Removes the test files iolens created for this run (unless kept).
pub fn cleanup(targets: &[Prepared], keep: bool) {
    if keep {
        return;
    }
    for t in targets {
        if t.plan.kind == Kind::NewFile {
            remove_created(&t.plan.path);
        }
    }
}

#[cfg(test)]
mod tests;

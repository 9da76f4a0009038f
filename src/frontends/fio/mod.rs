//! fio job files and command lines → Specs.
//!
//! Reading follows fio's own parser: init.c `__parse_jobs_ini` (sections, `;`/`#` comments cut
//! anywhere on a line, `include FILE` inside a section, sections whose name starts with "global"
//! feeding every later job), options.c `fio_option_dup_subs` (`${VAR}` from the environment,
//! empty when unset; a bare `$VAR` stays as written) and `fio_keyword_replace` (`$pagesize`,
//! `$mb_memory`, `$ncpus`, then `bc`-style integer math), and init.c `parse_cmd_line` (options
//! before the first `--name` are global; further arguments are job files, each after the first
//! starting with a stonewall). What each option does is in options.rs, what a job's options
//! make together in job.rs.

mod engines;
mod error;
mod files;
mod hist;
mod job;
mod json_in;
mod logs;
mod options;
pub mod pattern;
mod place;
mod read;
mod replay;
mod sprandom;
mod stages;
mod unapplied;
mod values;
mod verify;

use crate::error::UsageError;
pub use crate::workload::iolog::HistLog;
use crate::workload::Spec;
use engines::{engine, refused};
pub use json_in::from_fio_json;
use options::{build, canonical, is_flag};
use place::{at, Located, Place};
use read::{read, Includes};
use std::path::Path;
use std::rc::Rc;

type R<T> = Result<T, UsageError>;

/// One fio job (one section, or one `--name` on the command line) as an iolens workload.
#[derive(Debug, Clone, PartialEq)]
pub struct FioJob {
    /// The `name=` option, else the [section] name or `--name`.
    pub name: String,
    pub spec: Spec,
    /// fio's group id: +1 at each job with `stonewall` or `new_group` (unless it is the first job
    /// of its group). Jobs with the same group run together; groups run one after another.
    pub group: u32,
    pub group_reporting: bool,
    /// The job's options as written (global ones first, a later value replacing an earlier one
    /// in place; bare flags with an empty value), for fio-compatible "job options" in JSON.
    pub options: Vec<(String, String)>,
    /// Where iolens runs the job differently from fio, one line each.
    pub notes: Vec<String>,
    /// What ran in place of options as written (`None`: the option was not applied).
    pub ran: Ran,
    /// Which numjobs clone this job is, when the clones are reported apart (no group_reporting).
    pub clone: Option<u32>,
    /// fio's `allow_file_create`: when false, a file that does not exist is an error.
    pub allow_file_create: bool,
    /// fio's `size=N%`: the job uses this share of its (existing) files or devices, set from
    /// their sizes once they are known.
    pub size_pct: Option<u32>,
    /// The job ends when its files' bytes are done this many times (`session::bound_by_size`
    /// sets the spec's io_limit from them once the files are known).
    pub size_passes: Option<u64>,
    /// fio's `unlink`: the files made for the job are removed at the end (else they stay).
    pub unlink: bool,
    /// fio's write_hist_log, written from the job's clat samples after the run.
    pub hist: Option<HistLog>,
}

/// Options (by fio name) and what ran in their place; `None`: nothing, the option went unapplied.
pub type Ran = Vec<(&'static str, Option<String>)>;

impl FioJob {
    /// The options as they ran, for fio's JSON: a stand-in's value in place of the one written,
    /// an option left unapplied left out, and `ioengine` the engine that ran (`engine`, which
    /// differs from the job's when it fell back at run time).
    pub fn options_as_run(&self, engine: &str) -> Vec<(String, String)> {
        let mut o = Vec::new();
        for (k, v) in &self.options {
            let c = canonical(k);
            match self.ran.iter().rev().find(|(r, _)| Some(*r) == c) {
                Some((_, None)) => {}
                Some((_, Some(r))) => o.push((k.clone(), r.clone())),
                None => o.push((k.clone(), v.clone())),
            }
        }
        if engine != self.spec.engine.name() {
            let engine = if engine == "iocp" { "windowsaio" } else { engine };
            match o.iter_mut().find(|(k, _)| canonical(k) == Some("ioengine")) {
                Some(slot) => slot.1 = engine.into(),
                None => o.push(("ioengine".into(), engine.into())),
            }
        }
        o
    }

    /// Whether the job gave `size` or `filesize`. Without one fio tests the whole of existing
    /// files and devices (and refuses files that do not exist): pass this to the target planner.
    pub fn size_given(&self) -> bool {
        self.spec.size_given
    }
}

/// An option line: the key as written and its value (`None` for a bare flag).
pub(super) type Opt = (String, Option<String>);

#[derive(Default)]
struct Section {
    name: String,
    opts: Vec<Opt>,
    /// Where each option was written (none, or fewer than the options, from the command line).
    places: Vec<Option<Place>>,
    header: Option<Place>,
}

impl Section {
    fn new(name: impl Into<String>, opts: Vec<Opt>) -> Section {
        Section { name: name.into(), opts, ..Section::default() }
    }

    /// The options and their places, one place (or none) for each option.
    fn located(self) -> (Vec<Opt>, Vec<Option<Place>>) {
        let mut places = self.places;
        places.resize(self.opts.len(), None);
        (self.opts, places)
    }
}

/// Parses the text of a job file; `include` paths that do not exist as given are taken
/// relative to `base_dir`; `${VAR}` is looked up with `env`.
pub fn parse_job_text(text: &str, base_dir: &Path, env: &dyn Fn(&str) -> Option<String>) -> R<Vec<FioJob>> {
    let mut b = Builder::default();
    b.text(text, None, base_dir, env, false)?;
    Ok(b.done())
}

/// Reads a job file; `include` is relative to it and `${VAR}` comes from the environment.
pub fn parse_job_file(path: &Path) -> R<Vec<FioJob>> {
    let mut b = Builder::default();
    b.file(path, false)?;
    Ok(b.done())
}

/// fio's command line: `--name=a --rw=randread --bs=4k ... --name=b ...`. Options before the
/// first `--name` (or under `--name=global`) are global; `--opt=value` and `--opt value` both
/// work, flags stand alone; other arguments are job files, run after the command-line jobs.
pub fn parse_args(args: &[String]) -> R<Vec<FioJob>> {
    let mut sections = vec![Section::new("global", Vec::new())];
    let mut files = Vec::new();
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        let Some(body) = a.strip_prefix("--") else {
            if a.starts_with('-') && a.len() > 1 {
                return Err(UsageError::new(a, format!("fio option '{a}' is not supported by iolens")));
            }
            files.push(a);
            continue;
        };
        let (key, val) = match body.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            // A flag, or an option followed by another option or by nothing, takes no value:
            // the next option is never swallowed (fio's getopt leaves flags their own).
            None if is_flag(body) || it.peek().is_none_or(|n| n.starts_with("--")) => (body, None),
            // An option iolens does not know is refused by name, not given the next argument.
            None if canonical(body).is_none() => {
                return Err(UsageError::new(format!("--{body}"), "is not a fio option iolens knows"))
            }
            None => (body, it.next().cloned()),
        };
        if key == "name" {
            let name = val.clone().unwrap_or_default();
            let opts = if name.starts_with("global") { Vec::new() } else { vec![(key.to_string(), val)] };
            sections.push(Section::new(name, opts));
        } else {
            sections.last_mut().expect("starts with a global").opts.push((key.to_string(), val));
        }
    }
    let mut b = Builder::default();
    for s in sections {
        b.section(s, false)?;
    }
    for (i, f) in files.iter().enumerate() {
        b.file(Path::new(f), i > 0)?;
    }
    Ok(b.done())
}

/// The spec of a job fio already ran, from the options its JSON output lists ("global options"
/// and the job's "job options"): options iolens does not know are left out and named in the
/// second value, so a result from any fio job can still be matched by what it ran.
pub fn spec_of_options(job: &str, globals: &[(String, String)], opts: &[(String, String)]) -> R<(Spec, Vec<String>)> {
    let mut dropped = Vec::new();
    let mut keep = |o: &[(String, String)]| -> Vec<Opt> {
        o.iter()
            .filter(|(k, v)| {
                // A result from an engine iolens lacks is still matched by what it ran.
                let known = canonical(k).is_some() && (canonical(k) != Some("ioengine") || engine(v).is_ok());
                if !known && !dropped.contains(k) {
                    dropped.push(k.clone());
                }
                known && k != "name" && canonical(k) != Some("wait_for")
            })
            .map(|(k, v)| (k.clone(), (!(v.is_empty() && is_flag(k))).then(|| v.clone())))
            .collect()
    };
    let sections = [Section::new("global", keep(globals)), Section::new(job, keep(opts))];
    // The spec of the job as a whole, its clones together.
    let mut b = Builder { whole: true, ..Builder::default() };
    for s in sections {
        b.section(s, false)?;
    }
    // A job named "global" is fio's section of shared options, which makes no job.
    let spec = b.jobs.pop().map(|j| j.spec).ok_or_else(|| {
        UsageError::new("jobname", format!("'{job}' names fio's section of shared options, not a job"))
    })?;
    Ok((spec, dropped))
}

#[derive(Default)]
struct Builder {
    globals: Vec<Opt>,
    global_places: Vec<Option<Place>>,
    group: u32,
    prev_group_jobs: u32,
    jobs: Vec<FioJob>,
    /// Per job: fio's `exitall` (when it ends, its group ends).
    exitall: Vec<bool>,
    /// Threads of the jobs so far: fio numbers threads (and their log files) over every job.
    threads: u32,
    /// A job's numjobs clones stay one job (for a spec of the whole job), reported or not.
    whole: bool,
}

impl Builder {
    fn file(&mut self, path: &Path, stonewall: bool) -> R<()> {
        let text = crate::input::read_text(path, "job file", read::JOB_TEXT_LIMIT)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let name: Rc<str> = path.display().to_string().into();
        self.text(&text, Some(name), dir, &|v| std::env::var(v).ok(), stonewall)
    }

    /// Job-file text; `file` names it in errors (with the line), none for text of no file.
    fn text(
        &mut self,
        text: &str,
        file: Option<Rc<str>>,
        dir: &Path,
        env: &dyn Fn(&str) -> Option<String>,
        stonewall: bool,
    ) -> R<()> {
        let mut sections = Vec::new();
        read(text, file, dir, env, 0, &mut Includes::of(text), &mut sections)?;
        let mut stonewall = stonewall;
        for s in sections {
            let global = s.name.starts_with("global");
            self.section(s, stonewall && !global)?;
            stonewall &= global;
        }
        Ok(())
    }

    /// A global section adds to the defaults of later jobs; a job section becomes a job. Its
    /// engine is checked first, so a job for an engine iolens lacks is refused by the engine's
    /// name rather than by the first of that engine's own options.
    fn section(&mut self, s: Section, stonewall: bool) -> R<()> {
        let (name, header) = (s.name.clone(), s.header.clone());
        let (section_opts, section_places) = s.located();
        if name.starts_with("global") {
            self.globals.extend(section_opts);
            self.global_places.extend(section_places);
            return Ok(());
        }
        let mut opts = self.globals.clone();
        opts.extend(section_opts);
        let mut places = self.global_places.clone();
        places.extend(section_places);
        let loc = Located { job: &name, opts: &opts, places: &places, header: header.as_ref() };
        let ioengine = opts.iter().rposition(|(k, _)| k == "ioengine");
        if let Some(i) = ioengine.filter(|&i| engine(opts[i].1.as_deref().unwrap_or("").trim()).is_err()) {
            let e = opts[i].1.as_deref().unwrap_or("").trim();
            return Err(match &places[i] {
                Some(p) => UsageError::new(format!("{p}: [{name}]"), refused(e)),
                None => UsageError::new(format!("[{name}]"), refused(e)),
            });
        }
        if let Some(i) = opts.iter().position(|(k, _)| canonical(k).is_none()) {
            let why = format!("fio option '{}' is not supported by iolens", opts[i].0);
            return Err(UsageError::new(at(places[i].as_ref(), &format!("[{name}]")), why));
        }
        let job = build(&name, &opts, stonewall, None).map_err(|e| loc.place(e))?;
        // Without group_reporting fio reports each numjobs clone apart, on files of its own
        // (numjobs is at most 1,024, checked by the build).
        let clones_apart = if self.whole { 1 } else { job.clones };
        let clones = if clones_apart > 1 {
            (0..job.clones).map(|k| build(&name, &opts, stonewall, Some(k)).map_err(|e| loc.place(e))).collect()
        } else {
            Ok(vec![job])
        };
        for (k, mut job) in clones?.into_iter().enumerate() {
            // The clones start together: only the first opens a new group.
            if k > 0 {
                (job.stonewall, job.new_group) = (false, false);
            }
            self.add(job, (clones_apart > 1).then_some(k as u32), &opts, &loc)?;
        }
        Ok(())
    }

    /// A built job (or clone) joins its group.
    fn add(&mut self, mut job: job::Built, clone: Option<u32>, opts: &[Opt], loc: &Located) -> R<()> {
        // wait_for a job of the running group: start after it, that is, in the next group.
        if let Some(w) = &job.wait_for {
            let pos = self
                .jobs
                .iter()
                .rposition(|j| &j.name == w)
                .ok_or_else(|| loc.named("wait_for", &format!("no job named '{w}' comes before this one")))?;
            if self.jobs[pos].group == self.group && !job.stonewall {
                job.stonewall = true;
                job.new_group = false;
            }
        }
        if (job.stonewall || job.new_group) && self.prev_group_jobs > 0 {
            self.prev_group_jobs = 0;
            self.group += 1;
            if !job.stonewall {
                job.notes.push("new_group: fio runs it alongside the jobs before; iolens runs it after them".into());
            }
        }
        self.prev_group_jobs += 1;
        let mut options: Vec<(String, String)> = Vec::new();
        for (k, v) in opts {
            let v = v.clone().unwrap_or_default();
            match options.iter_mut().find(|(o, _)| canonical(o) == canonical(k)) {
                Some(slot) => *slot = (k.clone(), v),
                None => options.push((k.clone(), v)),
            }
        }
        if let Some(l) = &mut job.spec.logs {
            l.first_thread = self.threads + 1;
        }
        self.threads += job.spec.threads;
        let (name, mut spec, notes, ran) = (job.name, job.spec, job.notes, job.ran);
        spec.size_given = options.iter().any(|(k, _)| matches!(k.as_str(), "size" | "filesize"));
        let (group_reporting, allow_file_create) = (job.group_reporting, job.allow_file_create);
        self.exitall.push(job.exitall);
        self.jobs.push(FioJob {
            name,
            spec,
            group: self.group,
            group_reporting,
            options,
            notes,
            ran,
            clone,
            allow_file_create,
            size_pct: job.size_pct,
            size_passes: job.size_passes,
            unlink: job.unlink,
            hist: job.hist,
        });
        Ok(())
    }

    /// The jobs, with fio's `exitall` applied: when a job with it ends, the rest of its group
    /// is stopped, so no job of that group runs longer than the shortest such job.
    fn done(mut self) -> Vec<FioJob> {
        for g in 0..=self.group {
            let ends = self.jobs.iter().zip(&self.exitall).filter(|(j, &x)| x && j.group == g);
            let Some(end) = ends.map(|(j, _)| j.spec.duration).reduce(f64::min) else { continue };
            for j in self.jobs.iter_mut().filter(|j| j.group == g && j.spec.duration > end) {
                j.spec.duration = end;
                j.notes.push(format!("exitall: stopped after {end} s, when the first job with exitall ends"));
            }
        }
        self.jobs
    }
}

#[cfg(test)]
mod tests;

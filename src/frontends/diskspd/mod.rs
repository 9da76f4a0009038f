//! DiskSpd 2.x command lines → Specs. The rules follow DiskSpd's own CmdLineParser.cpp rather than
//! iolens' options: values are glued to their letter (`-t2`, never `-t 2`), options come before
//! targets, sizes take one K/M/G/T/b suffix, and DiskSpd's defaults apply (64K blocks, 2 outstanding,
//! cached I/O, 5 s warm-up), so a line pasted from a Windows run means here what it meant there.

use crate::error::UsageError;
use crate::workload::{BlockShare, DataPattern, Pattern, Spec};
pub use affinity::{Affinity, PeOrder};
pub use line::{Extras, IoRing};
use options::Line;
use wording::{alone, unsupported};

mod affinity;
pub mod fit;
mod line;
mod options;
mod v23;
mod wording;
mod xml;

type R<T> = Result<T, UsageError>;

/// A parsed DiskSpd line: the workload plus what DiskSpd would have printed or created differently.
#[derive(Debug, Clone, PartialEq)]
pub struct DiskspdJob {
    pub spec: Spec,
    /// One line each: where iolens runs the line differently from DiskSpd.
    pub notes: Vec<String>,
    /// `-L`: iolens always measures latency; DiskSpd prints its table only with -L.
    pub latency: bool,
    /// `-D`: DiskSpd prints the IOPS standard deviation only with -D.
    pub iops_stddev: bool,
    /// `-c<size>`: create the targets at this size.
    pub create_size: Option<u64>,
    /// The further time spans of an XML profile (`-X`), run after `spec` on the same targets.
    pub later: Vec<Spec>,
    /// `-R…`: the results layout asked for; None leaves it to the profile, else text.
    pub results: Option<ResultsFormat>,
    /// `-Rp…`: print the profile and run nothing.
    pub profile_only: bool,
    /// `-Rs…`: print the system information and run nothing.
    pub system_only: bool,
    /// What DiskSpd 2.3's switches asked for (affinity, buffers, IoRing, BypassIO).
    pub extras: Extras,
}

/// DiskSpd's two results layouts (`-Rtext`, `-Rxml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultsFormat {
    Text,
    Xml,
}

/// A whole number attached to a letter, as DiskSpd's atoi reads it but stricter: "-t1.5" or "-tX"
/// (1 and 0 to atoi) are refused, in DiskSpd's words for a bad value there.
fn number(s: &str) -> Option<u64> {
    s.bytes().all(|b| b.is_ascii_digit()).then(|| s.parse().ok()).flatten()
}

/// A count of at least 1 (-t -o -F -g), which DiskSpd reports only by naming the option.
fn count(arg: &str, s: &str) -> R<u32> {
    number(s).and_then(|n| u32::try_from(n).ok()).filter(|&n| n > 0).ok_or_else(|| wording::incorrect(arg, &[]))
}

/// DiskSpd's target forms → a path: on Linux, Windows files keep only their name, in the current directory.
pub(super) fn target(raw: &str, notes: &mut Vec<String>) -> R<String> {
    const DEV: &str = "iolens has no such device mapping on Linux; name the block device instead";
    let b = raw.as_bytes();
    let drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    if b.len() > 1 && b[0] == b'#' {
        return Err(unsupported(raw, &format!("a Windows physical drive number; {DEV} (/dev/sdb)")));
    }
    let device = raw.strip_prefix(r"\\.\").is_some()
        || raw.strip_prefix(r"\\?\").is_some_and(|r| !(r.len() > 2 && r.as_bytes()[1] == b':'));
    if (drive && b.len() == 2) || device {
        return Err(unsupported(raw, &format!("a Windows volume or device; {DEV} (/dev/sdb1)")));
    }
    if raw.is_empty() {
        return Err(unsupported(raw, "an empty argument is not a target"));
    }
    // On Windows a path means what it says (F:\dir\IO.dat tests drive F:); elsewhere it has
    // no such drive, and only its name is kept.
    if cfg!(windows) || (!drive && !raw.contains('\\')) {
        return Ok(raw.to_string());
    }
    // The first two bytes are ASCII when `drive` holds, so slicing at 2 stays on a char boundary.
    let rest = if drive { &raw[2..] } else { raw };
    let name = rest.rsplit(['\\', '/']).next().unwrap_or("");
    if matches!(name, "" | "." | "..") {
        return Err(unsupported(raw, "a Windows path that names no file"));
    }
    notes.push(format!("{raw} is a Windows path; using {name} in the current directory"));
    Ok(name.to_string())
}

/// iolens' own options that take a value (`--format json`), which a recorded line carries.
const OWN_WITH_VALUE: [&str; 5] = ["--format", "--out", "--label", "--tag", "--store"];

/// A recorded `iolens diskspd …` line (a result's `args`) without the command name and iolens'
/// own options: the DiskSpd line as typed.
pub fn typed_line(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter().skip_while(|a| *a == "diskspd");
    while let Some(a) = it.next() {
        if OWN_WITH_VALUE.contains(&a.as_str()) {
            it.next();
        } else if !a.starts_with("--") && a != "-q" {
            out.push(a.clone());
        }
    }
    out
}

/// What the results of a recorded DiskSpd line show beyond the counts: (`-L` latency, `-D`
/// per-interval IOPS). A line that no longer parses (its `-X` profile gone) shows both, which
/// iolens always measures.
pub fn shown(args: &[String]) -> (bool, bool) {
    parse(&typed_line(args)).map_or((true, true), |j| (j.latency, j.iops_stddev))
}

/// What a recorded DiskSpd line's 2.3 switches asked for; DiskSpd's defaults where the line no
/// longer parses.
pub fn recorded_extras(args: &[String]) -> Extras {
    parse(&typed_line(args)).map(|j| j.extras).unwrap_or_default()
}

/// Parses the arguments after `diskspd`; with `-X` the workload comes from an XML profile.
/// Without -c every target must exist, as DiskSpd requires, instead of iolens making a 1 GiB
/// file of a mistyped path. Checked before anything is created.
pub fn targets_exist(job: &DiskspdJob) -> R<()> {
    if job.create_size.is_some() {
        return Ok(());
    }
    let all = std::iter::once(&job.spec).chain(&job.later).flat_map(|s| &s.targets);
    match all.into_iter().find(|t| !std::path::Path::new(t.as_str()).exists()) {
        Some(t) => Err(wording::missing(t)),
        None => Ok(()),
    }
}

pub fn parse(args: &[String]) -> R<DiskspdJob> {
    parse_reading(args, &|file| crate::input::read_text(std::path::Path::new(file), "-X", crate::input::TEXT_LIMIT))
}

/// As [`parse`], with the text of the `-X` profile from `profile` (given the name after -X)
/// rather than from the file system, so a profile can be checked without a file.
pub fn parse_reading(args: &[String], profile: &dyn Fn(&str) -> R<String>) -> R<DiskspdJob> {
    match args.iter().find(|a| a.starts_with("-X")) {
        Some(x) => xml::parse_with_profile(args, x, profile),
        None => parse_line(args),
    }
}

/// Parses a command line without `-X`.
pub(super) fn parse_line(args: &[String]) -> R<DiskspdJob> {
    let split = args.iter().position(|a| !a.starts_with('-')).unwrap_or(args.len());
    let (opts, raw_targets) = args.split_at(split);
    if let Some(a) = raw_targets.iter().find(|a| a.starts_with('-')) {
        return Err(alone(a, &format!("parameters ({a}) must come before targets on the command line")));
    }
    let mut notes = Vec::new();
    let mut targets: Vec<String> = Vec::new();
    for raw in raw_targets {
        let t = target(raw, &mut notes)?;
        // Two different Windows paths may shrink to one name; the same path twice is DiskSpd-legal.
        if let Some(j) = targets.iter().position(|u| *u == t).filter(|&j| raw_targets[j] != *raw) {
            let why = format!("both would be {t} in the current directory, as {} is; rename one", raw_targets[j]);
            return Err(unsupported(raw, &why));
        }
        targets.push(t);
    }
    // DiskSpd reads -b before everything else, so "b" sizes anywhere count blocks of the last -b.
    let mut block: u64 = 64 << 10;
    // -bs… is 2.3's buffer separation, not a block size.
    for (arg, v) in opts.iter().filter_map(|a| Some((a, a.strip_prefix("-b").filter(|v| !v.starts_with('s'))?))) {
        const BAD: &str = "invalid block size passed to -b";
        block = wording::size(v, block, false).map_err(|d| alone("-b", &format!("{d}; {BAD}")))?.0;
        if block == 0 || block > 64 << 20 {
            return Err(unsupported(arg, &format!("{BAD}; iolens takes block sizes from 1 byte to 64M")));
        }
    }
    let spec = Spec {
        targets,
        blocks: vec![BlockShare { size: block, pct: 100 }],
        pattern: Pattern::Sequential,
        qd: 2,
        warmup: 5.0,
        direct: false,
        seed: 0,
        ..Spec::default()
    };
    let mut line = Line { spec, notes, block, ..Line::default() };
    for arg in opts {
        options::apply(&mut line, arg)?;
    }
    if line.system_only {
        let (spec, notes) = (line.spec.clone(), line.notes.clone());
        return Ok(job_of(&line, spec, notes));
    }
    if line.spec.targets.is_empty() {
        return Err(alone("TARGET", "need to provide at least one filename"));
    }
    v23::settle_bypass(&mut line)?;
    v23::settle_ioring(&mut line);
    finish(line)
}

/// What the options of a line mean together: DiskSpd's conflicts, its per-thread throttle as
/// iolens' total, and the notes on where iolens runs the line differently.
fn finish(mut line: Line) -> R<DiskspdJob> {
    let (mut spec, mut notes) = (std::mem::take(&mut line.spec), std::mem::take(&mut line.notes));
    let (block, zbuf, zero) = (line.block, line.zbuf, line.zero);
    let n_targets = spec.targets.len() as u32;
    if let Some(n) = line.f_threads {
        if spec.threads > 1 {
            return Err(alone("-F", "-F and -t parameters cannot be used together"));
        }
        if n_targets > 1 {
            return Err(unsupported("-F", "threads shared by several targets are not supported; use -t"));
        }
        spec.threads = n;
    }
    if line.extras.affinity.disabled && line.extras.affinity.typed {
        return Err(alone("-n", "-n and -a parameters cannot be used together"));
    }
    spec.buffers_apart = if line.extras.buffer_separation { line::BUFFER_SEPARATION } else { 0 };
    if zero {
        spec.data = DataPattern::Zero;
    }
    if let Some(z) = zbuf.filter(|&z| z < block) {
        let line = format!(
            "custom write buffer (-Z) is smaller than the block size. Write buffer size: {z} block size: {block}"
        );
        return Err(alone("-Z", &line));
    }
    spec.direct = line.unbuffered == Some(true);
    spec.write_through = line.write_through == Some(true);
    if let Some(a) = line.random {
        spec.pattern = Pattern::Random;
        spec.align = Some(a);
    }
    spec.offset = line.base.unwrap_or(0);
    if let Some((end, o)) = line.max_end {
        if end <= spec.offset {
            return Err(alone(o, "maximum (-f) target offset must be greater than base (-B)"));
        }
        spec.range = Some(end - spec.offset);
    }
    let workers = spec.threads as f64 * n_targets as f64;
    if let Some((g, iops)) = line.throttle {
        // -g limits each thread on each target (bytes per ms, or IOPS with i); iolens' rates are totals.
        let (total, unit, per) =
            if iops { (g * workers, "IOPS", "IOPS") } else { (g * workers / 1e3, "MB/s", "bytes/ms") };
        *(if iops { &mut spec.rate_iops } else { &mut spec.rate_mbps }) = Some(total);
        notes.push(format!("-g: {g} {per} per thread = {total} {unit} over {workers} threads"));
    }
    // Checked here so the message names DiskSpd's options, not iolens' --buffered.
    let aligned = [("-b", block), ("-r", spec.align.unwrap_or(0)), ("-B", spec.offset)];
    if let Some((o, n)) = aligned.into_iter().find(|(_, n)| spec.direct && !n.is_multiple_of(512)) {
        return Err(unsupported(o, &format!("{n} is not a multiple of 512, which unbuffered I/O (-Su, -Sh) needs")));
    }
    let t = spec.threads;
    spec.shared_seq = line.interlocked;
    if line.interlocked && t == 1 {
        notes.push("WARNING: single-threaded test, -si ignored".into());
    } else if spec.pattern == Pattern::Sequential && t > 1 && !line.interlocked {
        notes.push(format!("DiskSpd starts all {t} sequential threads at the base offset; iolens spreads them evenly"));
    }
    if spec.writes() && !zero && !line.zr && zbuf.is_none() {
        notes.push("DiskSpd writes a repeating 0-255 byte pattern by default; iolens writes random data".into());
    }
    // iolens' own limits (1-4096 threads, more than 0 s, …), named by DiskSpd's letter.
    // The thread count is the one typed: -F (threads in all) or -t (per target).
    let threads = if line.f_threads.is_some() { "-F" } else { "-t" };
    spec.validate().map_err(|e| {
        const DSPD: &str = "--qd -o --duration -d --warmup -W --cooldown -C --size -c --rate-mbps -g";
        let words: Vec<&str> = DSPD.split(' ').collect();
        let o = match e.option.as_str() {
            "--threads" => threads,
            o => words.chunks(2).find(|w| w[0] == o).map_or(o, |w| w[1]),
        };
        unsupported(o, &e.message)
    })?;
    Ok(job_of(&line, spec, notes))
}

/// The job a settled line makes, with its spec and notes.
fn job_of(line: &Line, spec: Spec, notes: Vec<String>) -> DiskspdJob {
    DiskspdJob {
        spec,
        notes,
        latency: line.latency,
        iops_stddev: line.iops_stddev,
        create_size: line.create_size,
        later: Vec::new(),
        results: line.results,
        profile_only: line.profile_only,
        system_only: line.system_only,
        extras: line.extras.clone(),
    }
}

/// Holds a job's threads to CPUs as its affinity switches order them, on a machine where the
/// process may use `allowed`, `core_of` tells a CPU's core and `efficient` its E-cores.
pub fn hold_threads(
    job: &mut DiskspdJob,
    allowed: &[u32],
    core_of: &dyn Fn(u32) -> u32,
    efficient: &dyn Fn(u32) -> bool,
) -> R<()> {
    let cpus = job.extras.affinity.order(allowed, core_of, efficient)?;
    for s in std::iter::once(&mut job.spec).chain(&mut job.later) {
        s.cpus = cpus.clone();
    }
    Ok(())
}

#[cfg(test)]
mod tests;

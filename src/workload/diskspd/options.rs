//! DiskSpd's options, one definition each as in its CmdLineParser.cpp: the letter, what may be
//! attached to it, and what it does to the line being read. What the options mean together
//! (conflicts, throttles over all threads, DiskSpd's defaults) is settled once all are read, in
//! `parse_line`.

use super::{count, number, size, ResultsFormat, R};
use crate::error::{usage, UsageError};
use crate::workload::{AccessHint, Spec};

/// A DiskSpd line as its options so far leave it.
#[derive(Default)]
pub(super) struct Line {
    pub spec: Spec,
    pub notes: Vec<String>,
    /// `-b`, read before the other options: "b" sizes count blocks of it.
    pub block: u64,
    pub latency: bool,
    pub iops_stddev: bool,
    pub create_size: Option<u64>,
    /// `-S`/`-h`: unbuffered I/O and write-through, each settable once.
    pub unbuffered: Option<bool>,
    pub write_through: Option<bool>,
    /// `-r`: random I/O at this alignment.
    pub random: Option<u64>,
    pub seq: bool,
    pub interlocked: bool,
    pub base: Option<u64>,
    /// The end of the range, with the option that gave it (`-B` with a length, or `-f`).
    pub max_end: Option<(u64, &'static str)>,
    /// `-g`: the limit per thread and target, and whether it counts IOPS (else bytes per ms).
    pub throttle: Option<(f64, bool)>,
    pub f_threads: Option<u32>,
    pub affinity: bool,
    pub no_affinity: bool,
    pub zbuf: Option<u64>,
    pub zero: bool,
    pub zr: bool,
    pub results: Option<ResultsFormat>,
    pub profile_only: bool,
}

/// One option as typed: `arg` is the whole argument ("-t2"), `flag` its letter ("-t"), `v`
/// what is attached ("2").
struct Arg<'a> {
    arg: &'a str,
    letter: char,
    flag: &'a str,
    v: &'a str,
}

impl Arg<'_> {
    fn once(&self, seen: bool) -> R<()> {
        if seen {
            usage(self.flag, "can only be given once")
        } else {
            Ok(())
        }
    }
}

/// What an option does.
enum Does {
    /// Sets what the letter stands for; anything attached is ignored.
    Switch(fn(&mut Line)),
    /// Reads what is attached to the letter.
    Value(fn(&mut Line, &Arg) -> R<()>),
    /// Not supported by iolens, for this reason.
    Refused(&'static str),
}

const OPTIONS: &[(char, Does)] = &[
    // Read before the others (see `parse_line`).
    ('b', Does::Switch(|_| {})),
    ('t', Does::Value(|l, a| set(&mut l.spec.threads, count(a.flag, a.v)))),
    ('o', Does::Value(|l, a| set(&mut l.spec.qd, count(a.flag, a.v)))),
    ('F', Does::Value(|l, a| set(&mut l.f_threads, count(a.flag, a.v).map(Some)))),
    ('w', Does::Value(write_pct)),
    ('d', Does::Value(|l, a| set(&mut l.spec.duration, seconds(a)))),
    ('W', Does::Value(|l, a| set(&mut l.spec.warmup, seconds(a)))),
    ('C', Does::Value(|l, a| set(&mut l.spec.cooldown, seconds(a)))),
    ('c', Does::Value(create)),
    ('B', Does::Value(base)),
    ('f', Does::Value(max_offset)),
    ('r', Does::Value(random)),
    ('s', Does::Value(sequential)),
    ('S', Does::Value(caching)),
    ('h', Does::Value(caching)),
    ('g', Does::Value(throttle)),
    ('z', Does::Value(seed)),
    ('Z', Does::Value(write_source)),
    ('L', Does::Switch(|l| l.latency = true)),
    ('D', Does::Value(iops_stddev)),
    ('n', Does::Switch(|l| l.no_affinity = true)),
    ('a', Does::Value(affinity)),
    ('v', Does::Value(verbosity)),
    ('P', Does::Switch(|_| {})),
    ('R', Does::Value(results)),
    ('I', Does::Value(priority)),
    ('T', Does::Value(thread_stride)),
    ('x', Does::Refused("completion routines are not supported")),
    ('X', Does::Refused("a second XML profile is not allowed")),
    ('y', Does::Refused("event synchronization is not supported")),
    ('e', Does::Refused("ETW tracing is not supported")),
    ('l', Does::Refused("large-page buffers are not supported")),
    ('N', Does::Refused("memory-mapped flush modes are not supported")),
    ('O', Does::Refused("outstanding I/Os per thread over all targets are not supported; use -o")),
    ('p', Does::Refused("parallel I/Os at one sequential offset are not supported")),
    ('i', Does::Refused("bursts with think time are not supported")),
    ('j', Does::Refused("bursts with think time are not supported")),
    (':', Does::Refused("experimental flags are not supported")),
    ('?', Does::Refused("asks for DiskSpd's help text, which iolens does not reproduce")),
];

/// Applies one option (an argument starting with '-').
pub(super) fn apply(line: &mut Line, arg: &str) -> R<()> {
    // `arg` starts with the ASCII '-', so byte 1 is a char boundary.
    let mut it = arg[1..].chars();
    let Some(letter) = it.next() else {
        return usage(arg, "is not an option; DiskSpd options are a letter with the value attached, e.g. -t2");
    };
    let flag = format!("-{letter}");
    let a = Arg { arg, letter, flag: &flag, v: it.as_str() };
    match OPTIONS.iter().find(|(l, _)| *l == letter).map(|(_, does)| does) {
        Some(Does::Switch(set)) => {
            set(line);
            Ok(())
        }
        Some(Does::Value(apply)) => apply(line, &a),
        Some(Does::Refused(why)) => usage(arg, *why),
        None => usage(arg, "is not a DiskSpd option"),
    }
}

fn set<T>(slot: &mut T, v: R<T>) -> R<()> {
    *slot = v?;
    Ok(())
}

fn seconds(a: &Arg) -> R<f64> {
    Ok(number(a.flag, a.v, "a whole number of seconds")? as f64)
}

fn write_pct(l: &mut Line, a: &Arg) -> R<()> {
    match number(a.flag, a.v, "a write percentage")? {
        w @ 0..=100 => l.spec.read_pct = 100 - w as u32,
        _ => return usage(a.flag, format!("{} is out of range; use a write percentage 0-100", a.v)),
    }
    Ok(())
}

fn create(l: &mut Line, a: &Arg) -> R<()> {
    l.spec.size = size(a.flag, a.v, l.block)?;
    l.create_size = Some(l.spec.size);
    Ok(())
}

fn base(l: &mut Line, a: &Arg) -> R<()> {
    let (f, v) = (a.flag, a.v);
    a.once(l.base.is_some())?;
    let (b, len) = v.split_once(':').map_or((v, None), |(b, l)| (b, Some(l)));
    let b = size(f, b, l.block)?;
    l.base = Some(b);
    if let Some(len) = len {
        a.once(l.max_end.is_some())?;
        let end = b.checked_add(size(f, len, l.block)?);
        l.max_end = Some((end.ok_or_else(|| UsageError::new(f, "base + length overflows"))?, "-B"));
    }
    Ok(())
}

/// `-f<size>`, the end of the range, or `-f` with Windows file access hints.
fn max_offset(l: &mut Line, a: &Arg) -> R<()> {
    let v = a.v;
    if v.starts_with(|c: char| c.is_ascii_digit()) {
        a.once(l.max_end.is_some())?;
        l.max_end = Some((size(a.flag, v, l.block)?, "-f"));
    } else if !v.is_empty() && v.chars().all(|c| "rst".contains(c)) {
        // DiskSpd lets -fr and -fs be given together; Windows then honours the random hint.
        if v.contains('r') {
            l.spec.hint = AccessHint::Random;
        } else if v.contains('s') {
            l.spec.hint = AccessHint::Sequential;
        }
        if v.contains('t') {
            l.notes.push(format!("{}: the temporary-file hint (-ft) is not applied", a.arg));
        }
    } else {
        return usage(a.flag, format!("'{v}' is neither a size nor access hints (r, s, t)"));
    }
    Ok(())
}

fn random(l: &mut Line, a: &Arg) -> R<()> {
    let v = a.v;
    if v.starts_with('s') {
        return usage(a.arg, "mixed random/sequential I/O is not supported");
    }
    if v.starts_with('d') {
        return usage(a.arg, "random distributions over target ranges are not supported");
    }
    if l.seq {
        return usage(a.arg, "conflicts with sequential I/O (-s)");
    }
    a.once(l.random.is_some())?;
    let align = if v.is_empty() { l.block } else { size(a.flag, v, l.block)? };
    l.random = Some(if align > 0 { align } else { return usage(a.flag, "an alignment of 0 is not allowed") });
    Ok(())
}

fn sequential(l: &mut Line, a: &Arg) -> R<()> {
    if l.random.is_some() {
        return usage(a.arg, "conflicts with random I/O (-r)");
    }
    a.once(l.seq)?;
    l.seq = true;
    l.interlocked = a.v.starts_with('i');
    let stride = a.v.strip_prefix('i').unwrap_or(a.v);
    if !stride.is_empty() && size(a.flag, stride, l.block)? != l.block {
        let block = l.block;
        return usage(a.arg, format!("strides other than the block size ({block}) are not supported"));
    }
    Ok(())
}

/// `-S[bhmruw]` and `-h` (the same as `-Sh`); a bare `-S` is `-Su`.
fn caching(l: &mut Line, a: &Arg) -> R<()> {
    let flags = match (a.letter, a.v) {
        ('h', _) => "h",
        (_, "") => "u",
        (_, v) => v,
    };
    for c in flags.chars() {
        let (cache, through) = match c {
            'b' => (Some(false), None),
            'u' => (Some(true), None),
            'w' => (None, Some(true)),
            'h' => (Some(true), Some(true)),
            'm' => return usage(a.arg, "memory-mapped I/O is not supported"),
            'r' => return usage(a.arg, "remote-only caching is not supported"),
            _ => return usage(a.flag, format!("'{c}' is not a caching flag; use b, h, u or w")),
        };
        if (cache.is_some() && l.unbuffered.is_some()) || (through.is_some() && l.write_through.is_some()) {
            return usage(a.arg, "conflicts with an earlier caching option (-S or -h)");
        }
        l.unbuffered = l.unbuffered.or(cache);
        l.write_through = l.write_through.or(through);
    }
    Ok(())
}

fn throttle(l: &mut Line, a: &Arg) -> R<()> {
    let (n, iops) = a.v.strip_suffix('i').map_or((a.v, false), |n| (n, true));
    l.throttle = Some((count(a.flag, n)? as f64, iops));
    Ok(())
}

/// `-z<seed>`, or `-z` alone for a seed from the clock.
fn seed(l: &mut Line, a: &Arg) -> R<()> {
    if a.v.is_empty() {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        l.spec.seed = now.map_or(0, |d| d.as_nanos() as u64 & 0xffff_ffff);
        l.notes.push(format!("-z: random seed {} taken from the clock", l.spec.seed));
        return Ok(());
    }
    match number(a.flag, a.v, "a seed")? {
        s if s <= u32::MAX as u64 => l.spec.seed = s,
        _ => return usage(a.flag, format!("{} is not a 32-bit seed", a.v)),
    }
    Ok(())
}

/// `-Z` (zeros), `-Zr` (random data) or `-Z<size>` (a write source buffer).
fn write_source(l: &mut Line, a: &Arg) -> R<()> {
    match a.v {
        "" => l.zero = true,
        "r" => l.zr = true,
        v if v.contains(',') => return usage(a.arg, "write data from a file is not supported"),
        v => {
            l.zbuf = Some(size(a.flag, v, l.block)?).filter(|&n| n > 0);
            if l.zbuf.is_none() {
                return usage(a.flag, "a write source buffer of 0 bytes is not allowed");
            }
            l.notes.push(format!("{}: iolens writes fresh random data per I/O, not slices of one buffer", a.arg));
        }
    }
    Ok(())
}

fn iops_stddev(l: &mut Line, a: &Arg) -> R<()> {
    l.iops_stddev = true;
    let ms = if a.v.is_empty() { 1000 } else { number(a.flag, a.v, "milliseconds")? };
    if ms > 0 && ms != 1000 {
        l.notes.push(format!("{}: iolens samples IOPS once per second, not every {ms} ms", a.arg));
    }
    Ok(())
}

fn affinity(l: &mut Line, a: &Arg) -> R<()> {
    let v = a.v;
    // DiskSpd's grammar: "" or "g", else CPU numbers and gN group prefixes, ending on a CPU.
    let num = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let list = v.split(',').all(|t| num(t.strip_prefix('g').unwrap_or(t)));
    if !(v.is_empty() || v == "g" || (list && !v.rsplit(',').next().is_some_and(|t| t.starts_with('g')))) {
        return usage(a.flag, format!("'{v}' is not an affinity list; write e.g. -a0,1 or -ag0,0,1"));
    }
    l.affinity = true;
    l.notes.push(format!("{}: CPU affinity is ignored; the scheduler places iolens' threads", a.arg));
    Ok(())
}

fn verbosity(_: &mut Line, a: &Arg) -> R<()> {
    match a.v {
        "" | "s" => Ok(()),
        v => usage(a.flag, format!("'{v}' is not a verbosity; use -v or -vs")),
    }
}

/// `-R[p]text`, `-R[p]xml` or `-Rp`: the results layout, or the profile alone.
fn results(l: &mut Line, a: &Arg) -> R<()> {
    let v = a.v;
    l.profile_only |= v.starts_with('p');
    l.results = match v.strip_prefix('p').unwrap_or(v) {
        "text" => Some(ResultsFormat::Text),
        "xml" => Some(ResultsFormat::Xml),
        "" if l.profile_only => l.results,
        _ => return usage(a.flag, format!("'{v}' is not a results format; use text, xml, p, ptext or pxml")),
    };
    Ok(())
}

fn priority(_: &mut Line, a: &Arg) -> R<()> {
    match number(a.flag, a.v, "a priority")? {
        3 => Ok(()),
        1 | 2 => usage(a.arg, "I/O priority hints are not supported"),
        _ => usage(a.flag, format!("'{}' is not a priority; use 1, 2 or 3", a.v)),
    }
}

/// `-T<size>` is refused either way, but a malformed size is named as such first.
fn thread_stride(l: &mut Line, a: &Arg) -> R<()> {
    if size(a.flag, a.v, l.block)? == 0 {
        return usage(a.flag, "a thread stride of 0 is not allowed");
    }
    usage(a.arg, "per-thread start offsets are not supported; iolens spreads threads evenly")
}

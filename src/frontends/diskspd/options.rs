//! DiskSpd's options, one definition each as in its CmdLineParser.cpp: the letter, what may be
//! attached to it, and what it does to the line being read. What the options mean together
//! (conflicts, throttles over all threads, DiskSpd's defaults) is settled once all are read, in
//! `parse_line`.

pub(super) use super::line::Line;
use super::wording::{alone, bad_time, incorrect, invalid_option, size, sized, unsupported};
use super::{count, number, v23, ResultsFormat, R};
use crate::workload::AccessHint;

/// One option as typed: `arg` is the whole argument ("-t2"), `letter` its letter ('t'), `v`
/// what is attached ("2").
struct Arg<'a> {
    arg: &'a str,
    letter: char,
    v: &'a str,
}

impl Arg<'_> {
    /// DiskSpd's refusal of this option as typed, after its reasons (if it gives any).
    fn bad<T>(&self, why: &[&str]) -> R<T> {
        Err(incorrect(self.arg, why))
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
    ('b', Does::Value(|l, a| a.v.strip_prefix('s').map_or(Ok(()), |v| v23::buffer_separation(l, a.arg, v)))),
    ('t', Does::Value(|l, a| set(&mut l.spec.threads, count(a.arg, a.v)))),
    (
        'o',
        Does::Value(|l, a| match a.v.strip_prefix('c') {
            Some(v) => v23::completion_depth(l, a.arg, v),
            None => set(&mut l.spec.qd, count(a.arg, a.v)),
        }),
    ),
    ('u', Does::Value(|l, a| v23::ioring(l, a.arg, a.v))),
    ('F', Does::Value(|l, a| set(&mut l.f_threads, count(a.arg, a.v).map(Some)))),
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
    ('n', Does::Switch(|l| l.extras.affinity.disabled = true)),
    ('a', Does::Value(|l, a| v23::affinity(l, a.arg, a.v))),
    ('v', Does::Value(verbosity)),
    ('P', Does::Switch(|_| {})),
    ('R', Does::Value(results)),
    ('I', Does::Value(priority)),
    ('T', Does::Value(thread_stride)),
    ('x', Does::Refused("completion routines are not supported")),
    ('X', Does::Value(|_, _| Err(alone("-X", "multiple XML profiles specified (-X)")))),
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
    let Some(letter) = it.next() else { return Err(invalid_option(arg)) };
    let a = Arg { arg, letter, v: it.as_str() };
    match OPTIONS.iter().find(|(l, _)| *l == letter).map(|(_, does)| does) {
        Some(Does::Switch(set)) => {
            set(line);
            Ok(())
        }
        Some(Does::Value(apply)) => apply(line, &a),
        Some(Does::Refused(why)) => Err(unsupported(arg, why)),
        None => Err(invalid_option(arg)),
    }
}

fn set<T>(slot: &mut T, v: R<T>) -> R<()> {
    *slot = v?;
    Ok(())
}

fn seconds(a: &Arg) -> R<f64> {
    number(a.v).map(|n| n as f64).ok_or_else(|| bad_time(a.letter, a.v))
}

fn write_pct(l: &mut Line, a: &Arg) -> R<()> {
    match number(a.v) {
        _ if a.v.is_empty() => return a.bad(&["no write ratio passed to -w"]),
        Some(w @ 0..=100) => l.spec.read_pct = 100 - w as u32,
        _ => return a.bad(&["write ratio passed to -w must be between 0 and 100 (percent)"]),
    }
    Ok(())
}

fn create(l: &mut Line, a: &Arg) -> R<()> {
    if a.v.is_empty() {
        return a.bad(&[]);
    }
    l.spec.size = sized(a.arg, a.v, l.block, "invalid target size passed to -c")?;
    l.create_size = Some(l.spec.size);
    Ok(())
}

const MAX_ONCE: &str = "maximum target offset (-Bbase:length or -fsize) can only be specified once";

/// `-Bbase[:length]`, checked in DiskSpd's order.
fn base(l: &mut Line, a: &Arg) -> R<()> {
    if a.v.is_empty() {
        return a.bad(&[]);
    }
    if l.base.is_some() {
        return a.bad(&["base target offset (-Bbase[:length]) can only be specified once"]);
    }
    let (b, rest) =
        size(a.v, l.block, true).map_err(|d| incorrect(a.arg, &[&d, "invalid base target offset passed to -B"]))?;
    l.base = Some(b);
    if rest.is_empty() {
        return Ok(());
    }
    let Some(len) = rest.strip_prefix(':') else {
        return a.bad(&["unexpected characters after -Bbase; use ':' to separate -Bbase:length"]);
    };
    if len.is_empty() {
        return a.bad(&["-Bbase:length - no length provided"]);
    }
    if l.max_end.is_some() {
        return a.bad(&[MAX_ONCE]);
    }
    const BAD_LEN: &str = "invalid target length passed to -B";
    let end = b.checked_add(sized(a.arg, len, l.block, BAD_LEN)?);
    l.max_end = Some((end.ok_or_else(|| incorrect(a.arg, &[BAD_LEN]))?, "-B"));
    Ok(())
}

/// `-f<size>`, the end of the range, or `-f` with Windows file access hints.
fn max_offset(l: &mut Line, a: &Arg) -> R<()> {
    let v = a.v;
    if v.starts_with(|c: char| c.is_ascii_digit()) {
        if l.max_end.is_some() {
            return a.bad(&[MAX_ONCE]);
        }
        l.max_end = Some((sized(a.arg, v, l.block, "invalid max target size passed to -f")?, "-f"));
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
        return a.bad(&[]);
    }
    Ok(())
}

fn random(l: &mut Line, a: &Arg) -> R<()> {
    let v = a.v;
    if v.starts_with('s') {
        return Err(unsupported(a.arg, "mixed random/sequential I/O is not supported"));
    }
    if v.starts_with('d') {
        return Err(unsupported(a.arg, "random distributions over target ranges are not supported"));
    }
    const BAD: &str = "invalid alignment passed to -r";
    let align = if v.is_empty() { l.block } else { sized(a.arg, v, l.block, BAD)? };
    if align == 0 {
        return a.bad(&[BAD]);
    }
    if l.random.is_some() {
        return a.bad(&["random IO (-r) specified multiple times"]);
    }
    if l.seq {
        return a.bad(&[SEQ_VS_RANDOM]);
    }
    l.random = Some(align);
    Ok(())
}

const SEQ_VS_RANDOM: &str = "sequential IO (-s) conflicts with random IO (-r/-rs)";

fn sequential(l: &mut Line, a: &Arg) -> R<()> {
    if l.random.is_some() {
        return a.bad(&[SEQ_VS_RANDOM]);
    }
    if l.seq {
        return a.bad(&["sequential IO (-s) specified multiple times"]);
    }
    l.seq = true;
    l.interlocked = a.v.starts_with('i');
    let stride = a.v.strip_prefix('i').unwrap_or(a.v);
    if !stride.is_empty() && sized(a.arg, stride, l.block, "invalid stride size passed to -s")? != l.block {
        let block = l.block;
        return Err(unsupported(a.arg, &format!("strides other than the block size ({block}) are not supported")));
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
        // DiskSpd's line when this flag meets an earlier one, per flag.
        let (cache, through, conflict) = match c {
            'b' => (Some(false), None, "-Sb conflicts with earlier specification of cache mode"),
            'u' => (Some(true), None, "-Su conflicts with earlier specification of cache mode/memory mapped IO"),
            'w' => (None, Some(true), "-Sw conflicts with earlier specification of write through"),
            'h' => {
                (Some(true), Some(true), "-Sh conflicts with earlier specification of cache/writethrough/memory mapped")
            }
            'm' => return Err(unsupported(a.arg, "memory-mapped I/O is not supported")),
            'r' => return Err(unsupported(a.arg, "remote-only caching is not supported")),
            'y' | 'Y' => {
                v23::bypass(l, a.arg, c == 'Y');
                continue;
            }
            _ => return a.bad(&["unrecognized option provided to -S"]),
        };
        if (cache.is_some() && l.unbuffered.is_some()) || (through.is_some() && l.write_through.is_some()) {
            let conflict = match (a.letter, a.v) {
                ('h', _) => "-h conflicts with earlier specification of cache/writethrough",
                (_, "") => "-S conflicts with earlier specification of cache mode",
                _ => conflict,
            };
            return a.bad(&[conflict]);
        }
        l.unbuffered = l.unbuffered.or(cache);
        l.write_through = l.write_through.or(through);
    }
    Ok(())
}

fn throttle(l: &mut Line, a: &Arg) -> R<()> {
    let (n, iops) = a.v.strip_suffix('i').map_or((a.v, false), |n| (n, true));
    l.throttle = Some((count(a.arg, n)? as f64, iops));
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
    // DiskSpd's strtoul would saturate a seed over 32 bits; iolens refuses it as not 32-bit.
    match number(a.v) {
        Some(s) if s <= u32::MAX as u64 => l.spec.seed = s,
        _ => {
            // DiskSpd's line names only the value, so the option follows in its own phrase.
            let v = a.v;
            return a.bad(&[&format!("invalid random seed value '{v}' specified - must be a valid 32 bit integer")]);
        }
    }
    Ok(())
}

/// `-Z` (zeros), `-Zr` (random data) or `-Z<size>` (a write source buffer).
fn write_source(l: &mut Line, a: &Arg) -> R<()> {
    match a.v {
        "" => l.zero = true,
        "r" => l.zr = true,
        v if v.contains(',') => return Err(unsupported(a.arg, "write data from a file is not supported")),
        v => {
            const BAD: &str = "invalid size passed to -Z";
            l.zbuf = Some(sized(a.arg, v, l.block, BAD)?).filter(|&n| n > 0);
            if l.zbuf.is_none() {
                return a.bad(&[BAD]);
            }
            l.notes.push(format!("{}: iolens writes fresh random data per I/O, not slices of one buffer", a.arg));
        }
    }
    Ok(())
}

fn iops_stddev(l: &mut Line, a: &Arg) -> R<()> {
    l.iops_stddev = true;
    let ms = if a.v.is_empty() { 1000 } else { number(a.v).ok_or_else(|| incorrect(a.arg, &[]))? };
    if ms > 0 && ms != 1000 {
        l.notes.push(format!("{}: iolens samples IOPS once per second, not every {ms} ms", a.arg));
    }
    Ok(())
}

fn verbosity(l: &mut Line, a: &Arg) -> R<()> {
    match a.v {
        "" => {
            l.extras.verbose = true;
            l.notes.push("-v: iolens prints none of DiskSpd's verbose progress lines".into());
        }
        "s" => l.extras.wait_stats = true,
        v => return Err(alone("-v", &format!("invalid verbose mode (-v): '{v}'"))),
    }
    Ok(())
}

/// `-R[p]text`, `-R[p]xml` or `-Rp`: the results layout, or the profile alone.
fn results(l: &mut Line, a: &Arg) -> R<()> {
    if let Some(v) = a.v.strip_prefix('s') {
        return v23::system_only(l, a.arg, v);
    }
    l.profile_only |= a.v.starts_with('p');
    let v = a.v.strip_prefix('p').unwrap_or(a.v);
    l.results = match v {
        "text" => Some(ResultsFormat::Text),
        "xml" => Some(ResultsFormat::Xml),
        "" if l.profile_only => l.results,
        "" => return Err(alone("-R", "unspecified results format -R: use [p]<text|xml>")),
        _ => return Err(alone("-R", &format!("invalid results format (-R): '{v}'"))),
    };
    Ok(())
}

fn priority(_: &mut Line, a: &Arg) -> R<()> {
    match number(a.v) {
        Some(3) => Ok(()),
        Some(1 | 2) => Err(unsupported(a.arg, "I/O priority hints are not supported")),
        _ => a.bad(&[]),
    }
}

/// `-T<size>` is refused either way, but a malformed size is named as DiskSpd names it first.
fn thread_stride(l: &mut Line, a: &Arg) -> R<()> {
    const BAD: &str = "invalid offset passed to -T";
    if sized(a.arg, a.v, l.block, BAD)? == 0 {
        return a.bad(&[BAD]);
    }
    Err(unsupported(a.arg, "per-thread start offsets are not supported; iolens spreads threads evenly"))
}

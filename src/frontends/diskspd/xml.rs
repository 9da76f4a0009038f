//! DiskSpd XML profiles (`-X`) → specs. Each `<TimeSpan>` becomes the DiskSpd command line that
//! says the same, parsed by the command-line parser, so a profile means exactly what its line
//! means and is refused where the line would be. DiskSpd's rules for `-X` hold: only -d, -W, -C,
//! -R, -v and -z may be added, and targets on the command line stand in for the profile's `*1`,
//! `*2` … paths. A whole `-Rxml` result is taken too: its `<Profile>` is what was run.

use super::wording::alone;
use super::{parse_line, DiskspdJob, ResultsFormat};
use crate::error::{usage, UsageError};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

mod v23;

type R<T> = Result<T, UsageError>;
/// An error inside the profile: the element and what is wrong with it.
type E<T> = Result<T, (String, String)>;

/// One element: name, attributes, text, children.
#[derive(Debug)]
struct Node {
    name: String,
    attrs: Vec<(String, String)>,
    text: String,
    kids: Vec<Node>,
}

impl Node {
    fn new(e: &BytesStart) -> Result<Node, String> {
        let name = e.name().as_ref().to_string();
        let mut attrs = Vec::new();
        for a in e.attributes() {
            let a = a.map_err(|e| e.to_string())?;
            let v = a.normalized_value(quick_xml::XmlVersion::Implicit1_0).map_err(|e| e.to_string())?;
            attrs.push((a.key.as_ref().to_string(), v.into_owned()));
        }
        Ok(Node { name, attrs, text: String::new(), kids: Vec::new() })
    }

    fn child(&self, name: &str) -> Option<&Node> {
        self.kids.iter().find(|k| k.name == name)
    }
}

/// The document's root element; errors are one line.
fn dom(xml: &str) -> Result<Node, String> {
    // Text is trimmed per element, not per event: around an entity the spaces are part of it.
    let mut r = Reader::from_str(xml);
    let doc = Node { name: String::new(), attrs: Vec::new(), text: String::new(), kids: Vec::new() };
    let mut stack = vec![doc];
    loop {
        let ev = r.read_event().map_err(|e| format!("{e} (at byte {})", r.error_position()))?;
        let top = stack.last_mut().expect("the document stays on the stack");
        match ev {
            Event::Start(e) => stack.push(Node::new(&e)?),
            Event::Empty(e) => top.kids.push(Node::new(&e)?),
            Event::End(_) => {
                let mut done = stack.pop().expect("quick-xml matches end tags");
                done.text = done.text.trim().to_string();
                stack.last_mut().ok_or("an end tag without its start")?.kids.push(done);
            }
            Event::Text(t) => top.text.push_str(&t.xml10_content()),
            Event::CData(t) => top.text.push_str(&t.xml10_content()),
            Event::GeneralRef(g) => match g.resolve_char_ref().map_err(|e| e.to_string())? {
                Some(c) => top.text.push(c),
                None => {
                    let name = g.xml10_content();
                    let v = quick_xml::escape::resolve_predefined_entity(&name)
                        .ok_or_else(|| format!("unknown entity &{name};"))?;
                    top.text.push_str(v);
                }
            },
            Event::Eof => break,
            _ => {}
        }
    }
    let mut doc = stack.pop().filter(|_| stack.is_empty()).ok_or("the document ends inside an element")?;
    match doc.kids.len() {
        1 => Ok(doc.kids.remove(0)),
        0 => Err("no root element".into()),
        _ => Err("more than one root element".into()),
    }
}

fn boolean(n: &Node) -> E<bool> {
    match n.text.to_ascii_lowercase().as_str() {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        t => Err((n.name.clone(), format!("'{t}' is not true or false"))),
    }
}

fn refuse<T>(n: &Node, why: &str) -> E<T> {
    Err((n.name.clone(), why.into()))
}

fn unknown<T>(n: &Node, parent: &str) -> E<T> {
    Err((n.name.clone(), format!("is not an element of DiskSpd's <{parent}>")))
}

/// A time span as DiskSpd options: its own, and each target's path and options.
struct Span {
    args: Vec<String>,
    targets: Vec<(String, Vec<String>)>,
}

/// Profile → (time spans, the profile's results format, notes).
fn spans(p: &Node) -> E<(Vec<Span>, Option<ResultsFormat>, Vec<String>)> {
    let (mut out, mut format, mut notes) = (Vec::new(), None, Vec::new());
    let mut verbose = Vec::new();
    for k in &p.kids {
        match k.name.as_str() {
            "Progress" => {}
            "Verbose" if boolean(k)? => verbose.push("-v"),
            "VerboseStats" if boolean(k)? => verbose.push("-vs"),
            "Verbose" | "VerboseStats" => {}
            "ResultFormat" => {
                format = Some(match k.text.as_str() {
                    "xml" => ResultsFormat::Xml,
                    "text" => ResultsFormat::Text,
                    t => return Err((k.name.clone(), format!("'{t}' is not a results format; use text or xml"))),
                })
            }
            "PrecreateFiles" => notes.push(format!("<PrecreateFiles>{}</PrecreateFiles> is ignored", k.text)),
            "ETW" => return refuse(k, "ETW tracing is not supported"),
            "ExperimentFlags" => return refuse(k, "experimental flags are not supported"),
            "TimeSpans" => {
                for t in &k.kids {
                    if t.name != "TimeSpan" {
                        return unknown(t, "TimeSpans");
                    }
                    out.push(time_span(t)?);
                }
            }
            _ => return unknown(k, "Profile"),
        }
    }
    if out.is_empty() {
        return Err(("TimeSpans".into(), "the profile has no <TimeSpan>".into()));
    }
    for span in &mut out {
        span.args.extend(verbose.iter().map(|v| v.to_string()));
    }
    Ok((out, format, notes))
}

fn time_span(t: &Node) -> E<Span> {
    let mut args = Vec::new();
    let (mut iops_stddev, mut bucket, mut targets) = (false, None, None);
    for k in &t.kids {
        let v = k.text.as_str();
        match k.name.as_str() {
            "Duration" => args.push(format!("-d{v}")),
            "Warmup" => args.push(format!("-W{v}")),
            "Cooldown" => args.push(format!("-C{v}")),
            "RandSeed" => args.push(format!("-z{v}")),
            "ThreadCount" if v != "0" => args.push(format!("-F{v}")),
            "RequestCount" if v != "0" => {
                return refuse(
                    k,
                    "outstanding I/Os per thread over all targets are not supported; use the <Target>'s <RequestCount>",
                )
            }
            "ThreadCount" | "RequestCount" => {}
            "DisableAffinity" if boolean(k)? => args.push("-n".into()),
            "CompletionRoutines" if boolean(k)? => return refuse(k, "completion routines are not supported"),
            "MeasureLatency" if boolean(k)? => args.push("-L".into()),
            "CalculateIopsStdDev" => iops_stddev = boolean(k)?,
            "IoBucketDuration" => bucket = Some(v),
            "RandomWriteData" if boolean(k)? => args.push("-Zr".into()),
            "DisableAffinity" | "CompletionRoutines" | "MeasureLatency" | "RandomWriteData" => {}
            "Targets" => targets = Some(k),
            _ => match v23::time_span(k) {
                Some(switch) => args.extend(switch?),
                None => return unknown(k, "TimeSpan"),
            },
        }
    }
    if iops_stddev {
        args.push(format!("-D{}", bucket.unwrap_or("")));
    }
    let Some(targets) = targets.filter(|t| !t.kids.is_empty()) else {
        return Err(("TimeSpan".into(), "names no <Targets><Target>".into()));
    };
    let targets = targets.kids.iter().map(|n| if n.name == "Target" { target(n) } else { unknown(n, "Targets") });
    Ok(Span { args, targets: targets.collect::<E<_>>()? })
}

/// A `<Target>` → its path and the DiskSpd options that say the same.
fn target(t: &Node) -> E<(String, Vec<String>)> {
    let (mut a, mut path) = (Vec::new(), None);
    let (mut stride, mut interlocked) = (None, false);
    for k in &t.kids {
        let v = k.text.as_str();
        let on = || boolean(k);
        match k.name.as_str() {
            "Path" => path = Some(v.to_string()),
            "BlockSize" => a.push(format!("-b{v}")),
            "BaseFileOffset" if v != "0" => a.push(format!("-B{v}")),
            "SequentialScan" if on()? => a.push("-fs".into()),
            "RandomAccess" if on()? => a.push("-fr".into()),
            "TemporaryFile" if on()? => a.push("-ft".into()),
            "UseLargePages" if on()? => return refuse(k, "large-page buffers are not supported"),
            "DisableOSCache" if on()? => a.push("-Su".into()),
            "DisableAllCache" if on()? => a.push("-Sh".into()),
            "DisableLocalCache" if on()? => return refuse(k, "remote-only caching is not supported"),
            "WriteThrough" if on()? => a.push("-Sw".into()),
            "MemoryMappedIo" if on()? => return refuse(k, "memory-mapped I/O is not supported"),
            "FlushType" => return refuse(k, "memory-mapped flush modes are not supported"),
            "ParallelAsyncIO" if on()? => return refuse(k, "parallel I/Os at one sequential offset are not supported"),
            "BurstSize" | "ThinkTime" if v != "0" => return refuse(k, "bursts with think time are not supported"),
            "WriteBufferContent" => write_buffer(k, &mut a)?,
            "FileSize" => a.push(format!("-c{v}")),
            "Random" => a.push(format!("-r{v}")),
            "RandomRatio" if v != "100" => return refuse(k, "mixed random/sequential I/O is not supported"),
            "Distribution" => return refuse(k, "random distributions over target ranges are not supported"),
            "StrideSize" => stride = Some(v),
            "InterlockedSequential" => interlocked = on()?,
            "ThreadStride" if v != "0" => {
                return refuse(k, "per-thread start offsets are not supported; iolens spreads threads evenly")
            }
            "MaxFileSize" if v != "0" => a.push(format!("-f{v}")),
            "RequestCount" => a.push(format!("-o{v}")),
            "WriteRatio" => a.push(format!("-w{v}")),
            "Throughput" if v != "0" => {
                let iops = k.attrs.iter().any(|(n, u)| n == "unit" && u == "IOPS");
                a.push(format!("-g{v}{}", if iops { "i" } else { "" }));
            }
            "ThreadsPerFile" => a.push(format!("-t{v}")),
            "IOPriority" if v != "3" => a.push(format!("-I{v}")),
            "ThreadTargets" => return refuse(k, "threads assigned to targets are not supported"),
            "BypassIO" => a.push(v23::bypass(k)?),
            "BaseFileOffset" | "SequentialScan" | "RandomAccess" | "TemporaryFile" | "UseLargePages"
            | "DisableOSCache" | "DisableAllCache" | "DisableLocalCache" | "WriteThrough" | "MemoryMappedIo"
            | "ParallelAsyncIO" | "BurstSize" | "ThinkTime" | "RandomRatio" | "ThreadStride" | "MaxFileSize"
            | "Throughput" | "IOPriority" | "Weight" => {}
            _ => return unknown(k, "Target"),
        }
    }
    if stride.is_some() || interlocked {
        a.push(format!("-s{}{}", if interlocked { "i" } else { "" }, stride.unwrap_or("")));
    }
    let path = path.filter(|p| !p.is_empty()).ok_or_else(|| ("Target".to_string(), "has no <Path>".to_string()))?;
    Ok((path, a))
}

fn write_buffer(w: &Node, a: &mut Vec<String>) -> E<()> {
    for k in &w.kids {
        match (k.name.as_str(), k.text.as_str()) {
            ("Pattern", "zero") => a.push("-Z".into()),
            ("Pattern", "sequential" | "random") => {}
            ("Pattern", t) => return Err((k.name.clone(), format!("'{t}' is not sequential, zero or random"))),
            ("RandomDataSource", _) => {
                if k.child("FilePath").is_some() {
                    return refuse(k, "write data from a file is not supported");
                }
                let size = k.child("SizeInBytes").map_or("", |s| s.text.as_str());
                a.push(if size.is_empty() { "-Zr".into() } else { format!("-Z{size}") });
            }
            _ => return unknown(k, "WriteBufferContent"),
        }
    }
    Ok(())
}

/// The profile element each DiskSpd option of a time span came from, to name it in errors.
const FROM: [(&str, &str); 17] = [
    ("-b", "BlockSize"),
    ("-o", "RequestCount"),
    ("-t", "ThreadsPerFile"),
    ("-F", "ThreadCount"),
    ("-w", "WriteRatio"),
    ("-d", "Duration"),
    ("-W", "Warmup"),
    ("-C", "Cooldown"),
    ("-c", "FileSize"),
    ("-B", "BaseFileOffset"),
    ("-f", "MaxFileSize"),
    ("-r", "Random"),
    ("-s", "StrideSize"),
    ("-g", "Throughput"),
    ("-z", "RandSeed"),
    ("-Z", "WriteBufferContent"),
    ("-I", "IOPriority"),
];

/// `-X<file>` and what may go with it → the job, its later time spans in `later`.
pub(super) fn parse_with_profile(args: &[String], x: &str, read: &dyn Fn(&str) -> R<String>) -> R<DiskspdJob> {
    let file = &x[2..];
    if file.is_empty() {
        return usage("-X", "needs the profile's file attached, e.g. -Xprofile.xml");
    }
    let split = args.iter().position(|a| !a.starts_with('-')).unwrap_or(args.len());
    let (opts, subst) = args.split_at(split);
    let mut overrides = Vec::new();
    for a in opts.iter().filter(|a| a.as_str() != x) {
        match a.get(..2) {
            Some("-d" | "-W" | "-C" | "-R" | "-v" | "-z") => overrides.push(a.clone()),
            Some("-X") => return Err(alone("-X", "multiple XML profiles specified (-X)")),
            Some("-b") => return Err(alone("-b", "-b is not compatible with -X XML profile specification")),
            _ => {
                let line = format!("invalid XML profile specification; parameter {a} not compatible with -X");
                return Err(alone(a, &line));
            }
        }
    }
    if opts.iter().filter(|a| a.as_str() == x).count() > 1 {
        return Err(alone("-X", "multiple XML profiles specified (-X)"));
    }
    // The added options are checked first, so their errors name them and not the profile.
    parse_line(&[overrides.clone(), vec!["x".into()]].concat())?;
    let text = read(file)?;
    let bad = |m: String| UsageError::new("-X", format!("{file}: {m}"));
    let root = dom(&text).map_err(|e| bad(format!("not well-formed XML: {e}")))?;
    let profile = match root.name.as_str() {
        "Profile" => &root,
        "Results" => root.child("Profile").ok_or_else(|| bad("a <Results> without its <Profile>".into()))?,
        n => return Err(bad(format!("the root element is <{n}>, not DiskSpd's <Profile>"))),
    };
    let (spans, format, mut notes) = spans(profile).map_err(|(el, m)| bad(format!("<{el}>: {m}")))?;
    let mut jobs: Vec<DiskspdJob> = Vec::new();
    for (i, s) in spans.iter().enumerate() {
        let line = |opts: &[String], paths: Vec<String>| {
            parse_line(&[s.args.clone(), opts.to_vec(), overrides.clone(), paths].concat()).map_err(|e| {
                let el = FROM.iter().find(|(o, _)| e.option.get(..2) == Some(*o)).map(|(_, el)| format!("<{el}>"));
                // DiskSpd's "ERROR: " belongs at the start of a line, not inside this one.
                let m = e.message.strip_prefix("ERROR: ").unwrap_or(&e.message);
                bad(format!("<TimeSpan> {}: {}: {m}", i + 1, el.unwrap_or(e.option)))
            })
        };
        let paths = substitute(&s.targets.iter().map(|t| t.0.clone()).collect::<Vec<_>>(), subst, file)?;
        // iolens runs one workload over all targets of a test, where DiskSpd allows one per
        // target: each target alone must mean the same as the first.
        let alone = |k: usize| -> R<_> {
            let j = line(&s.targets[k].1, vec![paths[k].clone()])?;
            Ok((crate::workload::Spec { targets: Vec::new(), ..j.spec }, j.create_size))
        };
        let first = alone(0)?;
        for k in 1..paths.len() {
            if alone(k)? != first {
                return Err(bad(format!(
                    "<TimeSpan> {}: <Target> {} is set up differently from {}; iolens runs the same workload on every target of a <TimeSpan>",
                    i + 1,
                    paths[k],
                    paths[0]
                )));
            }
        }
        let job = line(&s.targets[0].1, paths)?;
        if let Some(j) = jobs.first() {
            if (&j.spec.targets, j.create_size) != (&job.spec.targets, job.create_size) {
                return Err(bad(format!(
                    "<TimeSpan> {} uses other targets or <FileSize> than the first; iolens prepares the targets once for all time spans",
                    i + 1
                )));
            }
        }
        jobs.push(job);
    }
    let mut later = jobs.split_off(1);
    let mut job = jobs.pop().expect("a profile has a time span");
    for j in &mut later {
        job.latency |= j.latency;
        job.iops_stddev |= j.iops_stddev;
        notes.append(&mut j.notes);
    }
    notes.append(&mut job.notes);
    let mut seen = std::collections::HashSet::new();
    notes.retain(|n| seen.insert(n.clone()));
    job.notes = notes;
    job.results = job.results.or(format);
    job.later = later.into_iter().map(|j| j.spec).collect();
    Ok(job)
}

/// DiskSpd's template paths: `*1` is the first target on the command line, `*2` the second ….
fn substitute(paths: &[String], given: &[String], file: &str) -> R<Vec<String>> {
    let mut used = vec![false; given.len()];
    let mut out = Vec::new();
    for p in paths {
        match p.strip_prefix('*').map(|n| n.parse::<usize>()) {
            Some(Ok(n)) if n >= 1 && n <= given.len() => {
                used[n - 1] = true;
                out.push(given[n - 1].clone());
            }
            Some(_) => {
                return usage("-X", format!("{file} names the template path {p}; give its target on the command line"))
            }
            None => out.push(p.clone()),
        }
    }
    match used.iter().position(|u| !u) {
        Some(i) => usage(&given[i], "is not used: the profile has no template path (*1, *2 …) for it"),
        None => Ok(out),
    }
}

#[cfg(test)]
mod tests;

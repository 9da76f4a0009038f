//! DiskSpd 2.2's layouts (ResultParser.cpp, XmlResultParser.cpp): the text with its Command
//! Line, input parameters, system information and, per time span, the CPU table, the Total /
//! Read / Write per-thread tables and the latency percentiles; and `-Rxml`. Both read the
//! result alone; what the typed line asked to show (`-L`, `-D`) comes from the recorded line.

mod latency;
mod params;
pub mod profile;
mod system;
mod tables;
mod waits;
pub mod xml;
mod xml_system;

use crate::frontends::diskspd::{recorded_extras, shown, typed_line, Extras};
use crate::result::RunResult;
use crate::workload::Spec;
use std::fmt::Write;

/// What DiskSpd prints beyond the counts: latency (`-L`), per-interval IOPS (`-D`) and wait
/// statistics (`-vs`).
#[derive(Clone, Copy)]
pub(super) struct Shown {
    pub latency: bool,
    pub iops: bool,
    pub waits: bool,
}

impl Shown {
    fn of(r: &RunResult) -> Shown {
        let (latency, iops) = shown(&r.args);
        Shown { latency, iops, waits: recorded_extras(&r.args).wait_stats }
    }
}

pub fn render(r: &RunResult) -> String {
    let show = Shown::of(r);
    let extras = recorded_extras(&r.args);
    let mut o = String::new();
    let _ = writeln!(o, "\nCommand Line: diskspd {}\n", typed_line(&r.args).join(" "));
    let _ = writeln!(o, "Input parameters:\n");
    let paths: Vec<String> = r.host.targets.iter().map(|t| t.path.clone()).collect();
    for (i, t) in r.tests.iter().enumerate() {
        let paths = if paths.is_empty() { &t.spec.targets } else { &paths };
        // The ring's line says what ran: a ring (Windows's, or Linux's in its place), or where
        // Windows had none, I/O Completion Ports.
        let ran = Extras { ioring: extras.ioring.filter(|_| t.engine != "iocp"), ..extras.clone() };
        params::time_span(&mut o, &t.spec, paths, (t.depth, &t.engine), show, &ran, i + 1);
    }
    system::system(&mut o, &r.host, Some(&r.started_at));
    for (i, t) in r.tests.iter().enumerate() {
        let _ = writeln!(o, "\nResults for timespan {}:\n{}", i + 1, "*".repeat(79));
        tables::results(&mut o, r, t, show);
    }
    if r.interrupted {
        let _ = writeln!(o, "\nINTERRUPTED: the figures cover only the time measured before Ctrl-C.");
    }
    o
}

/// DiskSpd's `-Rp`: the command line, then the input parameters of each time span, for specs
/// that were not run, each with the depth and engine that would run it; `shown` is what `-L`
/// and `-D` asked for.
pub fn profile_text(
    line: &[String],
    specs: &[(Spec, u32, &str)],
    extras: &Extras,
    (latency, iops): (bool, bool),
) -> String {
    let mut o = format!("\nCommand Line: diskspd {}\n\nInput parameters:\n\n", line.join(" "));
    for (i, (s, depth, engine)) in specs.iter().enumerate() {
        params::time_span(
            &mut o,
            s,
            &s.targets,
            (*depth, engine),
            Shown { latency, iops, waits: false },
            extras,
            i + 1,
        );
    }
    o
}

/// DiskSpd's `-Rs`: this machine's system information alone.
pub fn system_text(h: &crate::result::Host, started_at: &str) -> String {
    let mut o = String::new();
    system::system(&mut o, h, Some(started_at));
    o
}

/// The CPUs a test's threads ran on: those they were held to, else every CPU of the host.
pub(super) fn effective_cpus(r: &RunResult, t: &crate::result::TestResult) -> Vec<u32> {
    if !t.spec.cpus.is_empty() {
        let n = t.threads.len().max(1).min(t.spec.cpus.len());
        return t.spec.cpus[..n].to_vec();
    }
    if r.host.cpus.is_empty() {
        (0..r.host.cores).collect()
    } else {
        r.host.cpus.iter().map(|c| c.cpu).collect()
    }
}

/// DiskSpd's "2026/11/23 14:56:45 UTC" from RFC 3339's "2026-11-23T14:56:45Z".
pub(super) fn diskspd_time(rfc3339: &str) -> String {
    rfc3339.replace('-', "/").replace('T', " ").replace('Z', " UTC")
}

/// DiskSpd's `_DisplayFileSize`: the largest unit that divides the size evenly, else two
/// decimals of the largest unit below it.
pub(super) fn file_size(bytes: u64) -> String {
    const UNITS: [(u32, &str); 4] = [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")];
    for (shift, name) in UNITS {
        let unit = 1u64 << shift;
        if bytes >= unit {
            return if bytes.is_multiple_of(unit) {
                format!("{}{name}", bytes >> shift)
            } else {
                format!("{:.2}{name}", bytes as f64 / unit as f64)
            };
        }
    }
    format!("{bytes}")
}

#[cfg(test)]
mod tests;

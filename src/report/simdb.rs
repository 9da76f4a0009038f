//! `simdb`'s terminal report: what ran, SQLIOSim's per-file summary, latency per user kind,
//! per-second figures, the findings, stalls and errors, and the verdict.

use crate::result::simdb::{Simdb, SimdbFile};
use crate::result::verify::{counts, Finding, FindingClass};
use crate::result::{Host, RunResult, TestResult};
use crate::workload::size::format_size;
use std::fmt::Write;

/// Findings listed one by one; the rest are counted by class.
const LISTED: usize = 20;

pub fn render(r: &RunResult) -> String {
    let mut o = super::text::header(r);
    let Some(s) = &r.simdb else { return super::text::render(r) };
    setup(&mut o, s, &r.host);
    files(&mut o, s);
    latency(&mut o, &r.tests);
    seconds(&mut o, &r.tests);
    let all: Vec<&Finding> = r.tests.iter().filter_map(|t| t.verify.as_ref()).flat_map(|v| &v.findings).collect();
    findings(&mut o, &all);
    for st in &s.stalls {
        let _ =
            writeln!(o, "STALL: {} at {} in {} took {:.0} ms (at {:.1} s)", st.op, st.offset, st.file, st.ms, st.at_s);
    }
    for e in &s.errors {
        let _ = writeln!(o, "ERROR: {e}");
    }
    verdict(&mut o, r, s);
    o
}

fn setup(o: &mut String, s: &Simdb, host: &Host) {
    let data: Vec<_> = s.files.iter().filter(|f| f.kind == "data").collect();
    let cache = match (s.buffered, s.write_through) {
        (false, false) => super::cells::unbuffered(host, true).to_string(),
        (true, false) => "buffered".to_string(),
        (buffered, true) => super::cells::cache_mode(host, !buffered, true),
    };
    if s.verify_only {
        let _ = writeln!(o, "\nverify-only: the files of an earlier run checked against its journal {}", s.journal);
    } else {
        let users: Vec<String> = s.users.iter().map(|(k, n)| format!("{k} x{n}")).collect();
        let _ = writeln!(
            o,
            "\n{} data file(s), {} pages ({} B units), {cache}; users: {}",
            data.len(),
            format_size(s.page as u64),
            s.unit,
            users.join(", ")
        );
        let _ = writeln!(o, "journal: {}", s.journal);
    }
}

/// One column of SQLIOSim's per-file summary, as the terminal and the HTML page head it.
pub(super) struct FileColumn {
    /// The terminal's heading, and the column's width there.
    pub short: &'static str,
    pub width: usize,
    /// The page's heading.
    pub long: &'static str,
    /// A figure: right-aligned in the terminal, a number cell in the page.
    pub figure: bool,
    pub cell: fn(&SimdbFile) -> String,
}

/// The per-file summary's columns in the page's order; the terminal shows the file last, as
/// its width is the path's.
pub(super) const FILE_COLUMNS: [FileColumn; 13] = [
    FileColumn { short: "file", width: 0, long: "file", figure: false, cell: |f| f.path.clone() },
    FileColumn { short: "kind", width: 4, long: "kind", figure: false, cell: |f| f.kind.clone() },
    FileColumn { short: "size", width: 9, long: "size", figure: true, cell: |f| format_size(f.size) },
    FileColumn {
        short: "target",
        width: 7,
        long: "target ms",
        figure: true,
        cell: |f| format!("{:.0}", f.target_io_ms),
    },
    FileColumn {
        short: "run.avg",
        width: 8,
        long: "running avg ms",
        figure: true,
        cell: |f| format!("{:.3}", f.running_avg_io_ms),
    },
    FileColumn {
        short: "max.avg",
        width: 8,
        long: "max running avg ms",
        figure: true,
        cell: |f| format!("{:.3}", f.max_running_avg_io_ms),
    },
    FileColumn { short: "throttled", width: 9, long: "throttled", figure: true, cell: |f| f.throttled.to_string() },
    FileColumn { short: "reads", width: 9, long: "reads", figure: true, cell: |f| f.reads.to_string() },
    FileColumn {
        short: "scatter",
        width: 9,
        long: "scatter reads",
        figure: true,
        cell: |f| f.scatter_reads.to_string(),
    },
    FileColumn { short: "writes", width: 9, long: "writes", figure: true, cell: |f| f.writes.to_string() },
    FileColumn {
        short: "gather",
        width: 9,
        long: "gather writes",
        figure: true,
        cell: |f| f.gather_writes.to_string(),
    },
    FileColumn { short: "flushes", width: 7, long: "flushes", figure: true, cell: |f| f.flushes.to_string() },
    FileColumn {
        short: "I/O time ms",
        width: 11,
        long: "total I/O time ms",
        figure: true,
        cell: |f| format!("{:.0}", f.total_io_ms),
    },
];

fn files(o: &mut String, s: &Simdb) {
    let _ = writeln!(o, "\nPer file (SQLIOSim's summary; durations in ms)");
    let (file, rest) = FILE_COLUMNS.split_first().expect("the file column");
    let line = |o: &mut String, text: &dyn Fn(&FileColumn) -> String| {
        for (i, c) in rest.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = match c.figure {
                true => write!(o, "{sep}{:>w$}", text(c), w = c.width),
                false => write!(o, "{sep}{:<w$}", text(c), w = c.width),
            };
        }
        let _ = writeln!(o, "  {}", text(file));
    };
    line(o, &|c| c.short.to_string());
    for f in &s.files {
        line(o, &|c| (c.cell)(f));
    }
}

fn ms(v: Option<f64>) -> String {
    v.map(|x| format!("{:.3}", x / 1000.0)).unwrap_or_else(|| "-".into())
}

fn latency(o: &mut String, tests: &[TestResult]) {
    let _ = writeln!(o, "\nLatency per user kind (ms, submission to completion; MB/s = 10^6 B/s)");
    let _ = writeln!(
        o,
        "{:<26} {:>5} {:>10} {:>10} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>7}",
        "user", "users", "reads", "writes", "MB/s", "mean", "p50", "p99", "p99.9", "max", "fsyncs"
    );
    for t in tests {
        let l = &t.total.lat_us;
        let _ = writeln!(
            o,
            "{:<26} {:>5} {:>10} {:>10} {:>8.2} {:>8} {:>8} {:>8} {:>8} {:>9} {:>7}",
            t.name,
            t.spec.threads,
            t.read.ios,
            t.write.ios,
            t.total.mbps,
            ms(l.mean),
            ms(l.percentiles.get("50")),
            ms(l.percentiles.get("99")),
            ms(l.percentiles.get("99.9")),
            ms(l.max),
            t.fsync.count
        );
    }
}

fn seconds(o: &mut String, tests: &[TestResult]) {
    let n = tests.iter().map(|t| t.seconds.len()).max().unwrap_or(0);
    if n == 0 || tests.iter().all(|t| t.spec.duration == 0.0) {
        return;
    }
    let _ = writeln!(o, "\nPer second, all users (read IOPS, write IOPS, MB/s; the highest p99 of a user kind, µs)");
    for k in 0..n {
        let (r, w, mb) = tests
            .iter()
            .filter_map(|t| t.seconds.get(k))
            .fold((0.0, 0.0, 0.0), |a, s| (a.0 + s.read_iops, a.1 + s.write_iops, a.2 + s.mbps));
        // Percentiles of different users do not add up; the slowest kind's is the one to watch.
        let p99 = tests
            .iter()
            .filter_map(|t| t.seconds.get(k)?.p99_us)
            .fold(None, |a: Option<f64>, v| Some(a.map_or(v, |a| a.max(v))));
        let p99 = p99.map_or("-".into(), |v| format!("{v:.0}"));
        let _ = writeln!(o, "{:>4} s {:>10.0} {:>10.0} {:>9.2} {:>10}", k + 1, r, w, mb, p99);
    }
}

fn findings(o: &mut String, all: &[&Finding]) {
    if all.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nFindings");
    for f in all.iter().take(LISTED) {
        let found = match (f.found_gen, f.found_offset, f.found_file) {
            (Some(g), Some(a), Some(file)) => format!("gen {g} at {a} of file {file}"),
            (Some(g), Some(a), None) if a != f.offset => format!("gen {g} at {a}"),
            (Some(g), _, _) => format!("gen {g}"),
            _ => "-".into(),
        };
        let persist = if f.persistent() { "persistent" } else { "transient" };
        let _ = writeln!(
            o,
            "{:<11} {} offset {} ({} B): expected gen {}, found {found}; {}/{} re-reads bad ({persist}); at byte {}: {}",
            f.class.as_str(),
            f.file,
            f.offset,
            f.len,
            f.expected_gen,
            f.bad_rereads,
            f.rereads,
            f.diff_at,
            f.diff
        );
    }
    if all.len() > LISTED {
        let _ = writeln!(o, "… and {} more (all in the store's findings table and the JSON)", all.len() - LISTED);
    }
}

fn verdict(o: &mut String, r: &RunResult, s: &Simdb) {
    let owned: Vec<Finding> =
        r.tests.iter().filter_map(|t| t.verify.as_ref()).flat_map(|v| v.findings.clone()).collect();
    let dropped: u64 = r.tests.iter().filter_map(|t| t.verify.as_ref()).map(|v| v.findings_dropped).sum();
    let checked: u64 = r
        .tests
        .iter()
        .filter(|t| !t.name.ends_with("log writer"))
        .filter_map(|t| t.verify.as_ref())
        .map(|v| v.pages_checked)
        .sum();
    let written: u64 = r
        .tests
        .iter()
        .filter(|t| !t.name.ends_with("log writer"))
        .filter_map(|t| t.verify.as_ref())
        .map(|v| v.pages_written)
        .sum();
    let throttled: u64 = s.files.iter().map(|f| f.throttled).sum();
    let _ = writeln!(o);
    let log = if s.verify_only {
        format!(
            "{} log records read back (acknowledged up to LSN {} as journaled)",
            s.log_records_checked, s.log_records
        )
    } else {
        format!("{} of {} log records read back", s.log_records_checked, s.log_records)
    };
    if owned.is_empty() && dropped == 0 {
        let _ = writeln!(
            o,
            "VERDICT: CLEAN: {checked} page reads checked, {written} page writes, {log}; nothing lost, torn, stale, misdirected, corrupt or unread"
        );
    } else {
        let by: Vec<String> = counts(&owned)
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(c, n)| match c {
                FindingClass::Stale => format!("{n} stale (lost writes)"),
                c => format!("{n} {c}"),
            })
            .collect();
        let more = if dropped > 0 { format!(" (+{dropped} not kept)") } else { String::new() };
        let _ =
            writeln!(o, "VERDICT: FINDINGS: {}{more}, of {checked} page reads checked; exit status 3", by.join(", "));
    }
    if throttled > 0 || !s.stalls.is_empty() {
        let _ = writeln!(
            o,
            "I/O: throttled {throttled} time(s) above the target I/O time, {} stall(s) over {} ms",
            s.stalls.len(),
            s.stall_ms
        );
    }
    if !s.errors.is_empty() {
        let _ = writeln!(o, "{} I/O error(s): exit status 1 unless findings say more", s.errors.len());
    }
    if r.interrupted {
        let _ = writeln!(o, "INTERRUPTED: the figures cover only the time before Ctrl-C.");
    }
}

//! DiskSpd's text layout: Command Line, input parameters, system information, the CPU table,
//! the Total / Read / Write per-thread tables and the latency table (min, 25th … 99th,
//! 3-nines … 9-nines, max, in ms), so its users read iolens' figures where they expect them.

use super::cells::DISKSPD;
use super::text::{cpu_table, thread_table};
use crate::result::{RunResult, TestResult};
use crate::workload::size::format_size;
use crate::workload::{DataPattern, Pattern, Spec};
use std::fmt::Write;

const RULE: &str = "-------------------------------------------------------------------------------";
const ROWS: [(&str, &str); 13] = [
    ("25th", "25"),
    ("50th", "50"),
    ("75th", "75"),
    ("90th", "90"),
    ("95th", "95"),
    ("99th", "99"),
    ("3-nines", "99.9"),
    ("4-nines", "99.99"),
    ("5-nines", "99.999"),
    ("6-nines", "99.9999"),
    ("7-nines", "99.99999"),
    ("8-nines", "99.999999"),
    ("9-nines", "99.9999999"),
];

pub fn render(r: &RunResult) -> String {
    let mut o = String::new();
    // The DiskSpd arguments as typed, without iolens' own --options.
    let mut shown = Vec::new();
    let mut skip = false;
    for a in r.args.iter().skip(1) {
        if std::mem::take(&mut skip) {
            continue;
        }
        match a.as_str() {
            "--format" | "--out" => skip = true,
            x if x.starts_with("--") || x == "-q" => {}
            x => shown.push(x),
        }
    }
    let _ = writeln!(o, "Command Line: diskspd {}", shown.join(" "));
    for (i, t) in r.tests.iter().enumerate() {
        test(&mut o, r, t, i + 1);
    }
    if r.interrupted {
        let _ = writeln!(o, "\nINTERRUPTED: the figures cover only the time measured before Ctrl-C.");
    }
    o
}

/// DiskSpd's `-Rp`: the input parameters of each time span, for specs that were not run.
pub fn profile_text(specs: &[Spec]) -> String {
    let mut o = String::new();
    for (i, s) in specs.iter().enumerate() {
        input_parameters(&mut o, s, &s.targets, s.qd, None, i + 1);
    }
    o
}

fn test(o: &mut String, r: &RunResult, t: &TestResult, span: usize) {
    let paths: Vec<String> = r.host.targets.iter().map(|t| t.path.clone()).collect();
    input_parameters(o, &t.spec, &paths, t.depth, Some(&t.engine), span);
    let _ =
        writeln!(o, "\nSystem information:\n\n\tcomputer name: {}\n\tstart time: {}", r.host.hostname, t.started_at);
    let _ = writeln!(o, "\nResults for timespan {span}:\n{}", "*".repeat(79));
    results(o, r, t);
}

fn input_parameters(o: &mut String, s: &Spec, paths: &[String], depth: u32, engine: Option<&str>, span: usize) {
    let _ = writeln!(o, "\nInput parameters:\n\n\ttimespan:   {span}\n\t-------------");
    let _ =
        writeln!(o, "\tduration: {}s\n\twarm up time: {}s\n\tcool down time: {}s", s.duration, s.warmup, s.cooldown);
    let _ = writeln!(o, "\tmeasuring latency\n\tgathering IOPS at intervals of 1000ms\n\trandom seed: {}", s.seed);
    for path in paths {
        let _ = writeln!(o, "\tpath: '{path}'");
        let _ = writeln!(o, "\t\tthink time: 0ms\n\t\tburst size: 0");
        let _ = writeln!(o, "\t\t{}", if s.direct { "software cache disabled" } else { "using software cache" });
        if s.write_through {
            let _ = writeln!(o, "\t\thardware write cache disabled, writethrough on");
        }
        let _ = writeln!(
            o,
            "\t\t{}",
            match s.data {
                DataPattern::Zero => "write buffer: zeros",
                DataPattern::Repeat { .. } => "write buffer: repeated pattern",
                _ => "write buffer: random (incompressible)",
            }
        );
        let _ = match s.read_pct {
            100 => writeln!(o, "\t\tperforming read test"),
            0 => writeln!(o, "\t\tperforming write test"),
            p => writeln!(o, "\t\tperforming mix test (read/write ratio: {p}/{})", 100 - p),
        };
        let _ = writeln!(o, "\t\tblock size: {}", format_size(s.blocks[0].size));
        let _ = match s.pattern {
            Pattern::Random => writeln!(o, "\t\tusing random I/O (alignment: {})", format_size(s.effective_align())),
            Pattern::Sequential => writeln!(o, "\t\tusing sequential I/O (stride: {})", format_size(s.blocks[0].size)),
        };
        let _ = writeln!(o, "\t\tnumber of outstanding I/O operations per thread: {depth}");
        let _ = writeln!(o, "\t\tthreads per file: {}", s.threads);
        if let Some(engine) = engine {
            let _ = writeln!(o, "\t\tusing {engine} (iolens)");
        }
    }
}

fn results(o: &mut String, r: &RunResult, t: &TestResult) {
    let _ = writeln!(
        o,
        "\nactual test time:\t{:.2}s\nthread count:\t\t{}\nproc count:\t\t{}",
        t.duration_s,
        t.threads.len(),
        t.cpu.cores
    );
    cpu_table(o, t);
    for (title, pick) in [("Total IO", 2usize), ("Read IO", 0), ("Write IO", 1)] {
        thread_table(o, t, &r.host.targets, title, pick);
    }
    let _ = writeln!(o, "\n\ntotal:\n  %-ile |  Read (ms) | Write (ms) | Total (ms)\n{}", &RULE[..46]);
    let row = |o: &mut String, label: &str, f: &dyn Fn(&crate::stats::LatStats) -> Option<f64>| {
        let (rd, wr, tt) = (&t.read.lat_us, &t.write.lat_us, &t.total.lat_us);
        let _ = writeln!(
            o,
            "{label:>7} | {:>10} | {:>10} | {:>10}",
            DISKSPD.ms(f(rd)),
            DISKSPD.ms(f(wr)),
            DISKSPD.ms(f(tt))
        );
    };
    row(o, "min", &|l| l.min);
    for (label, key) in ROWS {
        row(o, label, &|l| l.percentiles.get(key));
    }
    row(o, "max", &|l| l.max);
    for n in &t.notices {
        let _ = writeln!(o, "\nnotice: {n}");
    }
}

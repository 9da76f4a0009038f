//! The text's "Input parameters" (one time span) and "System information", in DiskSpd's words.

use super::{diskspd_time, file_size, Shown};
use crate::result::RunResult;
use crate::workload::{DataPattern, Pattern, Spec};
use std::collections::BTreeSet;
use std::fmt::Write;

pub(super) fn time_span(
    o: &mut String,
    s: &Spec,
    paths: &[String],
    depth: u32,
    engine: Option<&str>,
    show: Shown,
    span: usize,
) {
    let _ = writeln!(o, "\ttimespan: {span:>3}\n\t-------------");
    let _ =
        writeln!(o, "\tduration: {}s\n\twarm up time: {}s\n\tcool down time: {}s", s.duration, s.warmup, s.cooldown);
    if show.latency {
        let _ = writeln!(o, "\tmeasuring latency");
    }
    if show.iops {
        let _ = writeln!(o, "\tgathering IOPS at intervals of 1000ms");
    }
    let _ = writeln!(o, "\trandom seed: {}", s.seed);
    // iolens stamps fresh random data into every write, which is DiskSpd's -Zr.
    if s.writes() && !matches!(s.data, DataPattern::Zero | DataPattern::Repeat { .. }) {
        let _ = writeln!(o, "\tgenerating random data for each write IO");
    }
    for path in paths {
        target(o, s, path, depth, engine);
    }
    let _ = writeln!(o);
}

fn target(o: &mut String, s: &Spec, path: &str, depth: u32, engine: Option<&str>) {
    let _ = writeln!(o, "\tpath: '{path}'\n\t\tthink time: 0ms\n\t\tburst size: 0");
    let _ = writeln!(o, "\t\t{}", if s.direct { "software cache disabled" } else { "using software cache" });
    let _ = writeln!(
        o,
        "\t\t{}",
        match (s.write_through, s.direct) {
            (true, true) => "hardware write cache disabled, writethrough on",
            (true, false) => "hardware and software write caches disabled, writethrough on",
            _ => "using hardware write cache, writethrough off",
        }
    );
    if s.data == DataPattern::Zero {
        let _ = writeln!(o, "\t\tzeroing write buffers");
    }
    let _ = match s.read_pct {
        100 => writeln!(o, "\t\tperforming read test"),
        0 => writeln!(o, "\t\tperforming write test"),
        p => writeln!(o, "\t\tperforming mix test (read/write ratio: {p}/{})", 100 - p),
    };
    let _ = writeln!(o, "\t\tblock size: {}", file_size(s.blocks[0].size));
    let _ = match s.pattern {
        Pattern::Random => writeln!(o, "\t\tusing random I/O (alignment: {})", file_size(s.effective_align())),
        Pattern::Sequential => {
            let kind = if s.shared_seq { "interlocked sequential" } else { "sequential" };
            writeln!(o, "\t\tusing {kind} I/O (stride: {})", file_size(s.blocks[0].size))
        }
    };
    let _ = writeln!(o, "\t\tnumber of outstanding I/O operations per thread: {depth}");
    if s.offset != 0 {
        let _ = writeln!(o, "\t\tbase file offset: {}", file_size(s.offset));
    }
    if let Some(range) = s.range {
        let _ = writeln!(o, "\t\tmax file size: {}", file_size(s.end_asked.unwrap_or(s.offset + range)));
    }
    let _ = writeln!(o, "\t\tthreads per file: {}", s.threads);
    // DiskSpd names its completion mechanism here; iolens names the engine that ran.
    match engine {
        Some("iocp") if depth > 1 => {
            let _ = writeln!(o, "\t\tusing I/O Completion Ports");
        }
        Some(engine) if depth > 1 => {
            let _ = writeln!(o, "\t\tusing {engine}");
        }
        _ => {}
    }
    // iolens sets no I/O priority hint, so the OS's normal priority applies.
    let _ = writeln!(o, "\t\tIO priority: normal");
}

/// "System information": the machine and its processor topology as far as the OS reports it.
pub(super) fn system(o: &mut String, r: &RunResult) {
    let h = &r.host;
    let _ = writeln!(o, "System information:\n\n\tcomputer name: {}", h.hostname);
    let _ = writeln!(o, "\tstart time: {}\n", diskspd_time(&r.started_at));
    let count = |f: fn(&crate::result::CpuPlace) -> u32| h.cpus.iter().map(f).collect::<BTreeSet<_>>().len().max(1);
    let cores = if h.cpus.is_empty() { h.cores as usize } else { count(|c| c.core) };
    let _ = writeln!(o, "\tcpu count:\t\t{}\n\tcore count:\t\t{cores}", h.cores);
    // Linux has no processor groups: all CPUs are one group, as on Windows up to 64 of them.
    let _ = writeln!(o, "\tgroup count:\t\t1\n\tnode count:\t\t{}", count(|c| c.node));
    let _ = writeln!(o, "\tsocket count:\t\t{}\n\theterogeneous cores:\tn\n", count(|c| c.socket));
    let _ = writeln!(o, "\tactive power scheme:\t{}", h.power_scheme.as_deref().unwrap_or("<unknown>"));
}

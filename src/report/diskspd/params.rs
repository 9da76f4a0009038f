//! The text's "Input parameters" of one time span, in DiskSpd 2.3's words and indentation.

use super::{file_size, Shown};
use crate::frontends::diskspd::Extras;
use crate::workload::{DataPattern, Pattern, Spec};
use std::fmt::Write;

pub(super) fn time_span(
    o: &mut String,
    s: &Spec,
    paths: &[String],
    (depth, engine): (u32, &str),
    show: Shown,
    extras: &Extras,
    span: usize,
) {
    let _ = writeln!(o, "  timespan: {span:>3}\n  -------------");
    let _ = writeln!(
        o,
        "    duration: {}s\n    warm up time: {}s\n    cool down time: {}s",
        s.duration, s.warmup, s.cooldown
    );
    if show.latency {
        let _ = writeln!(o, "    measuring latency");
    }
    if show.iops {
        let _ = writeln!(o, "    gathering IOPS at intervals of 1000ms");
    }
    let _ = writeln!(o, "    random seed: {}", s.seed);
    // iolens stamps fresh random data into every write, which is DiskSpd's -Zr.
    if s.writes() && !matches!(s.data, DataPattern::Zero | DataPattern::Repeat { .. }) {
        let _ = writeln!(o, "    generating random data for each write IO");
    }
    if let Some(ring) = extras.ioring {
        let batch = if ring.percent { format!("{}%", ring.batch) } else { ring.batch.to_string() };
        let with = if ring.registered { "with" } else { "without" };
        let _ = writeln!(o, "    using IoRing (batch size: {batch}) {with} registered buffers");
    }
    let a = &extras.affinity;
    let _ = writeln!(o, "    affinity assignment: {}", a.words());
    if !a.cpus.is_empty() {
        let _ = writeln!(o, "    affinity (cpu): {}", crate::workload::cpus::cpu_ranges(&a.cpus));
    }
    let separation = if extras.buffer_separation { "thread optimized (16MiB)" } else { "system default" };
    let _ = writeln!(o, "    buffer separation: {separation}");
    if let Some(n) = extras.completion_depth {
        let _ = writeln!(o, "    completion depth: {n}");
    }
    for path in paths {
        target(o, s, path, depth, engine, extras);
    }
    let _ = writeln!(o);
}

fn target(o: &mut String, s: &Spec, path: &str, depth: u32, engine: &str, extras: &Extras) {
    let _ = writeln!(o, "    path: '{path}'\n      think time: 0ms\n      burst size: 0");
    let _ = writeln!(o, "      {}", if s.direct { "software cache disabled" } else { "using software cache" });
    let _ = writeln!(
        o,
        "      {}",
        match (s.write_through, s.direct) {
            (true, true) => "hardware write cache disabled, writethrough on",
            (true, false) => "hardware and software write caches disabled, writethrough on",
            _ => "using hardware write cache, writethrough off",
        }
    );
    if let Some(full) = extras.bypass_full {
        let _ = writeln!(o, "      using BypassIO ({})", if full { "full bypass" } else { "allow partial" });
    }
    if s.data == DataPattern::Zero {
        let _ = writeln!(o, "      zeroing write buffers");
    }
    let _ = match s.read_pct {
        100 => writeln!(o, "      performing read test"),
        0 => writeln!(o, "      performing write test"),
        p => writeln!(o, "      performing mix test (read/write ratio: {p}/{})", 100 - p),
    };
    let _ = writeln!(o, "      block size: {}", file_size(s.blocks[0].size));
    let _ = match s.pattern {
        Pattern::Random => writeln!(o, "      using random I/O (alignment: {})", file_size(s.effective_align())),
        Pattern::Sequential => {
            let kind = if s.shared_seq { "interlocked sequential" } else { "sequential" };
            writeln!(o, "      using {kind} I/O (stride: {})", file_size(s.blocks[0].size))
        }
    };
    let _ = writeln!(o, "      number of outstanding I/O operations per thread: {depth}");
    if s.offset != 0 {
        let _ = writeln!(o, "      base file offset: {}", file_size(s.offset));
    }
    if let Some(range) = s.range {
        let _ = writeln!(o, "      max file size: {}", file_size(s.end_asked.unwrap_or(s.offset + range)));
    }
    let _ = writeln!(o, "      threads per file: {}", s.threads);
    // DiskSpd names its completion mechanism here; iolens names the engine that ran.
    match engine {
        _ if extras.ioring.is_some() => {}
        "iocp" if depth > 1 => {
            let _ = writeln!(o, "      using I/O Completion Ports");
        }
        engine if depth > 1 => {
            let _ = writeln!(o, "      using {engine}");
        }
        _ => {}
    }
    // iolens sets no I/O priority hint, so the OS's normal priority applies.
    let _ = writeln!(o, "      IO priority: normal");
}

//! The SQLIO matrix as DBAs tabulate it: threads, block size, pattern, operation, IOPS,
//! MB/s and latency (ms, as SQLIO printed it); with --histogram, SQLIO's 1 ms histogram per cell.

use super::text::header;
use crate::result::RunResult;
use crate::workload::size::format_block;
use crate::workload::Pattern;
use std::fmt::Write;

pub fn render(r: &RunResult) -> String {
    let mut o = header(r);
    if let Some(t) = r.tests.first() {
        let s = &t.spec;
        let _ = writeln!(
            o,
            "\n{} test file, {} s per cell, {} outstanding per thread, {}, engine {}",
            crate::workload::size::format_size(s.size),
            s.duration,
            s.qd,
            match super::cells::unbuffered(&r.host, s.direct) {
                "buffered" => "buffered".to_string(),
                flag => format!("unbuffered ({flag})"),
            },
            t.engine
        );
    }
    let _ = writeln!(o, "\nthreads | block | pattern    | op    |        IOPS |     MB/s | min ms | avg ms | max ms");
    let _ = writeln!(o, "{}", "-".repeat(86));
    let ms = |v: Option<f64>| v.map(|x| format!("{:.2}", x / 1000.0)).unwrap_or_else(|| "-".into());
    for t in &r.tests {
        let s = &t.spec;
        let (op, lat) = if s.read_pct == 100 { ("read", &t.read) } else { ("write", &t.write) };
        let pattern = if s.pattern == Pattern::Sequential { "sequential" } else { "random" };
        let _ = writeln!(
            o,
            "{:>7} | {:>5} | {pattern:<10} | {op:<5} | {:>11.1} | {:>8.2} | {:>6} | {:>6} | {:>6}",
            s.threads,
            format_block(s.blocks[0].size),
            t.total.iops,
            t.total.mbps,
            ms(lat.lat_us.min),
            ms(lat.lat_us.mean),
            ms(lat.lat_us.max)
        );
    }
    let _ = writeln!(o, "\nMB/s = 10^6 B/s; latency from submission to completion.");
    if r.args.iter().any(|a| a == "--histogram") {
        let _ = writeln!(o, "\nLatency histogram: % of I/Os per ms (SQLIO's buckets; 24 = 24 ms or more)");
        let _ = write!(o, "{:<26}", "cell");
        for k in 0..25 {
            let _ = write!(o, "{:>4}", if k == 24 { "24+".to_string() } else { k.to_string() });
        }
        let _ = writeln!(o);
        for t in &r.tests {
            let h = if t.spec.read_pct == 100 { &t.histograms.read } else { &t.histograms.write };
            let counts = h.per_ms();
            let all = counts.iter().sum::<u64>().max(1) as f64;
            let _ = write!(o, "{:<26}", t.name);
            for c in counts {
                let _ = write!(o, "{:>4.0}", 100.0 * c as f64 / all);
            }
            let _ = writeln!(o);
        }
    }
    if r.interrupted {
        let _ = writeln!(o, "\nINTERRUPTED: cells after the interruption did not run.");
    }
    o
}

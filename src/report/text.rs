//! The terminal report: a summary line per operation, then DiskSpd's layout — Total / Read /
//! Write per-thread tables, the latency percentile table with read, write and total columns,
//! and the CPU table — plus per-second figures.

use super::cells::{LATENCY_HEADS, RULE, TEXT};
use crate::result::{Host, OpStats, RunResult, TargetInfo, TestResult, ThreadOp};
use crate::stats::{LatStats, PERCENTILES};
use crate::workload::size::format_size;
use std::fmt::Write;

pub fn render(r: &RunResult) -> String {
    let mut o = header(r);
    let h = &r.host;
    for t in &r.tests {
        test(&mut o, t, h);
    }
    if r.interrupted {
        let _ = writeln!(o, "\nINTERRUPTED: the figures cover only the time measured before Ctrl-C.");
    }
    o
}

/// Who ran what where: the lines every text report starts with.
pub fn header(r: &RunResult) -> String {
    let mut o = String::new();
    let h = &r.host;
    let vm = match (&h.vm_vendor, &h.vm_product) {
        (Some(v), Some(p)) => format!(" ({v} {p})"),
        (Some(v), None) => format!(" ({v})"),
        _ => String::new(),
    };
    let who = crate::result::build::describe(&r.iolens_version, r.build.as_ref());
    let _ = writeln!(o, "iolens {who} {} at {}", r.command, r.started_at);
    if let Some(src) = &r.source {
        let _ = writeln!(o, "source: {src}");
    }
    if h.cores == 0 {
        // Imported from a tool that does not describe its host (fio's JSON).
        let _ = writeln!(o, "host: {}{vm} (no further details recorded)", h.hostname);
    } else {
        let _ = writeln!(
            o,
            "host: {}{vm}, {} x{}, {:.1} GiB memory, {} {}",
            h.hostname,
            h.cpu_model,
            h.cores,
            h.memory_bytes as f64 / (1u64 << 30) as f64,
            h.os,
            h.kernel
        );
    }
    if let Some((n, hosts)) = crate::result::ranks::count(&r.tests) {
        let hosts = if hosts == 1 { "1 host".to_string() } else { format!("{hosts} hosts") };
        let _ = writeln!(o, "ranks: {n} on {hosts} (the host above is rank 0's)");
    }
    // Ranks sharing one target describe it alike: once is enough.
    let mut said = Vec::new();
    for t in &h.targets {
        let dev = t.device.as_deref().map(|d| format!(" on {d}")).unwrap_or_default();
        let model = match (t.model.as_deref(), t.bus.as_deref()) {
            (Some(m), Some(b)) => format!(" ({m}, {b})"),
            (Some(x), None) | (None, Some(x)) => format!(" ({x})"),
            (None, None) => String::new(),
        };
        let fs = t.filesystem.as_deref().map(|f| format!(", {f}")).unwrap_or_default();
        let fs = match t.cluster_bytes {
            Some(c) => format!("{fs}, {} clusters", format_size(c)),
            None => fs,
        };
        let sched = t.scheduler.as_deref().map(|s| format!(", scheduler {s}")).unwrap_or_default();
        let rot = match t.rotational {
            Some(true) => ", rotational",
            Some(false) => ", non-rotational",
            None => "",
        };
        let created = if t.created { ", created by iolens" } else { "" };
        let line = format!("target: {} ({}{created}){dev}{model}{fs}{sched}{rot}", t.path, format_size(t.size_bytes));
        if !said.contains(&line) {
            let _ = writeln!(o, "{line}");
            said.push(line);
        }
    }
    o
}

/// The widths of the summary's latency columns, in the order of `LATENCY_HEADS`.
const LATENCY_WIDTHS: [usize; 5] = [11, 10, 10, 11, 11];

fn test(o: &mut String, t: &TestResult, host: &Host) {
    let targets = &host.targets;
    let s = &t.spec;
    let cache = super::cells::cache_mode(host, s.direct, s.write_through);
    let rate = match (s.rate_iops, s.rate_mbps) {
        (Some(r), _) => format!(", paced at {r} IOPS"),
        (_, Some(m)) => format!(", paced at {m} MB/s"),
        _ => String::new(),
    };
    let _ = writeln!(o, "\n== {} ==", t.name);
    let _ = writeln!(
        o,
        "engine {}, {cache}, {} thread(s) x {} target(s), {} outstanding per thread{rate}",
        t.engine,
        s.threads,
        s.targets.len(),
        t.depth
    );
    let _ = writeln!(
        o,
        "measured {:.2} s (warm-up {} s, cool-down {} s){}",
        t.duration_s,
        s.warmup,
        s.cooldown,
        if t.interrupted { ", INTERRUPTED" } else { "" }
    );
    for n in &t.notices {
        let _ = writeln!(o, "notice: {n}");
    }
    if let Some(f) = &t.failed {
        let _ = writeln!(o, "FAILED: {f}");
    }
    steady_line(o, t);
    let _ = write!(o, "\n{:<6}{:>12}{:>10}{:>10}", "", "IOPS", "MB/s", "MiB/s");
    latency_cells(o, LATENCY_HEADS);
    for (name, op) in
        [("read", Some(&t.read)), ("write", Some(&t.write)), ("trim", t.trim.as_ref()), ("total", Some(&t.total))]
    {
        if let Some(op) = op {
            summary_row(o, name, op);
        }
    }
    let _ = writeln!(o, "(MB/s = 10^6 B/s, MiB/s = 2^20 B/s; latency from submission to completion)");
    super::timeline::shift_lines(o, t);
    rank_table(o, t);
    if s.rate_iops.is_some() || s.rate_mbps.is_some() {
        let r = &t.response.total;
        let _ = writeln!(
            o,
            "response latency (from intended start): mean {} µs, p50 {} µs, p99 {} µs, max {} µs",
            TEXT.us(r.mean),
            TEXT.us(r.percentiles.get("50")),
            TEXT.us(r.percentiles.get("99")),
            TEXT.us(r.max)
        );
    }
    if t.fsync.count > 0 {
        let f = &t.fsync.lat_us;
        let _ = writeln!(
            o,
            "fsync: {} calls, mean {} µs, p99 {} µs, max {} µs",
            t.fsync.count,
            TEXT.us(f.mean),
            TEXT.us(f.percentiles.get("99")),
            TEXT.us(f.max)
        );
    }

    for (title, pick) in [("Total IO", 2usize), ("Read IO", 0), ("Write IO", 1)] {
        thread_table(o, t, targets, title, pick);
    }
    latency_table(o, t);
    cpu_table(o, t);
    disk_lines(o, t);
    super::timeline::seconds_table(o, t);
    if let Some(v) = &t.verify {
        super::verify::section(o, v, t.spec.verify.as_ref().is_some_and(|s| s.pattern.is_some()));
    }
}

/// How fio's steady-state check ended, when the test had one.
fn steady_line(o: &mut String, t: &TestResult) {
    if let (Some(ss), Some(out)) = (&t.spec.steady, &t.steady) {
        let what = format!(
            "{} {}",
            if ss.iops { "IOPS" } else { "bandwidth" },
            if ss.slope { "slope" } else { "largest deviation" }
        );
        let unit = if ss.pct {
            " %"
        } else if ss.iops {
            " IOPS"
        } else {
            " B/s"
        };
        let _ = writeln!(
            o,
            "steady state: {} ({what} over the last {} s: {:.3}{unit}, limit {}{unit}, after a {} s ramp)",
            if out.attained { "reached, the test ended there" } else { "not reached" },
            ss.dur,
            out.criterion,
            ss.limit,
            ss.ramp
        );
    }
}

/// A multi-host run's rows: what each rank measured, and how far its start and clock were
/// from rank 0's.
fn rank_table(o: &mut String, t: &TestResult) {
    if t.ranks.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "\n{:>4}  {:<16}{:>12}{:>10}{:>10}{:>10}{:>11}{:>11}{:>11}",
        "rank", "host", "IOPS", "MB/s", "p99 µs", "secs", "start ms", "end ms", "clock ms"
    );
    for r in &t.ranks {
        let _ = writeln!(
            o,
            "{:>4}  {:<16}{:>12.1}{:>10.2}{:>10}{:>10.2}{:>11.3}{:>11.3}{:>11.3}",
            r.rank,
            r.host,
            r.iops,
            r.mbps,
            TEXT.us(r.p99_us),
            r.duration_s,
            r.start_offset_ms,
            r.end_offset_ms,
            r.clock_offset_ms
        );
    }
    let s = crate::result::ranks::spread(&t.ranks).expect("ranks");
    let _ = writeln!(
        o,
        "(start, end: ms after the common start on rank 0's clock; start spread {:.3} ms, first done \
         {:.1} ms, last done {:.1} ms; clock: the host's clock minus rank 0's, within ±{:.3} ms)",
        s.start_spread_ms, s.first_done_ms, s.last_done_ms, s.clock_within_ms
    );
    if let Some(c) = crate::result::ranks::common_window(&t.ranks) {
        let _ = writeln!(
            o,
            "first done: {:.1} IOPS, {:.2} MB/s over the common window ({} I/Os, {:.3} s, until the first rank \
             was done); last done: {:.1} IOPS, {:.2} MB/s",
            c.iops, c.mbps, c.ios, c.seconds, c.last_iops, c.last_mbps
        );
    }
    if let Some(parts) = crate::result::ranks::parts(&t.ranks) {
        let _ = writeln!(o, "(one target shared by the ranks, each on its own part: {parts})");
    }
}

fn summary_row(o: &mut String, name: &str, op: &OpStats) {
    let _ = write!(o, "{name:<6}{:>12.1}{:>10.2}{:>10.2}", op.iops, op.mbps, op.mibps);
    latency_cells(o, TEXT.latency(&op.lat_us));
}

/// The latency row's cells (or heads) right-aligned in their columns, ending the line.
fn latency_cells(o: &mut String, cells: [impl std::fmt::Display; 5]) {
    for (c, w) in cells.iter().zip(LATENCY_WIDTHS) {
        let _ = write!(o, "{c:>w$}");
    }
    let _ = writeln!(o);
}

pub(super) fn thread_table(o: &mut String, t: &TestResult, targets: &[TargetInfo], title: &str, pick: usize) {
    let _ = writeln!(o, "\n{title}");
    let _ = writeln!(
        o,
        "thread |       bytes |     I/Os |    MiB/s |  I/O per s |  AvgLat | IopsStdDev | LatStdDev | file"
    );
    let _ = writeln!(o, "{RULE}");
    let sel = |th: &crate::result::ThreadStats| -> ThreadOp {
        match pick {
            0 => th.read.clone(),
            1 => th.write.clone(),
            _ => th.total.clone(),
        }
    };
    for th in &t.threads {
        let x = sel(th);
        // The file as opened (a directory target names the test file made inside it). The
        // thread's target indexes this test's targets; the host lists every test's.
        let file = crate::result::host::target_of(targets, t, th.target as usize)
            .map(|x| format!("{} ({})", x.path, format_size(x.size_bytes)))
            .or_else(|| t.spec.targets.get(th.target as usize).cloned())
            .unwrap_or_default();
        let _ = writeln!(
            o,
            "{:>6} | {:>11} | {:>8} | {:>8.2} | {:>10.2} | {:>7} | {:>10.2} | {:>9} | {file}",
            th.thread,
            x.bytes,
            x.ios,
            x.mibps,
            x.iops,
            TEXT.ms(x.lat_mean_us),
            x.iops_stddev,
            TEXT.ms(x.lat_stddev_us)
        );
    }
    let _ = writeln!(o, "{RULE}");
    let op = match pick {
        0 => &t.read,
        1 => &t.write,
        _ => &t.total,
    };
    // The total's IopsStdDev is over the per-second sums of all threads, as DiskSpd's.
    let series: Vec<f64> = t
        .seconds
        .iter()
        .filter(|s| s.second as f64 <= t.duration_s)
        .map(|s| match pick {
            0 => s.read_iops,
            1 => s.write_iops,
            _ => s.iops,
        })
        .collect();
    let _ = writeln!(
        o,
        "total: {:>11} | {:>8} | {:>8.2} | {:>10.2} | {:>7} | {:>10.2} | {:>9}",
        op.bytes,
        op.ios,
        op.mibps,
        op.iops,
        TEXT.ms(op.lat_us.mean),
        crate::stats::stddev(&series),
        TEXT.ms(op.lat_us.stddev)
    );
    let _ = writeln!(o, "(AvgLat and LatStdDev in ms)");
}

fn latency_table(o: &mut String, t: &TestResult) {
    if let Some(r) = &t.replay {
        let _ = writeln!(o, "{}", r.lines(&t.total.lat_us));
    }
    let _ = writeln!(o, "\nLatency (µs, submission to completion)");
    let _ = writeln!(o, "{:>10} | {:>11} | {:>11} | {:>11}", "%-ile", "Read", "Write", "Total");
    let _ = writeln!(o, "{}", &RULE[..52]);
    let row = |o: &mut String, label: &str, f: &dyn Fn(&LatStats) -> Option<f64>| {
        let _ = writeln!(
            o,
            "{label:>10} | {:>11} | {:>11} | {:>11}",
            TEXT.us(f(&t.read.lat_us)),
            TEXT.us(f(&t.write.lat_us)),
            TEXT.us(f(&t.total.lat_us))
        );
    };
    row(o, "min", &|l| l.min);
    for p in PERCENTILES {
        row(o, &super::cells::ordinal(p), &|l| l.percentiles.get(p));
    }
    row(o, "max", &|l| l.max);
}

pub(super) fn cpu_table(o: &mut String, t: &TestResult) {
    let c = &t.cpu;
    let _ = writeln!(o, "\nCPU   |  Usage |   User | Kernel |   Idle");
    let _ = writeln!(o, "{}", &RULE[..38]);
    for l in &c.per_cpu {
        let _ = writeln!(
            o,
            "{:>5} | {:>5.2}% | {:>5.2}% | {:>5.2}% | {:>5.2}%",
            l.cpu, l.usage_pct, l.user_pct, l.kernel_pct, l.idle_pct
        );
    }
    if !c.per_cpu.is_empty() {
        let n = c.per_cpu.len() as f64;
        let avg = |f: fn(&crate::stats::cpu::CpuLine) -> f64| c.per_cpu.iter().map(f).sum::<f64>() / n;
        let _ = writeln!(o, "{}", &RULE[..38]);
        let _ = writeln!(
            o,
            " avg. | {:>5.2}% | {:>5.2}% | {:>5.2}% | {:>5.2}%",
            avg(|l| l.usage_pct),
            avg(|l| l.user_pct),
            avg(|l| l.kernel_pct),
            avg(|l| l.idle_pct)
        );
    }
    let _ = writeln!(
        o,
        "iolens itself: user {:.2}%, system {:.2}% of {} CPUs; {} µs CPU per I/O; mean queue depth {:.2} of {} asked",
        c.user_pct,
        c.system_pct,
        c.cores,
        c.us_per_io.map(|v| format!("{v:.2}")).unwrap_or_else(|| "-".into()),
        t.mean_qd,
        t.asked_qd()
    );
}

fn disk_lines(o: &mut String, t: &TestResult) {
    for d in &t.disks {
        let reqs = d.read_requests + d.write_requests;
        let per_io = if t.total.ios > 0 { reqs as f64 / t.total.ios as f64 } else { 0.0 };
        let size = if reqs > 0 { (d.read_bytes + d.write_bytes) as f64 / reqs as f64 / 1024.0 } else { 0.0 };
        let _ = writeln!(
            o,
            "disk {} (the device's counters: every process's I/O while the test ran): {} read + {} write requests ({per_io:.2} per I/O, mean {size:.1} KiB), {} + {} merged, util {:.1}%, mean queue {:.2}",
            d.device, d.read_requests, d.write_requests, d.read_merges, d.write_merges, d.util_pct, d.mean_queue
        );
    }
}

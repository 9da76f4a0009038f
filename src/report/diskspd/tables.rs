//! One time span's results in text: test time, the CPU table, the Total / Read / Write IO
//! tables (AvgLat and LatStdDev with -L, IopsStdDev with -D) and, with -L, the latency
//! percentiles; widths and formats as ResultParser.cpp prints them.

use super::latency::{columns, TEXT_ROWS};
use super::{file_size, Shown};
use crate::result::{RunResult, TestResult, ThreadOp};
use crate::workload::cpus::cpu_ranges;
use std::fmt::Write;

pub(super) fn results(o: &mut String, r: &RunResult, t: &TestResult, show: Shown) {
    if t.duration_s < 1e-7 {
        let _ = writeln!(o, "The test was interrupted before the measurements began. No results are displayed.");
        return;
    }
    let _ = writeln!(o, "\nactual test time:\t{:.2}s\nthread count:\t\t{}", t.duration_s, t.threads.len());
    let _ = writeln!(o, "\neffective affinity (cpu): {}", cpu_ranges(&super::effective_cpus(r, t)));
    cpu(o, r, t);
    for (title, pick) in [("Total IO", Pick::Total), ("Read IO", Pick::Read), ("Write IO", Pick::Write)] {
        let _ = writeln!(o, "\n{title}");
        section(o, r, t, pick, show);
    }
    if t.engine == "ioring" {
        super::waits::ring_text(o, t);
    }
    if show.latency {
        let _ = writeln!(o, "\nTotal latency distribution:");
        percentiles(o, t);
    }
    if show.waits {
        super::waits::text(o, t, show);
    }
}

/// The CPU table; DiskSpd adds Socket, Node and Core columns only where there are several.
fn cpu(o: &mut String, r: &RunResult, t: &TestResult) {
    let places = &r.host.cpus;
    let several = |f: fn(&crate::result::CpuPlace) -> u32| places.iter().any(|p| f(p) != f(&places[0]));
    let socket = several(|p| p.socket);
    let node = several(|p| p.node);
    let smt = {
        let mut cores: Vec<u32> = places.iter().map(|p| p.core).collect();
        cores.dedup();
        cores.len() < places.len()
    };
    let mut head = String::new();
    let mut rule = String::new();
    for (on, h, dashes) in [(socket, "Socket | ", 9), (node, "Node | ", 7), (smt, "Core | ", 7)] {
        if on {
            head.push_str(h);
            rule.push_str(&"-".repeat(dashes));
        }
    }
    rule.push_str(&"-".repeat(40));
    let _ = writeln!(o, "\n{head}CPU |  Usage |  User  | Kernel |  Idle\n{rule}");
    for l in &t.cpu.per_cpu {
        let place = places.iter().find(|p| p.cpu == l.cpu);
        let mut row = String::new();
        for (on, width, v) in
            [(socket, 7, place.map(|p| p.socket)), (node, 5, place.map(|p| p.node)), (smt, 5, place.map(|p| p.core))]
        {
            if on {
                let _ = write!(row, "{:>width$}| ", v.unwrap_or(0));
            }
        }
        let _ = writeln!(
            o,
            "{row}{:>4}| {:>6.2}%| {:>6.2}%| {:>6.2}%| {:>6.2}%",
            l.cpu, l.usage_pct, l.user_pct, l.kernel_pct, l.idle_pct
        );
    }
    let n = t.cpu.per_cpu.len().max(1) as f64;
    let avg = |f: fn(&crate::stats::cpu::CpuLine) -> f64| t.cpu.per_cpu.iter().map(f).sum::<f64>() / n;
    let _ = writeln!(
        o,
        "{rule}\n{}avg.| {:>6.2}%| {:>6.2}%| {:>6.2}%| {:>6.2}%",
        " ".repeat(head.len()),
        avg(|l| l.usage_pct),
        avg(|l| l.user_pct),
        avg(|l| l.kernel_pct),
        avg(|l| l.idle_pct)
    );
}

#[derive(Clone, Copy)]
enum Pick {
    Read,
    Write,
    Total,
}

impl Pick {
    fn thread(self, th: &crate::result::ThreadStats) -> &ThreadOp {
        match self {
            Pick::Read => &th.read,
            Pick::Write => &th.write,
            Pick::Total => &th.total,
        }
    }
}

fn section(o: &mut String, r: &RunResult, t: &TestResult, pick: Pick, show: Shown) {
    let (lat, iops) = (show.latency, show.iops);
    let cell = |on: bool, s: &'static str| if on { s } else { "" };
    let _ = writeln!(
        o,
        "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s {}{}{}|  file",
        cell(lat, "|  AvgLat  "),
        cell(iops, "| IopsStdDev "),
        cell(lat, "| LatStdDev ")
    );
    let rule = format!(
        "{}{}{}{}{}",
        "-".repeat(66),
        cell(lat, "-----------"),
        cell(iops, "-------------"),
        cell(lat, "------------"),
        "-".repeat(12)
    );
    let _ = writeln!(o, "{rule}");
    for th in &t.threads {
        let x = pick.thread(th);
        let _ = write!(o, "{:>6} | {:>15} | {:>12} | {:>10.2} | {:>10.2}", th.thread, x.bytes, x.ios, x.mibps, x.iops);
        tail(o, show, x.lat_mean_us, x.iops_stddev, x.lat_stddev_us);
        // The file as opened (a directory target names the test file made inside it).
        let file = match crate::result::host::target_of(&r.host.targets, t, th.target as usize) {
            Some(info) => format!("{} ({})", info.path, file_size(info.size_bytes)),
            None => t.spec.targets.get(th.target as usize).cloned().unwrap_or_default(),
        };
        let _ = writeln!(o, " | {file}");
    }
    let op = match pick {
        Pick::Read => &t.read,
        Pick::Write => &t.write,
        Pick::Total => &t.total,
    };
    // The total's IopsStdDev is over the per-second sums of all threads, as DiskSpd's.
    let series: Vec<f64> = t
        .seconds
        .iter()
        .filter(|s| s.second as f64 <= t.duration_s)
        .map(|s| match pick {
            Pick::Read => s.read_iops,
            Pick::Write => s.write_iops,
            Pick::Total => s.iops,
        })
        .collect();
    let _ = write!(o, "{rule}\ntotal:   {:>15} | {:>12} | {:>10.2} | {:>10.2}", op.bytes, op.ios, op.mibps, op.iops);
    let sd = (op.ios > 0).then_some(op.lat_us.stddev).flatten();
    tail(o, show, op.lat_us.mean, crate::stats::stddev(&series), sd);
    let _ = writeln!(o);
}

/// AvgLat (ms), IopsStdDev and LatStdDev (ms, N/A without I/Os), as -L and -D ask.
fn tail(o: &mut String, show: Shown, mean_us: Option<f64>, iops_sd: f64, sd_us: Option<f64>) {
    if show.latency {
        let _ = write!(o, " | {:>8.3}", mean_us.unwrap_or(0.0) / 1000.0);
    }
    if show.iops {
        let _ = write!(o, " | {iops_sd:>10.2}");
    }
    if show.latency {
        let _ = match sd_us {
            Some(sd) => write!(o, " |  {:>8.3}", sd / 1000.0),
            None => write!(o, " |       N/A"),
        };
    }
}

fn percentiles(o: &mut String, t: &TestResult) {
    let cols = columns(t);
    let _ = writeln!(o, "  %-ile |  Read (ms) | Write (ms) | Total (ms)\n{}", "-".repeat(46));
    let rows = std::iter::once(("min", "0")).chain(TEXT_ROWS).chain(std::iter::once(("max", "100")));
    for (label, p) in rows {
        let cell = |i: usize| cols[i].at(p).map_or_else(|| "N/A".to_string(), |us| format!("{:.3}", us / 1000.0));
        let _ = writeln!(o, "{label:>7} | {:>10} | {:>10} | {:>10}", cell(0), cell(1), cell(2));
    }
}

//! DiskSpd's `-Rxml` layout (XmlResultParser.cpp): `<Results>` with `<System>`, the `<Profile>`
//! that was run (which `-X` reads back) and one `<TimeSpan>` per test: CPU, the `<Latency>`
//! percentile buckets, per-second `<Iops>`, and per thread and target the byte and I/O counts.
//! Latency is in ms with three decimals, as DiskSpd prints it. Elements DiskSpd fills from
//! Windows alone (ETW, power scheme, NUMA topology, wait statistics) are left out; a test cut
//! short by Ctrl-C, and each notice of a test (partial, stopped by a stonewall …), adds a
//! `<Warning>` to its time span.

use super::cells::ms;
use crate::result::{RunResult, TestResult, ThreadOp};
use crate::stats::{HistDump, LatRec, LatStats};
use crate::workload::diskspd::xml_out::{write_profile, ProfileSpan, XmlOut};
use crate::workload::diskspd::ResultsFormat;

pub fn render(r: &RunResult) -> String {
    let mut x = XmlOut::default();
    x.open("Results");
    system(&mut x, r);
    let created = r.host.targets.iter().any(|t| t.created);
    let spans: Vec<ProfileSpan> =
        r.tests.iter().map(|t| ProfileSpan { spec: &t.spec, create_size: created.then_some(t.spec.size) }).collect();
    write_profile(&mut x, &spans, ResultsFormat::Xml);
    for t in &r.tests {
        time_span(&mut x, r, t);
    }
    x.close("Results");
    x.finish()
}

fn system(x: &mut XmlOut, r: &RunResult) {
    x.open("System");
    x.leaf("ComputerName", &r.host.hostname);
    x.open("Tool");
    x.leaf("Version", format!("iolens {}", r.iolens_version));
    x.close("Tool");
    // DiskSpd's "2026/11/23 14:56:45 UTC" from RFC 3339's "2026-11-23T14:56:45Z".
    let run_time = r.started_at.replace('-', "/").replace('T', " ").replace('Z', " UTC");
    x.leaf("RunTime", run_time);
    let cores = r.host.cores;
    let mask = if cores >= 64 { u64::MAX } else { (1u64 << cores) - 1 };
    x.open_with("ProcessorTopology", &[("Heterogeneous", "false".into())]);
    x.empty(
        "Group",
        &[
            ("Group", "0".into()),
            ("MaximumProcessors", cores.to_string()),
            ("ActiveProcessors", cores.to_string()),
            ("ActiveProcessorMask", format!("0x{mask:x}")),
        ],
    );
    x.close("ProcessorTopology");
    x.close("System");
}

fn time_span(x: &mut XmlOut, r: &RunResult, t: &TestResult) {
    x.open("TimeSpan");
    if t.duration_s < 1e-7 {
        x.leaf("Error", "The test was interrupted before the measurements began. No results are displayed.");
        x.close("TimeSpan");
        return;
    }
    // DiskSpd has no word for these; readers that look for its elements pass over them.
    if t.interrupted {
        x.leaf("Warning", "Interrupted (Ctrl-C): the figures cover only the time measured before it.");
    }
    for n in &t.notices {
        x.leaf("Warning", n);
    }
    x.leaf("TestTimeSeconds", format!("{:.2}", t.duration_s));
    x.leaf("ThreadCount", t.threads.len());
    x.leaf("RequestCount", 0);
    x.leaf("ProcCount", t.cpu.cores);
    cpu(x, t);
    latency(x, t);
    iops(x, t);
    for th in &t.threads {
        x.open("Thread");
        x.leaf("Id", th.thread);
        x.open("Target");
        let info = r.host.targets.get(th.target as usize);
        let path = info.map(|i| i.path.clone()).or_else(|| t.spec.targets.get(th.target as usize).cloned());
        x.leaf("Path", path.unwrap_or_default());
        x.leaf("BytesCount", th.total.bytes);
        x.leaf("FileSize", info.map_or(t.spec.size, |i| i.size_bytes));
        x.leaf("IOCount", th.total.ios);
        x.leaf("ReadBytes", th.read.bytes);
        x.leaf("ReadCount", th.read.ios);
        x.leaf("WriteBytes", th.write.bytes);
        x.leaf("WriteCount", th.write.ios);
        for (op, avg, sd) in [
            (&th.read, "AverageReadLatencyMilliseconds", "ReadLatencyStdev"),
            (&th.write, "AverageWriteLatencyMilliseconds", "WriteLatencyStdev"),
            (&th.total, "AverageLatencyMilliseconds", "LatencyStdev"),
        ] {
            if let (true, Some(m)) = (op.ios > 0, op.lat_mean_us) {
                x.leaf(avg, ms(m));
                x.leaf(sd, ms(op.lat_stddev_us.unwrap_or(0.0)));
            }
        }
        x.open("Iops");
        stddevs(x, [&th.read, &th.write, &th.total].map(|o: &ThreadOp| (o.ios, o.iops_stddev)));
        x.close("Iops");
        x.close("Target");
        x.close("Thread");
    }
    x.close("TimeSpan");
}

fn cpu(x: &mut XmlOut, t: &TestResult) {
    x.open("CpuUtilization");
    let n = t.cpu.per_cpu.len().max(1) as f64;
    let mut sum = [0.0f64; 4];
    for c in &t.cpu.per_cpu {
        x.open("CPU");
        x.leaf("Group", 0);
        x.leaf("Id", c.cpu);
        let v = [c.usage_pct, c.user_pct, c.kernel_pct, c.idle_pct];
        for (i, (name, v)) in PCT.iter().zip(v).enumerate() {
            x.leaf(name, format!("{v:.2}"));
            sum[i] += v;
        }
        x.close("CPU");
    }
    x.open("Average");
    for (name, s) in PCT.iter().zip(sum) {
        x.leaf(name, format!("{:.2}", s / n));
    }
    x.close("Average");
    x.close("CpuUtilization");
}

const PCT: [&str; 4] = ["UsagePercent", "UserPercent", "KernelPercent", "IdlePercent"];

/// DiskSpd's percentile list: 0 (min), 1 … 99, the nines up to 99.9999999, and 100 (max).
fn percentiles() -> Vec<String> {
    let nines = ["99.9", "99.99", "99.999", "99.9999", "99.99999", "99.999999", "99.9999999"];
    let mut v: Vec<String> = (0..=99).map(|p| p.to_string()).collect();
    v.extend(nines.iter().map(|s| s.to_string()));
    v.push("100".into());
    v
}

/// One column of the latency buckets: from the histogram when the result has one (any
/// percentile), else from the summary's percentiles (results imported without histograms).
struct Column<'a> {
    rec: Option<LatRec>,
    stats: &'a LatStats,
}

impl Column<'_> {
    fn at(&self, p: &str) -> Option<f64> {
        match p {
            "0" => self.stats.min,
            "100" => self.stats.max,
            _ => match &self.rec {
                Some(rec) => rec.percentile_ns(p.parse().ok()?).map(|ns| ns / 1000.0),
                None => self.stats.percentiles.get(p),
            },
        }
    }
}

fn latency(x: &mut XmlOut, t: &TestResult) {
    let h = &t.histograms;
    let rec = |d: &HistDump| (d.count > 0).then(|| LatRec::from_dump(d));
    let total = match (rec(&h.read), rec(&h.write)) {
        (Some(mut r), Some(w)) => {
            r += &w;
            Some(r)
        }
        (r, w) => r.or(w),
    };
    let cols = [
        ("Read", t.read.ios, Column { rec: rec(&h.read), stats: &t.read.lat_us }),
        ("Write", t.write.ios, Column { rec: rec(&h.write), stats: &t.write.lat_us }),
        ("Total", t.total.ios, Column { rec: total, stats: &t.total.lat_us }),
    ];
    x.open("Latency");
    for (name, ios, c) in &cols {
        if let (true, Some(mean)) = (*ios > 0, c.stats.mean) {
            x.leaf(&format!("Average{name}Milliseconds"), ms(mean));
            let sd = if *name == "Total" { "LatencyStdev".to_string() } else { format!("{name}LatencyStdev") };
            x.leaf(&sd, ms(c.stats.stddev.unwrap_or(0.0)));
        }
    }
    for p in percentiles() {
        x.open("Bucket");
        x.leaf("Percentile", &p);
        for (name, ios, c) in &cols {
            if let (true, Some(v)) = (*ios > 0, c.at(&p)) {
                x.leaf(&format!("{name}Milliseconds"), ms(v));
            }
        }
        x.close("Bucket");
    }
    x.close("Latency");
}

/// `<ReadIopsStdDev>`, `<WriteIopsStdDev>`, `<IopsStdDev>` for the kinds that had I/Os.
fn stddevs(x: &mut XmlOut, v: [(u64, f64); 3]) {
    for ((ios, sd), name) in v.into_iter().zip(["ReadIopsStdDev", "WriteIopsStdDev", "IopsStdDev"]) {
        if ios > 0 {
            x.leaf(name, format!("{sd:.3}"));
        }
    }
}

/// The whole test's per-second IOPS (DiskSpd's `-D` series); the standard deviations are over
/// whole measured seconds, as the text layout's.
fn iops(x: &mut XmlOut, t: &TestResult) {
    let whole: Vec<_> = t.seconds.iter().filter(|s| s.second as f64 <= t.duration_s).collect();
    let sd = |f: &dyn Fn(&crate::result::SecondStats) -> f64| {
        crate::stats::stddev(&whole.iter().map(|s| f(s)).collect::<Vec<_>>())
    };
    x.open("Iops");
    stddevs(
        x,
        [(t.read.ios, sd(&|s| s.read_iops)), (t.write.ios, sd(&|s| s.write_iops)), (t.total.ios, sd(&|s| s.iops))],
    );
    for s in &t.seconds {
        x.empty(
            "Bucket",
            &[
                ("SampleMillisecond", (s.second * 1000).to_string()),
                ("Read", format!("{:.0}", s.read_iops)),
                ("Write", format!("{:.0}", s.write_iops)),
                ("Total", format!("{:.0}", s.iops)),
            ],
        );
    }
    x.close("Iops");
}

//! DiskSpd's `-Rxml` layout (XmlResultParser.cpp): `<Results>` with `<System>`, the `<Profile>`
//! that was run (which `-X` reads back) and one `<TimeSpan>` per test: CPU, with -L the
//! `<Latency>` percentile buckets, with -D the per-second `<Iops>` buckets, and per thread and
//! target the byte and I/O counts (with -L their latency, with -D their own per-second buckets).
//! Latency is in ms with three decimals, as DiskSpd prints it. With -vs each thread ends with its
//! `<WaitStatistics>`. ETW, which only Windows has, is left out; a test cut short by Ctrl-C, and
//! each notice of a test (partial, stopped by a stonewall …), adds a `<Warning>` to its time
//! span.

use super::effective_cpus;
use super::latency::{columns, xml_percentiles};
use super::profile::mask;
use super::xml_system::system;
use super::Shown;
use crate::frontends::diskspd::recorded_extras;
use crate::frontends::diskspd::ResultsFormat;
use crate::report::cells::ms;
use crate::report::diskspd::profile::{write_profile, ProfileSpan, XmlOut};
use crate::result::{RunResult, SecondLat, TestResult, ThreadOp, ThreadStats};

pub fn render(r: &RunResult) -> String {
    let show = Shown::of(r);
    let extras = recorded_extras(&r.args);
    let mut x = XmlOut::default();
    x.open("Results");
    system(&mut x, &r.host, &r.iolens_version, &r.started_at);
    let created = r.host.targets.iter().any(|t| t.created);
    let spans: Vec<ProfileSpan> = r
        .tests
        .iter()
        .map(|t| ProfileSpan { spec: &t.spec, create_size: created.then_some(t.spec.size), extras: &extras })
        .collect();
    write_profile(&mut x, &spans, ResultsFormat::Xml);
    for t in &r.tests {
        time_span(&mut x, r, t, show);
    }
    x.close("Results");
    x.finish()
}

/// `-Rsxml`: `<System>` alone.
pub fn system_only(h: &crate::result::Host, started_at: &str) -> String {
    let mut x = XmlOut::default();
    system(&mut x, h, env!("CARGO_PKG_VERSION"), started_at);
    x.finish()
}

fn time_span(x: &mut XmlOut, r: &RunResult, t: &TestResult, show: Shown) {
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
    x.leaf("EffectiveBufferSeparation", t.spec.buffers_apart);
    x.open("EffectiveAffinity");
    x.empty("Group", &[("Group", "0".into()), ("Mask", mask(effective_cpus(r, t).into_iter()).unwrap_or_default())]);
    x.close("EffectiveAffinity");
    cpu(x, r, t);
    if show.latency {
        latency(x, t);
    }
    if show.iops {
        let seconds: Vec<[u64; 2]> =
            t.seconds.iter().map(|s| [s.read_iops.round() as u64, s.write_iops.round() as u64]).collect();
        let mut lats: Vec<[SecondLat; 2]> = Vec::new();
        for th in &t.threads {
            if lats.len() < th.second_lat.len() {
                lats.resize(th.second_lat.len(), Default::default());
            }
            for (all, one) in lats.iter_mut().zip(&th.second_lat) {
                all[0].merge(&one[0]);
                all[1].merge(&one[1]);
            }
        }
        iops(x, &seconds, &lats, t.duration_s);
    }
    for th in &t.threads {
        thread(x, r, t, th, show);
    }
    x.close("TimeSpan");
}

fn thread(x: &mut XmlOut, r: &RunResult, t: &TestResult, th: &ThreadStats, show: Shown) {
    x.open("Thread");
    x.leaf("Id", th.thread);
    if t.engine == "ioring" {
        x.leaf("SubmitCount", th.waits.map_or(0, |w| w.submits));
    }
    x.open("Target");
    let info = crate::result::host::target_of(&r.host.targets, t, th.target as usize);
    let path = info.map(|i| i.path.clone()).or_else(|| t.spec.targets.get(th.target as usize).cloned());
    x.leaf("Path", path.unwrap_or_default());
    x.leaf("BytesCount", th.total.bytes);
    x.leaf("FileSize", info.map_or(t.spec.size, |i| i.size_bytes));
    x.leaf("IOCount", th.total.ios);
    x.leaf("ReadBytes", th.read.bytes);
    x.leaf("ReadCount", th.read.ios);
    x.leaf("WriteBytes", th.write.bytes);
    x.leaf("WriteCount", th.write.ios);
    if show.latency {
        // No total: DiskSpd 2.2 merges it from histograms it has already sealed, which merge
        // as empty, so its <AverageLatencyMilliseconds> and <LatencyStdev> never appear here.
        for (op, avg, sd) in [
            (&th.read, "AverageReadLatencyMilliseconds", "ReadLatencyStdev"),
            (&th.write, "AverageWriteLatencyMilliseconds", "WriteLatencyStdev"),
        ] {
            if let (true, Some(m)) = (op.ios > 0, op.lat_mean_us) {
                x.leaf(avg, ms(m));
                x.leaf(sd, ms(op.lat_stddev_us.unwrap_or(0.0)));
            }
        }
    }
    if show.iops {
        if th.seconds.is_empty() {
            // Results stored before per-thread seconds were kept: the deviations alone.
            x.open("Iops");
            stddevs(x, [&th.read, &th.write, &th.total].map(|o: &ThreadOp| (o.ios, o.iops_stddev)));
            x.close("Iops");
        } else {
            iops(x, &th.seconds, &th.second_lat, t.duration_s);
        }
    }
    x.close("Target");
    if let (true, Some(w)) = (show.waits, &th.waits) {
        super::waits::xml(x, w);
    }
    x.close("Thread");
}

fn cpu(x: &mut XmlOut, r: &RunResult, t: &TestResult) {
    x.open("CpuUtilization");
    let n = t.cpu.per_cpu.len().max(1) as f64;
    let mut sum = [0.0f64; 4];
    for c in &t.cpu.per_cpu {
        let place = r.host.cpus.iter().find(|p| p.cpu == c.cpu);
        x.open("CPU");
        x.leaf("Socket", place.map_or(0, |p| p.socket));
        x.leaf("Node", place.map_or(0, |p| p.node));
        x.leaf("Group", 0);
        x.leaf("Core", place.map_or(c.cpu, |p| p.core));
        x.leaf("EfficiencyClass", 0);
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

fn latency(x: &mut XmlOut, t: &TestResult) {
    let cols = columns(t);
    let names = ["Read", "Write", "Total"];
    let attrs: Vec<(&str, String)> = ["ReadHistoBuckets", "WriteHistoBuckets", "TotalHistoBuckets"]
        .into_iter()
        .zip(&cols)
        .map(|(a, c)| (a, c.buckets.to_string()))
        .collect();
    x.open_with("Latency", &attrs);
    for (name, c) in names.iter().zip(&cols) {
        if let (true, Some(mean)) = (c.ios > 0, c.stats.mean) {
            x.leaf(&format!("Average{name}Milliseconds"), ms(mean));
            let sd = if *name == "Total" { "LatencyStdev".to_string() } else { format!("{name}LatencyStdev") };
            x.leaf(&sd, ms(c.stats.stddev.unwrap_or(0.0)));
        }
    }
    for p in xml_percentiles() {
        x.open("Bucket");
        x.leaf("Percentile", &p);
        for (name, c) in names.iter().zip(&cols) {
            if let Some(v) = c.at(&p) {
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

/// `<Iops>` of reads and writes per second: the standard deviations, then one `<Bucket>` per
/// second, both over the whole measured seconds (a last, partial one is left out, as DiskSpd
/// leaves out its partial bucket). Each bucket carries the second's read and write latency;
/// results stored before it was kept, and seconds without I/O, give 0 as DiskSpd does for
/// an empty bucket.
fn iops(x: &mut XmlOut, seconds: &[[u64; 2]], lats: &[[SecondLat; 2]], duration_s: f64) {
    let whole = &seconds[..seconds.len().min(duration_s.floor() as usize)];
    let sd = |f: fn(&[u64; 2]) -> u64| crate::stats::stddev(&whole.iter().map(|s| f(s) as f64).collect::<Vec<_>>());
    let ios = |f: fn(&[u64; 2]) -> u64| seconds.iter().map(f).sum::<u64>();
    x.open("Iops");
    stddevs(
        x,
        [(ios(|s| s[0]), sd(|s| s[0])), (ios(|s| s[1]), sd(|s| s[1])), (ios(|s| s[0] + s[1]), sd(|s| s[0] + s[1]))],
    );
    let none = [SecondLat::default(); 2];
    for (i, s) in whole.iter().enumerate() {
        let mut attrs = vec![
            ("SampleMillisecond", ((i + 1) * 1000).to_string()),
            ("Read", s[0].to_string()),
            ("Write", s[1].to_string()),
            ("Total", (s[0] + s[1]).to_string()),
        ];
        let lat = lats.get(i).unwrap_or(&none);
        for (l, names) in lat.iter().zip(BUCKET_LAT) {
            let v = [l.min_ns as f64, l.max_ns as f64, l.mean_ns(), l.stddev_ns()];
            attrs.extend(names.iter().zip(v).map(|(n, ns)| (*n, ms(ns / 1000.0))));
        }
        x.empty("Bucket", &attrs);
    }
    x.close("Iops");
}

const BUCKET_LAT: [[&str; 4]; 2] = [
    ["ReadMinLatencyMilliseconds", "ReadMaxLatencyMilliseconds", "ReadAvgLatencyMilliseconds", "ReadLatencyStdDev"],
    ["WriteMinLatencyMilliseconds", "WriteMaxLatencyMilliseconds", "WriteAvgLatencyMilliseconds", "WriteLatencyStdDev"],
];

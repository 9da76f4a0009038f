//! A sweep's curves: IOPS and p99 latency against the fastest-varying axis (one line per value
//! of the others), and latency against IOPS, where the knee shows.

use super::charts::{self, Lines, Scale, Series};
use super::figure;
use crate::result::{RunResult, TestResult};
use crate::workload::size::format_block;
use std::fmt::Write;

/// The axes a sweep varies, in the order points vary (the last fastest), as `cli::sweep` runs them.
type Axis = (&'static str, fn(&TestResult) -> f64);

const AXES: [Axis; 4] = [
    ("block size (bytes)", |t| t.spec.max_block() as f64),
    ("threads", |t| t.spec.threads as f64),
    ("queue depth", |t| t.spec.qd as f64),
    ("read %", |t| t.spec.read_pct as f64),
];

fn describe(axis: usize, v: f64) -> String {
    match axis {
        0 => format_block(v as u64),
        1 => format!("T{v}"),
        2 => format!("Q{v}"),
        _ => format!("{v}% read"),
    }
}

pub fn render(o: &mut String, r: &RunResult) {
    let varies = |a: usize| r.tests.iter().any(|t| AXES[a].1(t) != AXES[a].1(&r.tests[0]));
    let varying: Vec<usize> = (0..AXES.len()).filter(|&a| varies(a)).collect();
    let Some(&x_axis) = varying.last() else { return };
    let others = &varying[..varying.len() - 1];
    // One line per combination of the other varying axes, in the order they ran.
    let mut groups: Vec<(String, Vec<&TestResult>)> = Vec::new();
    for t in &r.tests {
        let key = others.iter().map(|&a| describe(a, AXES[a].1(t))).collect::<Vec<_>>().join(" ");
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(t),
            None => groups.push((key, vec![t])),
        }
    }
    let name = |k: &str| if k.is_empty() { "sweep".to_string() } else { k.to_string() };
    let x_of = AXES[x_axis].1;
    let series = |f: &dyn Fn(&TestResult) -> Option<(f64, f64)>| -> Vec<Series> {
        groups
            .iter()
            .map(|(k, ts)| Series { name: name(k), points: ts.iter().filter_map(|t| f(t)).collect() })
            .collect()
    };
    let x_scale = if x_axis == 3 { Scale::Linear } else { Scale::Log };
    let _ = writeln!(o, "<h2>Sweep</h2>");
    let x_desc = AXES[x_axis].0;
    let iops = series(&|t| Some((x_of(t), t.total.iops)));
    let c = Lines { x_desc, y_desc: "IOPS", x: x_scale, y: Scale::Linear, markers: true, series: &iops };
    figure(o, &format!("IOPS by {x_desc}"), charts::lines(&c));
    let p99 = series(&|t| Some((x_of(t), t.total.lat_us.percentiles.get("99")?)));
    let c = Lines { x_desc, y_desc: "p99 latency (µs)", x: x_scale, y: Scale::Log, markers: true, series: &p99 };
    figure(o, &format!("p99 latency by {x_desc} (µs, log scale)"), charts::lines(&c));
    let knee = series(&|t| Some((t.total.iops, t.total.lat_us.percentiles.get("99")?)));
    let c = Lines {
        x_desc: "IOPS",
        y_desc: "p99 latency (µs)",
        x: Scale::Linear,
        y: Scale::Log,
        markers: true,
        series: &knee,
    };
    figure(o, "p99 latency against IOPS: where the curve turns up, more load buys only waiting", charts::lines(&c));
}

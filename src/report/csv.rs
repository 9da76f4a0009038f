//! CSV: one row per test and operation, with fixed columns (documented in
//! docs/result-schema.md) so spreadsheets and scripts can rely on their places.

use crate::result::{OpStats, RunResult};
use crate::stats::{LatRec, PERCENTILES};

/// The columns before the percentiles, in order.
const HEAD: [&str; 23] = [
    "started_at",
    "host",
    "vm",
    "command",
    "label",
    "test",
    "op",
    "pattern",
    "block_sizes",
    "read_pct",
    "threads",
    "qd",
    "engine",
    "direct",
    "duration_s",
    "interrupted",
    "ios",
    "bytes",
    "iops",
    "mbps",
    "mibps",
    "lat_mean_us",
    "lat_stddev_us",
];

pub fn render(r: &RunResult) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head: Vec<String> = HEAD.iter().map(|s| s.to_string()).collect();
    head.push("lat_min_us".into());
    head.extend(PERCENTILES.iter().map(|p| format!("p{p}_us")));
    head.push("lat_max_us".into());
    // After every documented column, so readers by position are undisturbed: a multi-host
    // run's rows of one rank each (empty for the combined rows).
    head.extend(["rank".into(), "rank_host".into()]);
    // Then the test's mean queue depth over its run, all workers together, beside `qd` asked
    // (per worker) and `threads` (empty on a rank's row).
    head.push("mean_qd".into());
    w.write_record(&head).expect("writing to memory");
    let num = |v: Option<f64>| v.map(|x| format!("{x:.3}")).unwrap_or_default();
    let vm = match (&r.host.vm_vendor, &r.host.vm_product) {
        (Some(v), Some(p)) => format!("{v} {p}"),
        (v, p) => v.clone().or_else(|| p.clone()).unwrap_or_default(),
    };
    for t in &r.tests {
        let s = &t.spec;
        // Writes' own sizes after a comma, as fio's bssplit has them.
        let blocks = [Some(&s.blocks), s.write_blocks.as_ref()]
            .into_iter()
            .flatten()
            .map(|bs| bs.iter().map(|b| format!("{}/{}", b.size, b.pct)).collect::<Vec<_>>().join(":"))
            .collect::<Vec<_>>()
            .join(",");
        let pattern = format!("{:?}", s.pattern).to_lowercase();
        // Who measured (host, vm, the rank's columns), the operation, over how long, and what.
        let mut write = |host: &str, vm: &str, op: &str, secs: f64, o: &OpStats, rank: [String; 2]| {
            let mut row = vec![
                r.started_at.clone(),
                host.to_string(),
                vm.to_string(),
                r.command.clone(),
                r.label.clone().unwrap_or_default(),
                t.name.clone(),
                op.to_string(),
                pattern.clone(),
                blocks.clone(),
                s.read_pct.to_string(),
                s.threads.to_string(),
                t.depth.to_string(),
                t.engine.clone(),
                s.direct.to_string(),
                format!("{secs:.3}"),
                t.interrupted.to_string(),
                o.ios.to_string(),
                o.bytes.to_string(),
                format!("{:.3}", o.iops),
                format!("{:.3}", o.mbps),
                format!("{:.3}", o.mibps),
                num(o.lat_us.mean),
                num(o.lat_us.stddev),
                num(o.lat_us.min),
            ];
            row.extend(PERCENTILES.iter().map(|p| num(o.lat_us.percentiles.get(p))));
            row.push(num(o.lat_us.max));
            let own = rank[0].is_empty();
            row.extend(rank);
            row.push(if own { format!("{:.3}", t.mean_qd) } else { String::new() });
            w.write_record(&row).expect("writing to memory");
        };
        for (op, o) in [("read", &t.read), ("write", &t.write), ("total", &t.total)] {
            write(&r.host.hostname, &vm, op, t.duration_s, o, Default::default());
        }
        for k in &t.ranks {
            // The rank's own histograms give all its percentiles, as they gave the combined ones.
            let mut lat = LatRec::from_dump(&k.histograms.read);
            lat += &LatRec::from_dump(&k.histograms.write);
            if let Some(trim) = &k.histograms.trim {
                lat += &LatRec::from_dump(trim);
            }
            let o = OpStats {
                ios: k.ios,
                bytes: k.bytes,
                iops: k.iops,
                mbps: k.mbps,
                mibps: k.mbps * 1e6 / 1048576.0,
                lat_us: lat.summary(),
            };
            write(&k.host, "", "total", k.duration_s, &o, [k.rank.to_string(), k.host.clone()]);
        }
    }
    String::from_utf8(w.into_inner().expect("flushing to memory")).expect("CSV of UTF-8 fields")
}

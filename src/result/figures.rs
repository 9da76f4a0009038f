//! The figures a result must hold to be stored or imported: JSON writes an infinite or NaN rate as null,
//! which reads back as "no figure" or not at all, and a negative rate or latency is no
//! measurement. Either is refused by name before anything is written.

use crate::result::{OpStats, RunResult, SecondStats, ThreadOp};
use crate::stats::LatStats;

/// The first figure of `r` that is not finite or is below zero, as "test 1 ("4K read") read
/// IOPS is NaN".
pub fn check(r: &RunResult) -> Result<(), String> {
    for (i, t) in r.tests.iter().enumerate() {
        let at = |what: &str, v: f64| {
            let bad = !v.is_finite() || v < 0.0;
            if bad {
                Err(format!("test {} ({:?}) {what} is {v}, not a figure a run measures", i + 1, t.name))
            } else {
                Ok(())
            }
        };
        at("duration (s)", t.duration_s)?;
        at("mean queue depth", t.mean_qd)?;
        let ops =
            [("read", Some(&t.read)), ("write", Some(&t.write)), ("trim", t.trim.as_ref()), ("total", Some(&t.total))];
        for (dir, op) in ops {
            op.map_or(Ok(()), |op| op_stats(dir, op, &at))?;
        }
        for (dir, l) in [("read", &t.response.read), ("write", &t.response.write), ("total", &t.response.total)] {
            lat(&format!("{dir} response latency"), l, &at)?;
        }
        lat("fsync latency", &t.fsync.lat_us, &at)?;
        for th in &t.threads {
            for (dir, op) in [("read", &th.read), ("write", &th.write), ("total", &th.total)] {
                thread_op(&format!("thread {} {dir}", th.thread), op, &at)?;
            }
        }
        t.seconds.iter().try_for_each(|s| second(s, &at))?;
    }
    Ok(())
}

type At<'a> = dyn Fn(&str, f64) -> Result<(), String> + 'a;

fn op_stats(dir: &str, op: &OpStats, at: &At) -> Result<(), String> {
    at(&format!("{dir} IOPS"), op.iops)?;
    at(&format!("{dir} MB/s"), op.mbps)?;
    at(&format!("{dir} MiB/s"), op.mibps)?;
    lat(&format!("{dir} latency"), &op.lat_us, at)
}

fn lat(what: &str, l: &LatStats, at: &At) -> Result<(), String> {
    let named = [("min", l.min), ("mean", l.mean), ("stddev", l.stddev), ("max", l.max)];
    for (name, v) in named.into_iter().chain(l.percentiles.0.iter().map(|(p, v)| (p.as_str(), *v))) {
        if let Some(v) = v {
            at(&format!("{what} {name} (µs)"), v)?;
        }
    }
    Ok(())
}

fn thread_op(what: &str, op: &ThreadOp, at: &At) -> Result<(), String> {
    at(&format!("{what} IOPS"), op.iops)?;
    at(&format!("{what} MB/s"), op.mbps)?;
    at(&format!("{what} MiB/s"), op.mibps)?;
    at(&format!("{what} IOPS stddev"), op.iops_stddev)?;
    let lats = [("mean", op.lat_mean_us), ("stddev", op.lat_stddev_us)];
    lats.into_iter()
        .filter_map(|(n, v)| v.map(|v| (n, v)))
        .try_for_each(|(n, v)| at(&format!("{what} latency {n} (µs)"), v))
}

fn second(s: &SecondStats, at: &At) -> Result<(), String> {
    let what = format!("second {}", s.second);
    for (name, v) in [("read IOPS", s.read_iops), ("write IOPS", s.write_iops), ("IOPS", s.iops), ("MB/s", s.mbps)] {
        at(&format!("{what} {name}"), v)?;
    }
    at(&format!("{what} MiB/s"), s.mibps)?;
    [s.p50_us, s.p99_us].into_iter().flatten().try_for_each(|v| at(&format!("{what} latency (µs)"), v))
}

#[cfg(test)]
mod tests;

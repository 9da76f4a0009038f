//! Why a level shift happened, said with the figures behind it: a credit burst running dry,
//! a published cap stepping in or out, a throttle's flat hold, a write cache filling.

use super::super::catalog::Catalog;
use super::super::{thousands as num, Config};
use crate::result::shifts::{Level, Metric, Shift};
use crate::result::TestResult;

/// A level whose seconds scatter less than this fraction of its mean is held by something:
/// a device's own speed wanders more (the throttled loop devices of the tests hold 0.3-1 %).
pub const FLAT: f64 = 0.03;

/// A burst and the sustained rate it falls back to, as a catalog row publishes them.
struct Burst {
    by: String,
    burst: f64,
    sustained: f64,
    bucket_min: Option<f64>,
}

/// The catalog's bursts in `metric` (IOPS or MB/s): the configuration's own rows when
/// `--disk`/`--vm` name them, else every row that bursts.
fn bursts(cat: &Catalog, cfg: &Config, metric: Metric) -> Vec<Burst> {
    let iops = metric == Metric::Iops;
    let mut out = Vec::new();
    let n = cfg.count.max(1) as f64;
    // Named rows only of the kinds named; with none named, every row.
    let all = cfg.disk.is_none() && cfg.vm.is_none();
    let named = |want: &Option<String>, name: &str| want.as_ref().is_some_and(|x| x.eq_ignore_ascii_case(name));
    for d in cat.disks.iter().filter(|d| all || named(&cfg.disk, &d.name)) {
        let (b, s) = if iops { (d.burst_iops, d.iops) } else { (d.burst_mbps, d.mbps) };
        if let (Some(b), Some(s)) = (b, s) {
            let by = if n > 1.0 { format!("{n} × {} {}", d.kind, d.name) } else { format!("{} {}", d.kind, d.name) };
            out.push(Burst { by, burst: b * n, sustained: s * n, bucket_min: d.burst_bucket_min });
        }
    }
    for v in cat.vms.iter().filter(|v| all || named(&cfg.vm, &v.name)) {
        let (b, s) = if iops { (v.burst_iops, v.uncached_iops) } else { (v.burst_mbps, v.uncached_mbps) };
        if let (Some(b), Some(s)) = (b, s) {
            out.push(Burst { by: format!("VM {}", v.name), burst: b, sustained: s, bucket_min: v.burst_bucket_min });
        }
    }
    out.retain(|b| b.burst > b.sustained);
    out
}

fn near(x: f64, want: f64, tol: f64) -> bool {
    want > 0.0 && (x / want - 1.0).abs() <= tol
}

fn flatness(l: &Level) -> f64 {
    if l.mean > 0.0 {
        l.spread / l.mean
    } else {
        f64::INFINITY
    }
}

/// The cause of `s`, a shift of test `t`, if one can be named; `tol` is the matching
/// tolerance (a fraction), as for the walls.
pub fn name(s: &Shift, t: &TestResult, cat: &Catalog, cfg: &Config, tol: f64) -> Option<String> {
    let (b, a) = (s.before, s.after);
    let unit = if s.metric == Metric::Mbps { " MB/s" } else { " IOPS" };
    if !matches!(s.metric, Metric::Iops | Metric::Mbps) {
        return None;
    }
    let falls = a.mean < b.mean;
    let burst = bursts(cat, cfg, s.metric);
    let ended: Vec<&Burst> =
        burst.iter().filter(|x| falls && near(b.mean, x.burst, tol) && near(a.mean, x.sustained, tol)).collect();
    if let Some(x) = ended.first() {
        return Some(burst_end(s, x, &ended[1..], unit));
    }
    let raised: Vec<&Burst> =
        burst.iter().filter(|x| !falls && near(b.mean, x.sustained, tol) && near(a.mean, x.burst, tol)).collect();
    if let Some(x) = raised.first() {
        return Some(format!(
            "a raise to {}'s burst: {} ≈ its {} sustained, then {} ≈ its {}{unit} burst (bursting enabled, or credits \
             granted, mid-run)",
            x.by,
            num(b.mean),
            num(x.sustained),
            num(a.mean),
            num(x.burst)
        ));
    }
    let (fb, fa) = (flatness(&b), flatness(&a));
    if fa <= FLAT {
        let was = if fb <= FLAT {
            format!("both levels are flat ({:.1} % and {:.1} % spread)", fb * 100.0, fa * 100.0)
        } else {
            format!("the new level is flat ({:.1} % spread, {:.1} % before)", fa * 100.0, fb * 100.0)
        };
        let what = if falls { "a cap stepping in, or lowered" } else { "a cap lifted, or raised" };
        return Some(format!("{what}: {was}, as a limit holds a rate; it now holds ≈{}{unit}", num(a.mean)));
    }
    if falls && t.spec.read_pct < 100 && fb < fa {
        let written =
            b.mean * (b.end_s - b.start_s) as f64 * if s.metric == Metric::Iops { t.spec.mean_block() } else { 1e6 };
        return Some(format!(
            "a write cache filling: writes fell after ≈{:.1} GB written, to a level that is not flat ({:.1} % spread): \
             the medium's own speed, not a cap",
            written * (1.0 - t.spec.read_pct as f64 / 100.0) / 1e9,
            fa * 100.0
        ));
    }
    None
}

/// The end of a credit burst, with the bucket it held against the published one.
fn burst_end(s: &Shift, x: &Burst, also: &[&Burst], unit: &str) -> String {
    let (b, a) = (s.before, s.after);
    let secs = (b.end_s - b.start_s) as f64;
    let spent = (b.mean - a.mean) * secs;
    let mut line = format!(
        "the end of {}'s burst: {} ≈ its {} burst, then {} ≈ its {}{unit} sustained; {} {} above the sustained rate \
         were spent in {:.1} min",
        x.by,
        num(b.mean),
        num(x.burst),
        num(a.mean),
        num(x.sustained),
        num(spent),
        if unit == " IOPS" { "I/Os" } else { "MB" },
        secs / 60.0
    );
    if let Some(m) = x.bucket_min {
        let published = (x.burst - x.sustained) * m * 60.0;
        line += &format!(
            " (a full bucket: {} in {m} min at burst; this one held {:.0} % of it)",
            num(published),
            spent / published * 100.0
        );
    }
    if !also.is_empty() {
        let names: Vec<&str> = also.iter().take(3).map(|o| o.by.as_str()).collect();
        line += &format!("; {} burst alike", names.join(", "));
    }
    line
}

#[cfg(test)]
mod tests;

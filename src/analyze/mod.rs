//! Explaining measurements: the walls a disk hits (infer), the published limits they match
//! (catalog, matching), what follows for the user (advice), and configurations that meet a
//! target (plan). Pure functions of results and the catalog: no I/O here.

pub mod burst;
pub mod catalog;
pub mod infer;
pub mod matching;
pub mod noise;
pub mod plan;
pub mod price;
pub mod results;
pub mod shifts;
pub mod sweep;

use crate::result::analysis::{Advice, Expected, Explanation, Flat, Wall, Walls};
use catalog::Catalog;
use infer::Point;

/// A configuration to check the measurement against (`--disk P30 --count 3 --vm D2s_v4`).
#[derive(Debug, Clone, Default)]
pub struct Config {
    pub disk: Option<String>,
    pub count: u32,
    pub vm: Option<String>,
    /// Host caching on (ReadOnly/ReadWrite): the VM's cached limit applies instead.
    pub cached: bool,
    /// Disk size for formula types (gp3, pd-ssd …), GiB.
    pub size_gib: Option<f64>,
    /// The disks' on-demand bursting is enabled (billed): count it as a burst limit.
    pub on_demand_burst: bool,
}

/// A count with thousands separators, as the advice prints figures: 12,800.
pub fn thousands(v: f64) -> String {
    let r = v.round() as i64;
    let s = r.abs().to_string();
    let mut o = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            o.push(',');
        }
        o.push(c);
    }
    if r < 0 {
        format!("-{o}")
    } else {
        o
    }
}

/// Explains `pts`, measured on a host that can be what `host` allows, against the catalog;
/// `cfg` names a configuration to check them against.
pub fn explain(
    pts: &[Point],
    cat: &Catalog,
    cfg: &Config,
    tol: f64,
    host: &matching::HostFit,
) -> Result<Explanation, crate::error::UsageError> {
    let reads: Vec<&Point> = pts.iter().filter(|p| p.read).collect();
    let writes: Vec<&Point> = pts.iter().filter(|p| !p.read).collect();
    let r = (!reads.is_empty()).then(|| infer::walls(&reads));
    let w = (!writes.is_empty()).then(|| infer::walls(&writes));
    let repeatability = infer::repeatability(pts);
    let spread = repeatability.as_ref().map(|r| r.spread_pct);
    let (r, w) = (r.map(|x| doubt_by_spread(x, &repeatability)), w.map(|x| doubt_by_spread(x, &repeatability)));
    let (read_write_ratio, ratio_unsure) = infer::read_write_ratio(pts, spread);
    let mut e = Explanation {
        walls: r.clone().or_else(|| w.clone()).unwrap_or_default(),
        reads: r,
        writes: w,
        read_write_ratio,
        ratio_unsure,
        repeatability,
        tolerance_pct: tol * 100.0,
        ..Explanation::default()
    };
    e.matches = matches(cat, &e.walls, tol, host);
    if let (Some(_), Some(w)) = (&e.reads, &e.writes) {
        e.write_matches = matches(cat, w, tol, host);
    }
    e.expected = expected(cat, cfg)?;
    e.advice = advice(&e, pts, tol);
    Ok(e)
}

/// The walls `w` says, doubted where repeated points lay further apart than the differences
/// each is told by: 10 % for a plateau (caps, a throttle) and a knee, 30 % for the latency-bound
/// region (IOPS within 70 % of linear growth).
fn doubt_by_spread(mut w: Walls, rep: &Option<crate::result::analysis::Repeatability>) -> Walls {
    let Some(rep) = rep else { return w };
    let present = [
        ("knee_qd", w.knee_qd.is_some() || w.latency_bound.is_some(), infer::FLAT),
        ("latency_bound", w.latency_bound.is_some(), 0.30),
        ("iops_cap", w.iops_cap.is_some(), infer::FLAT),
        ("mbps_cap", w.mbps_cap.is_some(), infer::FLAT),
        ("throttle", w.throttle.is_some(), infer::FLAT),
    ];
    for (field, said, margin) in present {
        if said && rep.spread_pct > margin * 100.0 && !w.unsure.contains_key(field) {
            let why = format!(
                "repeated points lie up to {:.0} % apart ({}): more than the {:.0} % this is told by",
                rep.spread_pct,
                rep.worst,
                margin * 100.0
            );
            w.unsure.insert(field.into(), why);
        }
    }
    w
}

/// The catalog rows a direction's walls match: its IOPS cap and its MB/s cap (or, with no IOPS
/// cap, the MB/s of a throttle).
fn matches(cat: &Catalog, w: &Walls, tol: f64, host: &matching::HostFit) -> Vec<crate::result::analysis::Match> {
    let mbps = w.mbps_cap.or(w.throttle.as_ref().map(|t| t.mbps).filter(|_| w.iops_cap.is_none()));
    match (w.iops_cap, mbps) {
        (None, None) => Vec::new(),
        (iops, mbps) => matching::matches(cat, iops, mbps, tol, host),
    }
}

/// The limits `cfg` should show, sustained and while bursting, from the catalog.
pub fn expected(cat: &Catalog, cfg: &Config) -> Result<Option<Expected>, crate::error::UsageError> {
    use crate::error::UsageError;
    let disk = match &cfg.disk {
        Some(n) => {
            let d = cat.disk(n).ok_or_else(|| {
                UsageError::new("--disk", format!("'{n}' is not in the catalog; `iolens catalog` lists it"))
            })?;
            let gib = cfg.size_gib.or(d.size_gib).unwrap_or(d.min_gib.unwrap_or(0.0));
            Some(burst::disks(d, gib, cfg.count.max(1), None, cfg.on_demand_burst))
        }
        None => None,
    };
    let vm = match &cfg.vm {
        Some(n) => {
            let v = cat.vm(n, cfg.disk.as_deref()).ok_or_else(|| {
                UsageError::new(
                    "--vm",
                    format!("'{n}' is not in the catalog; `iolens catalog --search VM` lists VM sizes"),
                )
            })?;
            let cached = cfg.cached && v.caps(true).is_some();
            // Uncached, the disks get what the VM publishes for their kind (Premium SSD v2's
            // higher cap on Dsv6, a GCP machine's per disk type).
            let for_disk = cfg.disk.as_deref().and_then(|n| cat.disk(n)).filter(|_| !cached);
            let (caps, burst) = match for_disk {
                Some(d) => v.caps_for(d, None),
                None if cached => v.caps(true).map(|c| (c, None)),
                None => v.caps_for(&Default::default(), None).or_else(|| v.caps(false).map(|c| (c, None))),
            }
            .ok_or_else(|| {
                UsageError::new("--vm", format!("{} has no published limits for this cache mode", v.name))
            })?;
            let label = format!("VM {} {}", v.name, if cached { "cached" } else { "uncached" });
            Some(burst::vm(v, caps, burst, label))
        }
        None => None,
    };
    let mut x = burst::expected(disk, vm);
    if let Some(x) = &mut x {
        let d = cfg.disk.as_deref().and_then(|n| cat.disk(n)).map(|d| (d.name.as_str(), d.source.as_str()));
        let v = cfg
            .vm
            .as_deref()
            .and_then(|n| cat.vm(n, cfg.disk.as_deref()))
            .map(|v| (v.name.as_str(), v.source.as_str()));
        x.sources = [d, v].into_iter().flatten().map(|(n, s)| format!("{n}: {}", cat.cited(s))).collect();
    }
    Ok(x)
}

/// The block sizes where `wall` binds, smallest first.
fn by_size(w: &Walls, wall: Wall) -> Vec<&String> {
    let mut v: Vec<&String> = w.sizes_bound_by(wall).collect();
    v.sort_by_key(|k| crate::workload::size::parse_size(k).unwrap_or(0));
    v
}

fn advice(e: &Explanation, pts: &[Point], tol: f64) -> Vec<Advice> {
    let mut out = Vec::new();
    let mut say = |advice: String, because: String, unsure: Option<&String>| {
        out.push(Advice { advice, because, unsure: unsure.cloned() })
    };
    // The main direction's points: the reads', else the writes'.
    let dir: Vec<&Point> = pts.iter().filter(|p| p.read == e.reads.is_some()).collect();
    queue_advice(e, &dir, &mut say);
    cap_advice(e, &dir, &mut say);
    if let Some(x) = &e.expected {
        expected_advice(e, x, tol, &mut say);
    }
    out
}

/// What an advice says, the measurement behind it and why that may not back it.
type Say<'a> = &'a mut dyn FnMut(String, String, Option<&String>);

/// A throttle that flattens everything, or else how many I/Os to keep in flight: the
/// latency-bound region and the knee.
fn queue_advice(e: &Explanation, dir: &[&Point], say: Say) {
    let main = e.reads.as_ref().or(e.writes.as_ref());
    // The figures the walls were found in: one line of points measured together.
    let line: Vec<Point> = infer::qd_line(dir).into_iter().map(|m| m.p).collect();
    let at = |q: u32| line.iter().find(|p| p.outstanding == q);
    let doubt = |f: &str| main.and_then(|w| w.unsure.get(f));
    if let Some(t) = &e.walls.throttle {
        let (what, because) = if t.on == Flat::Mbps {
            (
                format!("{:.1} MB/s", e.walls.mbps_cap.unwrap_or(t.mbps)),
                "MB/s within 10 % at every block size, and IOPS at every queue depth",
            )
        } else {
            (
                format!("{} IOPS / {:.1} MB/s", thousands(t.iops), t.mbps),
                "IOPS within 10 % at every queue depth measured",
            )
        };
        say(
            format!("Everything stops at {what}, even one I/O at a time: a throttle (a temp disk, a QoS policy, a cloud limit), not the device. Neither more queue depth nor bigger blocks will help; change the limit or move the data."),
            because.into(),
            doubt("throttle"),
        );
    } else if let Some(w) = main {
        if let (Some(lb), Some(knee)) = (&w.latency_bound, w.knee_qd) {
            if let (Some(a), Some(k)) = (at(lb.from_qd), at(knee)) {
                say(
                    format!("Keep at least {knee} I/Os in flight (asynchronous I/O, more threads or files): a single stream is latency-bound."),
                    format!("QD {}: {} IOPS at {:.0} µs; QD {knee}: {} IOPS (IOPS ≈ I/Os in flight ÷ latency)", a.outstanding, thousands(a.iops), a.lat_us, thousands(k.iops)),
                    doubt("knee_qd"),
                );
            }
        } else if let Some(lb) = &w.latency_bound {
            // The deepest point, not the end of the in-step stretch: past it IOPS may still have
            // grown, more slowly, to a depth the user sees in the table.
            let deepest = line.last().filter(|p| p.outstanding > lb.to_qd);
            let then = deepest.map_or(String::new(), |p| {
                format!(
                    ", then more slowly, to {} IOPS at QD {} ({:.0} µs)",
                    thousands(p.iops),
                    p.outstanding,
                    p.lat_us
                )
            });
            say(
                format!(
                    "IOPS still grew at QD {}, the deepest measured: deeper queues may give more.",
                    deepest.map_or(lb.to_qd, |p| p.outstanding)
                ),
                format!(
                    "IOPS grew in step with the I/Os in flight from QD {} to {} (≈ {:.0} µs each){then}",
                    lb.from_qd, lb.to_qd, lb.latency_us
                ),
                doubt("latency_bound"),
            );
        }
        if let Some(knee) = w.knee_qd {
            let next = line.iter().find(|p| p.outstanding > knee);
            if let (Some(k), Some(n)) = (at(knee), next) {
                say(
                    format!("Past QD {knee} more outstanding I/O only adds waiting."),
                    format!(
                        "QD {knee} → {}: IOPS {:+.0} %, latency {:+.0} %",
                        n.outstanding,
                        (n.iops / k.iops - 1.0) * 100.0,
                        (n.lat_us / k.lat_us - 1.0) * 100.0
                    ),
                    doubt("knee_qd"),
                );
            }
        }
    }
}

/// The IOPS and MB/s caps, and a read cache (reads far faster than writes).
fn cap_advice(e: &Explanation, dir: &[&Point], say: Say) {
    let main = e.reads.as_ref().or(e.writes.as_ref());
    if let (Some(cap), Some(w)) = (e.walls.iops_cap, main) {
        let small = by_size(w, Wall::Iops);
        if e.walls.throttle.is_none() && !small.is_empty() {
            say(
                format!("Small I/O stops at {} IOPS: for more, a tier with a higher IOPS limit, or disks striped (each adds its limit) within the VM's limit.", thousands(cap)),
                format!("IOPS within 10 % at {} (QD {})", small.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "), w.sweep_qd.unwrap_or(0)),
                w.unsure.get("iops_cap"),
            );
        }
    }
    if let (Some(cap), Some(w)) = (e.walls.mbps_cap, main) {
        let large = by_size(w, Wall::Mbps);
        let cross = e
            .walls
            .crossover_bs
            .map(|b| format!(" Blocks above {:.0} KiB gain nothing.", b as f64 / 1024.0))
            .unwrap_or_default();
        say(
            format!("Large I/O stops at {cap:.0} MB/s.{cross} For more bandwidth, a tier with a higher MB/s limit or disks striped."),
            {
                let span = infer::cap_span(dir, &large, cap).map(|s| format!(" ({s})")).unwrap_or_default();
                format!("MB/s within 10 % at {}{span}", large.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "))
            },
            w.unsure.get("mbps_cap"),
        );
    }
    if let Some(r) = e.read_write_ratio.filter(|r| *r >= 2.0) {
        say(
            format!("Reads are {r:.1}× faster than writes: a read cache serves them (host cache ReadOnly, a controller or page cache). Test beyond the cache, or with caching off, to see the disk itself."),
            "read and write IOPS at the same block size and queue depth, measured together (the median of such pairs)".into(),
            e.ratio_unsure.as_ref(),
        );
    }
}

/// The caps against the published limits of the named disk and VM: bursting, below, or as
/// published.
fn expected_advice(e: &Explanation, x: &Expected, tol: f64, say: Say) {
    for (what, got, want, by, burst, unit) in [
        ("IOPS", e.walls.iops_cap, Some(x.iops), &x.iops_by, x.burst_iops.zip(x.burst_iops_by.as_ref()), ""),
        ("MB/s", e.walls.mbps_cap, x.mbps, &x.mbps_by, x.burst_mbps.zip(x.burst_mbps_by.as_ref()), " MB/s"),
    ] {
        let (Some(got), Some(want)) = (got, want) else { continue };
        let field = if unit.is_empty() { "iops_cap" } else { "mbps_cap" };
        let noisy = e.repeatability.as_ref().filter(|r| r.spread_pct > tol * 100.0).map(|r| {
            format!(
                "repeated points lie up to {:.0} % apart ({}): more than the ±{:.0} % a match is told by",
                r.spread_pct,
                r.worst,
                tol * 100.0
            )
        });
        let doubt = e.walls.unsure.get(field).cloned().or(noisy);
        let doubt = doubt.as_ref();
        let diff = (got / want - 1.0) * 100.0;
        let because = format!(
            "measured {}{unit} against {}{unit} published for {by} ({diff:+.0} %)",
            thousands(got),
            thousands(want)
        );
        let at_burst = burst.filter(|(b, _)| (got - b).abs() <= tol * b);
        if let (Some((b, bby)), true) = (at_burst, got > want * (1.0 + tol)) {
            let how = x
                .bursts
                .iter()
                .map(|p| format!("{} bursts {}", p.by, p.model.describe()))
                .collect::<Vec<_>>()
                .join("; ");
            say(
                format!(
                    "{what} at the burst limit of {bby}, not the sustained one: {how}. Sustained load gets {}{unit}.",
                    thousands(want)
                ),
                format!(
                    "measured {}{unit} against {}{unit} published for {bby} ({:+.0} %) and {}{unit} sustained for {by}",
                    thousands(got),
                    thousands(b),
                    (got / b - 1.0) * 100.0,
                    thousands(want)
                ),
                doubt,
            );
        } else if got > want * (1.0 + tol) {
            say(
                format!("{what} above the published limit: bursting or a host cache; sustained figures will be lower."),
                because,
                doubt,
            );
        } else if got < want * (1.0 - tol) {
            say(format!("{what} below what {by} allows: another limit binds (queue depth, cache mode, the VM) or the configuration is not what was named."), because, doubt);
        } else {
            let vm_binds = by.starts_with("VM") && x.disks_iops.is_some();
            let hint = if vm_binds { " A larger VM size raises it; more disks do not." } else { "" };
            say(format!("{what}: the limit of {by} binds, as published.{hint}"), because, doubt);
        }
    }
}

#[cfg(test)]
mod tests;

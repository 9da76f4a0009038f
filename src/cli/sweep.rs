//! `iolens sweep`: Iometer-style access specifications. Any of --bs, --qd, --threads and
//! --read-pct takes a comma list; every combination is one point, run on the same target.

use super::common::CommonArgs;
use super::run::{to_spec, Axes, Knobs, Layout};
use super::values::{block, Parser};
use crate::error::{usage, UsageError};
use crate::result::Kind;
use crate::session::{Item, Request};
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct SweepArgs {
    /// Files, directories (a test file is made inside) or block devices [default: .]
    #[arg(value_name = "TARGET")]
    pub targets: Vec<String>,
    /// Block size: 512, 4k, 8K, 64k, 1M (k = KiB)
    #[arg(long, short = 'b', default_value = "4k", value_name = "SIZE", value_parser = swept("--bs", block("--bs")))]
    pub bs: Swept<u64>,
    #[command(flatten)]
    pub layout: Layout,
    /// Percentage of I/Os that read, for mixes (rw, randrw default to 50)
    #[arg(long, alias = "rwmixread", value_name = "N", value_parser = swept("--read-pct", number("--read-pct", "0-100")))]
    pub read_pct: Option<Swept<u32>>,
    /// Worker threads per target (DiskSpd -t)
    #[arg(long, short = 't', alias = "numjobs", default_value = "1", value_name = "N",
          value_parser = swept("--threads", number("--threads", "1-4096")))]
    pub threads: Swept<u32>,
    /// Outstanding I/Os per thread (DiskSpd -o, fio iodepth)
    #[arg(long, short = 'o', alias = "iodepth", default_value = "1", value_name = "N",
          value_parser = swept("--qd", number("--qd", "1-4096")))]
    pub qd: Swept<u32>,
    #[command(flatten)]
    pub knobs: Knobs,
    #[command(flatten)]
    pub mpi: super::mpi::MpiArgs,
    #[command(flatten)]
    pub common: CommonArgs,
}

/// A swept option's values, each with its text as typed, which names the points.
#[derive(Debug, Clone, PartialEq)]
pub struct Swept<T>(pub Vec<(String, T)>);

fn number(opt: &'static str, allowed: &'static str) -> impl Parser<u32> {
    super::run::number(opt, allowed)
}

/// A comma list read item by item by `one`, none empty.
fn swept<T: Clone + Send + Sync + 'static>(opt: &'static str, one: impl Parser<T>) -> impl Parser<Swept<T>> {
    move |s| {
        let items: Vec<&str> = s.split(',').map(str::trim).collect();
        if items.iter().any(|x| x.is_empty()) {
            return usage(opt, "a list has an empty entry; write e.g. 1,2,4,8");
        }
        items.into_iter().map(|x| Ok((x.to_string(), one(x)?))).collect::<Result<_, _>>().map(Swept)
    }
}

/// One value of each axis, with the texts that name it.
#[derive(Clone, Default)]
struct Point {
    bs: u64,
    threads: u32,
    qd: u32,
    read_pct: Option<u32>,
    names: Vec<String>,
}

/// Every point of the sweep, named by the values that vary: "bs=4K qd=32". The last axis
/// varies fastest.
pub fn items(a: &SweepArgs) -> Result<Vec<Item>, UsageError> {
    let none = Swept(Vec::new());
    let read_pct = a.read_pct.as_ref().unwrap_or(&none);
    let lens = [
        ("--bs", a.bs.0.len()),
        ("--threads", a.threads.0.len()),
        ("--qd", a.qd.0.len()),
        ("--read-pct", read_pct.0.len()),
    ];
    // Counted before any point is made: four lists of a thousand values would ask for 10^12.
    let count: u128 = lens.iter().map(|(_, n)| (*n).max(1) as u128).product();
    if count > 1000 {
        let first = lens.iter().find(|(_, n)| *n > 1).map_or("--bs", |(o, _)| o);
        return usage(first, format!("{count} points is too many for one sweep (at most 1000)"));
    }
    if lens.iter().all(|(_, n)| *n <= 1) {
        return usage(
            "--bs",
            "nothing to sweep; give a list to --bs, --qd, --threads or --read-pct (e.g. --qd 1,4,16)",
        );
    }
    let first = Point {
        bs: a.bs.0[0].1,
        threads: a.threads.0[0].1,
        qd: a.qd.0[0].1,
        read_pct: read_pct.0.first().map(|v| v.1),
        names: Vec::new(),
    };
    let mut points = vec![first];
    points = vary(points, "bs", &a.bs, |p, v| p.bs = v);
    points = vary(points, "threads", &a.threads, |p, v| p.threads = v);
    points = vary(points, "qd", &a.qd, |p, v| p.qd = v);
    points = vary(points, "read-pct", read_pct, |p, v| p.read_pct = Some(v));
    points
        .into_iter()
        .map(|p| {
            let what = Axes { bs: p.bs, layout: a.layout.clone(), read_pct: p.read_pct, threads: p.threads, qd: p.qd };
            let spec = to_spec(&a.targets, &what, &a.knobs, &a.common)?;
            Ok(Item { name: p.names.join(" "), spec, notes: Vec::new() })
        })
        .collect()
}

/// Each point once per value of an axis given as a list of more than one.
fn vary<T: Copy>(points: Vec<Point>, name: &str, values: &Swept<T>, set: impl Fn(&mut Point, T)) -> Vec<Point> {
    if values.0.len() < 2 {
        return points;
    }
    let mut out = Vec::with_capacity(points.len() * values.0.len());
    for p in points {
        for (text, v) in &values.0 {
            let mut q = p.clone();
            set(&mut q, *v);
            q.names.push(format!("{name}={text}"));
            out.push(q);
        }
    }
    out
}

pub fn main(a: SweepArgs) -> anyhow::Result<i32> {
    let items = items(&a)?;
    let output = a.common.output(a.knobs.trace.as_deref())?;
    super::mpi::execute(&Request::once(Kind::Sweep, &items, &output), a.mpi.check()?)
}

//! `iolens explain [TARGET | RESULT-ID…]`: on a target, an adaptive sweep (queue depth 1 → 256
//! at 4K, then block size 4K → 1M at a deep queue; reads, then writes), each climb stopping once
//! throughput stops growing, within a time budget; on stored results, what they hold. Then the
//! walls, the catalog matches and the advice.

use super::common::CommonArgs;
use super::exec::{execute_series, Item, Passes};
use super::fail;
use crate::analyze::{self, catalog::Catalog, infer, Config};
use crate::compare::test_key;
use crate::error::{usage, UsageError};
use crate::result::TestResult;
use crate::spec::{parse, BlockShare, Pattern, Spec};
use clap::Args;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Args, Debug, Clone, Default)]
pub struct Judge {
    /// Check the measurement against this disk tier or type from the catalog (P30, gp3, pd-ssd …)
    #[arg(long, value_name = "TIER")]
    pub disk: Option<String>,
    /// Disks striped together
    #[arg(long, default_value = "1", value_name = "N")]
    pub count: String,
    /// The VM size whose limit applies (D8s_v3, m5.xlarge, n2-standard-4 …)
    #[arg(long, value_name = "SIZE")]
    pub vm: Option<String>,
    /// Host cache mode: none (the VM's uncached limit), readonly or readwrite (its cached limit)
    #[arg(long, default_value = "none", value_name = "MODE")]
    pub cache: String,
    /// Each disk's size in GiB, for types whose limits grow with size (gp2, pd-ssd …)
    #[arg(long, value_name = "GIB")]
    pub disk_size: Option<String>,
    /// Caps within this many percent of a catalog row match it
    #[arg(long, default_value = "10", value_name = "PCT")]
    pub tolerance: String,
    /// Another catalog file to add (same format as data/catalog.toml): an on-premises SAN's limits
    #[arg(long, value_name = "FILE")]
    pub catalog: Option<PathBuf>,
}

impl Judge {
    /// The catalog, the configuration to check and the tolerance, all checked.
    pub fn read(&self) -> Result<(Catalog, Config, f64), UsageError> {
        let cat = Catalog::load(self.catalog.as_deref())?;
        let count = match self.count.parse::<u32>() {
            Ok(n) if (1..=64).contains(&n) => n,
            _ => return usage("--count", format!("'{}' is not allowed; use 1-64", self.count)),
        };
        let cached = match self.cache.to_lowercase().as_str() {
            "none" => false,
            "readonly" | "readwrite" => true,
            c => return usage("--cache", format!("'{c}' is not a cache mode; use none, readonly or readwrite")),
        };
        let size_gib = match &self.disk_size {
            None => None,
            Some(s) => match s.parse::<f64>() {
                Ok(g) if g > 0.0 => Some(g),
                _ => return usage("--disk-size", format!("'{s}' is not a size in GiB")),
            },
        };
        let tol = match self.tolerance.trim_end_matches('%').parse::<f64>() {
            Ok(t) if t > 0.0 && t < 100.0 => t / 100.0,
            _ => {
                return usage(
                    "--tolerance",
                    format!("'{}' is not allowed; use a percentage above 0 and below 100", self.tolerance),
                )
            }
        };
        let cfg = Config { disk: self.disk.clone(), count, vm: self.vm.clone(), cached, size_gib };
        analyze::expected(&cat, &cfg)?;
        Ok((cat, cfg, tol))
    }
}

#[derive(Args, Debug, Clone)]
pub struct ExplainArgs {
    /// A file, directory or block device to sweep [default: .], or stored result ids to explain
    #[arg(value_name = "TARGET|ID")]
    pub what: Vec<String>,
    /// Time for the whole sweep
    #[arg(long, default_value = "60s", value_name = "TIME")]
    pub budget: String,
    /// Test file size [default: 1GiB; a device's whole size]
    #[arg(long, value_name = "SIZE")]
    pub size: Option<String>,
    /// Reads only (writes are swept after reads unless the target is a device without --force-device)
    #[arg(long)]
    pub reads_only: bool,
    #[command(flatten)]
    pub judge: Judge,
    #[command(flatten)]
    pub common: CommonArgs,
}

const QDS: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const SIZES: [u64; 9] = [4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20];

/// The adaptive sweep: where it is, and when it must stop.
pub struct Sweeper {
    base: Spec,
    reads: bool,
    writes: bool,
    step: f64,
    budget: f64,
    /// Set at the first step, so a profile run before the sweep does not eat its budget.
    deadline: Option<Instant>,
    /// (read?, phase 0 = queue depth / 1 = block size, index) of the last step issued.
    at: Option<(bool, u8, usize)>,
    flat: u32,
    deep: u32,
    /// Tests run before the sweep (check's profile) are not the sweep's.
    skip: usize,
    /// Before each step's name, to tell them from a profile's tests with the same name.
    pub prefix: &'static str,
}

impl Sweeper {
    pub fn new(base: Spec, budget: f64, reads: bool, writes: bool, skip: usize) -> Sweeper {
        // About two dozen steps fit the budget; long enough for throttles to settle.
        let step = (budget / 24.0).clamp(1.0, 5.0);
        Sweeper { base, reads, writes, step, budget, deadline: None, at: None, flat: 0, deep: 32, skip, prefix: "" }
    }

    fn item(&self, read: bool, qd: u32, bs: u64) -> Item {
        // Large blocks are few a second under a bandwidth cap (20 MB/s is 19 I/Os of 1M): a longer
        // step counts enough of them, and a longer warm-up lets a throttle settle.
        let large = bs >= 512 << 10;
        let warmup = if large { (self.step * 0.4).max(1.0) } else { self.step * 0.25 };
        let duration = if large { self.step * 2.0 } else { self.step };
        let spec = Spec {
            blocks: vec![BlockShare { size: bs, pct: 100 }],
            pattern: Pattern::Random,
            read_pct: if read { 100 } else { 0 },
            qd,
            threads: 1,
            duration,
            warmup,
            ..self.base.clone()
        };
        Item { name: format!("{}{}", self.prefix, test_key(&spec)), spec, notes: Vec::new() }
    }

    /// The next step from what the sweep measured so far.
    pub fn next(&mut self, done: &[TestResult]) -> Option<Item> {
        let mine = &done[self.skip.min(done.len())..];
        let grew =
            |k: usize, f: fn(&TestResult) -> f64| match (mine.len().checked_sub(2).map(|i| &mine[i]), mine.last()) {
                (Some(a), Some(b)) if k > 0 => f(b) >= f(a) * 1.05,
                _ => true,
            };
        let start = Instant::now();
        let deadline = *self.deadline.get_or_insert_with(|| start + Duration::from_secs_f64(self.budget));
        let left = deadline.saturating_duration_since(Instant::now()).as_secs_f64();
        if left < self.step * 1.5 {
            return None;
        }
        // Reads get half the budget when writes follow; what they did not reach stays unmeasured.
        if let (Some((true, _, _)), true) = (self.at, self.writes) {
            if left < self.budget / 2.0 {
                (self.reads, self.at, self.flat) = (false, None, 0);
            }
        }
        let (read, phase, i) = match self.at {
            None if self.reads => (true, 0, 0),
            None if self.writes => (false, 0, 0),
            None => return None,
            Some((read, 0, i)) => {
                self.flat = if grew(i, |t| t.total.iops) { 0 } else { self.flat + 1 };
                if self.flat == 1 && i > 0 {
                    // The knee: sweep block sizes at twice its depth (at least 16).
                    self.deep = (QDS[i - 1] * 2).clamp(16, 64);
                }
                if self.flat >= 2 || i + 1 == QDS.len() {
                    self.flat = 0;
                    (read, 1, 0)
                } else {
                    (read, 0, i + 1)
                }
            }
            Some((read, _, i)) => {
                self.flat = if grew(i, |t| t.total.mbps) { 0 } else { self.flat + 1 };
                if i + 1 == SIZES.len() {
                    self.flat = 0;
                    if read && self.writes {
                        (false, 0, 0)
                    } else {
                        return None;
                    }
                } else if self.flat >= 2 {
                    // Throughput stopped growing: one more step at 1M confirms the wall there.
                    (read, 1, SIZES.len() - 1)
                } else {
                    (read, 1, i + 1)
                }
            }
        };
        if phase == 0 && i == 0 {
            self.deep = 32;
        }
        self.at = Some((read, phase, i));
        Some(if phase == 0 { self.item(read, QDS[i], 4 << 10) } else { self.item(read, self.deep, SIZES[i]) })
    }
}

/// Whether a sweep of `target` writes too: not with --reads-only, and on a block device only
/// with --force-device (said once on stderr).
pub fn may_write(target: &str, reads_only: bool, force_device: bool) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let device = std::fs::metadata(target).is_ok_and(|m| m.file_type().is_block_device());
    if device && !force_device && !reads_only {
        eprintln!("note: {target} is a block device: reads only (writes need --force-device)");
    }
    !reads_only && (!device || force_device)
}

/// The walls, matches and advice of a finished result, from its own tests.
pub fn analyse(r: &mut crate::result::RunResult, cat: &Catalog, cfg: &Config, tol: f64) -> anyhow::Result<()> {
    let pts: Vec<infer::Point> = r.tests.iter().filter_map(infer::Point::of).collect();
    r.analysis = Some(analyze::explain(&pts, cat, cfg, tol)?);
    Ok(())
}

fn explain_stored(a: &ExplainArgs, ids: Vec<i64>) -> anyhow::Result<i32> {
    let (cat, cfg, tol) = a.judge.read()?;
    let format = crate::report::Format::parse(&a.common.format)?;
    let path = a.common.store.check()?.path.unwrap_or_else(crate::store::default_path);
    if !path.exists() {
        return usage("--store", format!("{} does not exist yet; measure something first", path.display()))?;
    }
    let s = crate::store::Store::open(&path)?;
    let mut results = Vec::new();
    for id in &ids {
        results
            .push(s.load(*id)?.ok_or_else(|| UsageError::new("ID", format!("no result {id} in {}", path.display())))?);
    }
    let pts = infer::points(&results);
    if pts.is_empty() {
        return usage("ID", "these results hold no pure read or write test of one block size to explain")?;
    }
    let e = analyze::explain(&pts, &cat, &cfg, tol)?;
    match format {
        crate::report::Format::Json => {
            println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "results": ids, "analysis": e }))?)
        }
        _ => print!("{}", crate::report::findings(&e)),
    }
    Ok(0)
}

pub fn main(a: ExplainArgs) -> i32 {
    let go = || -> anyhow::Result<i32> {
        let ids: Option<Vec<i64>> = (!a.what.is_empty() && a.what.iter().all(|w| !std::path::Path::new(w).exists()))
            .then(|| a.what.iter().map(|w| w.parse::<i64>().ok().filter(|n| *n > 0)).collect())
            .flatten();
        if let Some(ids) = ids {
            return explain_stored(&a, ids);
        }
        if a.what.len() > 1 {
            return usage("TARGET", "explain sweeps one target (or takes result ids)")?;
        }
        let (cat, cfg, tol) = a.judge.read()?;
        let budget = parse::seconds("--budget", &a.budget)?;
        if budget < 5.0 {
            return usage("--budget", "at least 5 s: every step needs a second or more")?;
        }
        let mut base = Spec {
            targets: vec![a.what.first().cloned().unwrap_or_else(|| ".".into())],
            size: parse::size("--size", a.size.as_deref().unwrap_or("1GiB"))?,
            ..Spec::default()
        };
        a.common.apply(&mut base);
        let writes = may_write(&base.targets[0], a.reads_only, a.common.force_device);
        let output = a.common.output(None)?;
        let mut sw = Sweeper::new(base, budget, true, writes, 0);
        let envelope = vec![sw.item(true, 64, 1 << 20), sw.item(!writes, 64, 1 << 20)];
        for i in &envelope {
            i.spec.validate()?;
        }
        let annotate = |r: &mut crate::result::RunResult| analyse(r, &cat, &cfg, tol);
        execute_series(
            "explain",
            &envelope,
            a.size.is_some(),
            &output,
            &Passes::ONCE,
            &mut |done| sw.next(done),
            &annotate,
        )
    };
    go().unwrap_or_else(|e| fail(&e))
}

//! `iolens explain [TARGET | RESULT-ID…]`: on a target, an adaptive sweep (queue depth 1 → 256
//! at 4K, then block size 4K → 1M at a deep queue; reads, then writes), each climb stopping once
//! throughput stops growing, within a time budget; on stored results, what they hold. Then the
//! walls, the catalog matches and the advice.

use super::common::CommonArgs;
use super::values;
use crate::analyze::sweep::{Step, Sweeper};
use crate::analyze::{self, catalog::Catalog, Config};
use crate::error::{usage, UsageError};
use crate::result::analysis::{ExplainedResults, ResultRef};
use crate::result::Kind;
use crate::session::{execute_series, Item, Request};
use crate::workload::Spec;
use clap::{ArgAction, Args};
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct Judge {
    /// Check the measurement against this disk tier or type from the catalog (P30, gp3, pd-ssd …)
    #[arg(long, value_name = "TIER")]
    pub disk: Option<String>,
    /// Disks striped together
    #[arg(long, default_value = "1", value_name = "N", value_parser = values::whole("--count", 1, 64))]
    pub count: u32,
    /// The VM size whose limit applies (D8s_v3, m5.xlarge, n2-standard-4 …)
    #[arg(long, value_name = "SIZE")]
    pub vm: Option<String>,
    /// Host cache mode: none (the VM's uncached limit), readonly or readwrite (its cached limit)
    #[arg(long = "cache", default_value = "none", value_name = "MODE", value_parser = values::cached("--cache"), action = ArgAction::Set)]
    pub cached: bool,
    /// Each disk's size in GiB, for types whose limits grow with size (gp2, pd-ssd …)
    #[arg(long, value_name = "GIB", value_parser = values::gib("--disk-size"))]
    pub disk_size: Option<f64>,
    /// Caps within this many percent of a catalog row match it
    #[arg(long, default_value = "10", value_name = "PCT", value_parser = values::tolerance("--tolerance"))]
    pub tolerance: f64,
    /// Another catalog file to add (same format as data/catalog.toml): an on-premises SAN's limits
    #[arg(long, value_name = "FILE")]
    pub catalog: Option<PathBuf>,
    /// The disks' on-demand bursting (Azure P30 and larger, billed) is enabled: count it
    #[arg(long)]
    pub on_demand_burst: bool,
}

impl Judge {
    /// The catalog, the configuration to check and the tolerance, all checked.
    pub fn read(&self) -> Result<(Catalog, Config, f64), UsageError> {
        let cat = Catalog::load(self.catalog.as_deref())?;
        let cfg = Config {
            disk: self.disk.clone(),
            count: self.count,
            vm: self.vm.clone(),
            cached: self.cached,
            size_gib: self.disk_size,
            on_demand_burst: self.on_demand_burst,
        };
        analyze::expected(&cat, &cfg)?;
        Ok((cat, cfg, self.tolerance))
    }
}

#[derive(Args, Debug, Clone)]
pub struct ExplainArgs {
    /// A file, directory or block device to sweep [default: .], or stored result ids to explain
    #[arg(value_name = "TARGET|ID")]
    pub what: Vec<String>,
    /// Time for the whole sweep
    #[arg(long, default_value = "60s", value_name = "TIME", value_parser = values::seconds("--budget"))]
    pub budget: f64,
    /// Test file size [default: 1GiB; a device's whole size]
    #[arg(long, value_name = "SIZE", value_parser = values::size("--size"))]
    pub size: Option<u64>,
    /// Reads only (writes are swept after reads unless the target is a device without --force-device)
    #[arg(long)]
    pub reads_only: bool,
    #[command(flatten)]
    pub judge: Judge,
    #[command(flatten)]
    pub common: CommonArgs,
}

/// A sweep step as the runner's series takes it.
pub fn item(s: Step) -> Item {
    Item { name: s.name, spec: s.spec, notes: Vec::new() }
}

/// Whether a sweep of `target` writes too: not with --reads-only, and on a block device only
/// with --force-device (said once on stderr).
pub fn may_write(target: &str, reads_only: bool, force_device: bool) -> bool {
    let device = crate::targets::host::is_block_device(std::path::Path::new(target));
    if device && !force_device && !reads_only {
        eprintln!("note: {target} is a block device: reads only (writes need --force-device)");
    }
    !reads_only && (!device || force_device)
}

/// Explains results named by id, label or file, as `compare` takes them: their sweeps' points
/// together.
fn explain_stored(a: &ExplainArgs, path: &std::path::Path) -> anyhow::Result<i32> {
    use crate::session::named::{key, resolve, Key};
    let (cat, cfg, tol) = a.judge.read()?;
    let format = a.common.format.value;
    let mut store = None;
    let mut keys = Vec::new();
    for w in &a.what {
        keys.push(key(w, &mut store, path)?);
    }
    // Each result is loaded once: memory follows the results named, not the times one is named.
    let keys = super::common::once(keys, |(k, _)| k.to_string());
    let mut results = Vec::new();
    for (k, w) in &keys {
        results.push(resolve(k, w, &store, path)?.1);
    }
    let e = analyze::results::explain_results(&results, &cat, &cfg, tol)?;
    match format {
        crate::report::Format::Json => {
            let results = keys
                .iter()
                .map(|(k, _)| match k {
                    Key::Id(id) => ResultRef::Id(*id),
                    Key::File(f) => ResultRef::File(f.display().to_string()),
                })
                .collect();
            let v = serde_json::to_value(ExplainedResults { analysis: e, results })?;
            println!("{}", serde_json::to_string_pretty(&v)?)
        }
        _ => print!("{}", crate::report::findings(&e)),
    }
    Ok(0)
}

pub fn main(a: ExplainArgs) -> anyhow::Result<i32> {
    let store = a.common.store.check()?.path.unwrap_or_else(crate::store::default_path);
    let is_result = |w: &String| crate::session::named::names_result(w, &store);
    if !a.what.is_empty() && a.what.iter().all(is_result) {
        return explain_stored(&a, &store);
    }
    if a.what.len() > 1 {
        let other = a.what.iter().find(|w| !is_result(w)).map_or("", String::as_str);
        return usage(
            "TARGET",
            format!(
                "explain sweeps one target or explains results (ids, labels, result files); '{other}' is no result"
            ),
        )?;
    }
    let target = a.what.first().map_or(".", String::as_str);
    crate::session::named::meant_as_new_file(target, a.size.is_some())?;
    let (cat, cfg, tol) = a.judge.read()?;
    let budget = a.budget;
    if budget < 5.0 {
        return usage("--budget", "at least 5 s: every step needs a second or more")?;
    }
    let mut base = Spec {
        targets: vec![a.what.first().cloned().unwrap_or_else(|| ".".into())],
        size: a.size.unwrap_or(1 << 30),
        size_given: a.size.is_some(),
        ..Spec::default()
    };
    a.common.apply(&mut base);
    let writes = may_write(&base.targets[0], a.reads_only, a.common.force_device);
    let output = a.common.output(None)?;
    let mut sw = Sweeper::new(base, budget, true, writes, 0);
    let envelope = vec![item(sw.step(true, 64, 1 << 20)), item(sw.step(!writes, 64, 1 << 20))];
    for i in &envelope {
        i.spec.validate()?;
    }
    let annotate = |r: &mut crate::result::RunResult| Ok(analyze::results::annotate(r, &cat, &cfg, tol)?);
    let req = Request::once(Kind::Explain, &envelope, &output);
    execute_series(&req, &mut |done| sw.next(done, std::time::Instant::now()).map(item), &annotate)
}

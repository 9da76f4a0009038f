//! `iolens cdm`: CrystalDiskMark's profiles and table, on any file system or device.

use super::values;
use crate::error::{usage, UsageError};
use crate::result::Kind;
use crate::session::{Item, Passes, Request};
use crate::workload::presets::{self, CdmOp, CdmTest};
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct CdmArgs {
    /// File, directory (a test file is made inside) or block device [default: .]
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
    /// default, nvme, peak, realworld or demo (CrystalDiskMark's profiles)
    #[arg(long, default_value = "default", value_name = "NAME", value_parser = |s: &str| presets::profile(s).map(Tests))]
    pub profile: Tests,
    /// Own test list instead of a profile: "SEQ1M Q8T1,RND4K Q32T16"
    #[arg(long, value_name = "LIST", conflicts_with = "profile", value_parser = own_tests)]
    pub tests: Option<Tests>,
    /// Also run CrystalDiskMark's mix (70 % reads, 30 % writes) for each test
    #[arg(long)]
    pub mix: bool,
    /// A first look in about half a minute (the default profile): one pass of 1 s per test, 1 s
    /// apart, on 256 MiB; options given beside it win
    #[arg(long)]
    pub quick: bool,
    /// Test file size [default: 1GiB; 256MiB with --quick]
    #[arg(long, value_name = "SIZE", value_parser = values::size("--size"))]
    pub size: Option<u64>,
    /// Measured passes per test; the best is kept [default: 3; 1 with --quick]
    #[arg(long, value_name = "N", value_parser = passes)]
    pub passes: Option<u32>,
    /// Seconds per pass [default: 5; 1 with --quick]
    #[arg(long, value_name = "SECS", value_parser = values::seconds("--time"))]
    pub time: Option<f64>,
    /// Seconds of rest between tests [default: 5; 1 with --quick]
    #[arg(long, value_name = "SECS", value_parser = values::seconds("--interval"))]
    pub interval: Option<f64>,
    /// Skip the uncounted preparing pass before each test
    #[arg(long)]
    pub no_prepare: bool,
    /// Through the page cache instead of O_DIRECT (CrystalDiskMark bypasses it)
    #[arg(long)]
    pub buffered: bool,
    #[command(flatten)]
    pub mpi: super::mpi::MpiArgs,
    #[command(flatten)]
    pub common: super::common::CommonArgs,
}

impl CdmArgs {
    /// `given`, else CrystalDiskMark's default, else with --quick the short one.
    fn or<T: Copy>(&self, given: Option<T>, default: T, quick: T) -> T {
        given.unwrap_or(if self.quick { quick } else { default })
    }
}

/// CrystalDiskMark's passes: 1 to 100.
/// CrystalDiskMark's tests, a profile's or a list's.
#[derive(Debug, Clone, PartialEq)]
pub struct Tests(pub Vec<CdmTest>);

fn own_tests(list: &str) -> Result<Tests, UsageError> {
    list.split(',').filter(|t| !t.trim().is_empty()).map(CdmTest::parse).collect::<Result<_, _>>().map(Tests)
}

fn passes(s: &str) -> Result<u32, UsageError> {
    s.parse()
        .ok()
        .filter(|n| (1..=100).contains(n))
        .ok_or_else(|| UsageError::new("--passes", format!("'{s}' is not a test count; use 1-100 passes")))
}

/// The tests of a cdm command line, in CrystalDiskMark's order: each row's read, write, mix.
pub fn items(a: &CdmArgs) -> Result<Vec<Item>, UsageError> {
    let tests: &[CdmTest] = &a.tests.as_ref().unwrap_or(&a.profile).0;
    if tests.is_empty() {
        return usage("--tests", "the list is empty; write e.g. \"SEQ1M Q8T1,RND4K Q32T16\"");
    }
    let (size, time) = (a.or(a.size, 1 << 30, 256 << 20), a.or(a.time, 5.0, 1.0));
    let base = a.common.base_spec(a.target.as_deref(), size, time, a.buffered);
    let ops: &[CdmOp] = if a.mix { &[CdmOp::Read, CdmOp::Write, CdmOp::Mix] } else { &[CdmOp::Read, CdmOp::Write] };
    let mut items = Vec::new();
    for t in tests {
        for &op in ops {
            let spec = t.spec(&base, op);
            spec.validate().map_err(|e| in_cdm_terms(e, t))?;
            items.push(Item { name: format!("{} {}", t.label(), op.name()), spec, notes: Vec::new() });
        }
    }
    Ok(items)
}

/// A spec's refusal in the words of the cdm command line: the queues and threads of a test
/// are its "Q32T16", the measured seconds its --time.
fn in_cdm_terms(e: UsageError, t: &CdmTest) -> UsageError {
    let test = t.label();
    match e.option.as_str() {
        "--qd" => UsageError::new("--tests", format!("'{test}': Q{} is more queues than 4096", t.qd)),
        "--threads" => UsageError::new("--tests", format!("'{test}': T{} is more threads than 4096", t.threads)),
        "--duration" => UsageError::new("--time", e.message),
        _ => e,
    }
}

pub fn main(a: CdmArgs) -> anyhow::Result<i32> {
    let items = items(&a)?;
    let passes = Passes { prepare: !a.no_prepare, count: a.or(a.passes, 3, 1), interval: a.or(a.interval, 5.0, 1.0) };
    let output = a.common.output(None)?;
    let req = Request { command: Kind::Cdm, items: &items, output: &output, passes: &passes };
    super::mpi::execute(&req, a.mpi.check()?)
}

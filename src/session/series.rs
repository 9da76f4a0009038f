//! A series of tests on prepared targets: each test measured once or in passes (CrystalDiskMark
//! keeps the best), with a pause between tests, until the series ends or Ctrl-C. How a test is
//! measured and which pass is kept is the runner's: on one host, or agreed among MPI ranks.

use super::{Item, Passes};
use crate::result::TestResult;
use crate::targets;
use crate::workload::Spec;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Measures one test on the targets: `run::run_test`, or that with the ranks of an MPI run
/// started together.
pub type Measure<'a> = &'a mut dyn FnMut(&Spec, &mut [targets::Prepared]) -> anyhow::Result<TestResult>;

/// Which of a test's passes to keep (an index into them).
pub type Choose<'a> = &'a mut dyn FnMut(&[TestResult]) -> anyhow::Result<usize>;

/// How a series measures each test and picks among its passes.
pub struct Runner<'a> {
    pub measure: Measure<'a>,
    pub choose: Choose<'a>,
}

/// CrystalDiskMark keeps the best pass: a complete one before an interrupted one, then the
/// most MB/s. `passes`: (complete, MB/s) of each.
pub fn best_pass(passes: &[(bool, f64)]) -> usize {
    (0..passes.len())
        .max_by(|&a, &b| passes[a].partial_cmp(&passes[b]).unwrap_or(std::cmp::Ordering::Equal))
        .unwrap_or(0)
}

/// (complete, MB/s) of each pass, as `best_pass` takes them.
pub fn pass_keys(runs: &[TestResult]) -> Vec<(bool, f64)> {
    runs.iter().map(|t| (!t.interrupted, t.total.mbps)).collect()
}

/// The series' tests; on an error, the tests completed before it and the error.
pub fn run_items(
    next: &mut dyn FnMut(&[TestResult]) -> Option<Item>,
    targets: &mut [targets::Prepared],
    interrupt: &AtomicBool,
    progress: bool,
    passes: &Passes,
    runner: Runner,
) -> (Vec<TestResult>, anyhow::Result<()>) {
    let Runner { measure, choose } = runner;
    let mut tests = Vec::new();
    let mut run = || -> anyhow::Result<()> {
        for k in 0.. {
            if interrupt.load(Ordering::Relaxed) {
                break;
            }
            let Some(item) = next(&tests) else { break };
            super::check_memory(&item.spec, targets.len())?;
            if k > 0 && passes.interval > 0.0 {
                pause(passes.interval, interrupt);
            }
            targets::reopen_for(&item.spec, targets)?;
            if passes.prepare {
                if progress {
                    eprintln!("{}: preparing pass (not counted)", item.name);
                }
                measure(&item.spec, targets)?;
            }
            let mut runs: Vec<TestResult> = Vec::new();
            while runs.len() < passes.count.max(1) as usize && !interrupt.load(Ordering::Relaxed) {
                runs.push(measure(&item.spec, targets)?);
            }
            if runs.is_empty() {
                continue;
            }
            let best = choose(&runs)?;
            tests.push(kept(runs, best, &item));
        }
        Ok(())
    };
    let r = run();
    (tests, r)
}

/// The pass kept, named for its item, with the item's notes and, where there were several
/// passes, a line per pass.
fn kept(mut runs: Vec<TestResult>, best: usize, item: &Item) -> TestResult {
    let lines: Vec<String> = if runs.len() > 1 {
        runs.iter()
            .enumerate()
            .map(|(i, t)| {
                let kept = if i == best { " (kept)" } else { "" };
                format!("pass {}: {:.2} MB/s, {:.0} IOPS{kept}", i + 1, t.total.mbps, t.total.iops)
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut t = runs.swap_remove(best);
    t.name = item.name.clone();
    t.notices.splice(0..0, item.notes.iter().cloned());
    t.notices.extend(lines);
    t
}

/// CrystalDiskMark's interval between tests, cut short by Ctrl-C.
fn pause(secs: f64, interrupt: &AtomicBool) {
    let until = std::time::Instant::now() + Duration::from_secs_f64(secs);
    while std::time::Instant::now() < until && !interrupt.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
    }
}

//! fio's entries under `group_reporting`: a job that has it joins the entry before it when
//! both are of one group (fio's stat.c), which keeps the first job's name and reports the
//! group's I/Os, throughput and merged latencies as one job's.

use crate::result::{RunResult, TestResult};
use std::borrow::Cow;

fn group_reporting(t: &TestResult) -> bool {
    t.options.iter().any(|(k, v)| k == "group_reporting" && v != "0")
}

/// The run as fio reports it: untouched unless some job's entry joins the one before it.
pub fn entries(r: &RunResult) -> Cow<'_, RunResult> {
    let mut groups: Vec<Vec<&TestResult>> = Vec::new();
    for t in &r.tests {
        match groups.last_mut() {
            Some(g) if group_reporting(t) && g[0].group == t.group => g.push(t),
            _ => groups.push(vec![t]),
        }
    }
    if groups.len() == r.tests.len() {
        return Cow::Borrowed(r);
    }
    let tests = groups.into_iter().map(|g| if g.len() == 1 { g[0].clone() } else { merge(&g) }).collect();
    Cow::Owned(RunResult { tests, ..r.clone() })
}

/// The jobs of one entry as one: the I/Os and histograms as ranks of a run merge, the first
/// job's options (as fio's entry shows them), each job's notices and verification kept.
fn merge(jobs: &[&TestResult]) -> TestResult {
    let all: Vec<TestResult> = jobs.iter().map(|t| (*t).clone()).collect();
    let mut one = crate::cluster::combine::combine(&all).expect("a group has a job");
    one.spec.targets.dedup();
    one.ranks.clear();
    one.notices = Vec::new();
    for n in jobs.iter().flat_map(|t| &t.notices) {
        if !one.notices.contains(n) {
            one.notices.push(n.clone());
        }
    }
    one.verify = None;
    for v in jobs.iter().filter_map(|t| t.verify.clone()) {
        match &mut one.verify {
            Some(m) => m.merge(v),
            None => one.verify = Some(v),
        }
    }
    one.failed = jobs.iter().find_map(|t| t.failed.clone());
    one
}

//! Side by side: tests matched across results by what they ran (so CrystalDiskMark's
//! "SEQ1M Q8T1 Read" meets `run --rw read --bs 1M --qd 8`), one row per test and operation, and
//! the verdicts users write by hand: `≈` within the tolerance, `<`/`>` below 2×, then one sign per factor
//! (`<<` 2×, `<<<` 3×, `<<<<<` 5×).

use crate::result::{OpStats, RunResult, TestResult};
use crate::workload::size::format_block;
use crate::workload::{Pattern, Spec};
use serde::Serialize;

/// What makes two tests the same test, written as CrystalDiskMark users write it.
pub fn test_key(s: &Spec) -> String {
    let kind = if s.pattern == Pattern::Sequential { "SEQ" } else { "RND" };
    let split = |blocks: &[crate::workload::BlockShare]| {
        if blocks.len() == 1 {
            format_block(blocks[0].size)
        } else {
            blocks.iter().map(|b| format!("{}/{}", format_block(b.size), b.pct)).collect::<Vec<_>>().join(":")
        }
    };
    // Reads' blocks, then writes' where they differ, as fio writes them: 4K,64K.
    let bs = match &s.write_blocks {
        Some(w) => format!("{},{}", split(&s.blocks), split(w)),
        None => split(&s.blocks),
    };
    let op = match s.read_pct {
        100 => "Read".to_string(),
        0 => "Write".to_string(),
        p => format!("Mix{p}"),
    };
    format!("{kind}{bs} Q{}T{} {op}", s.qd, s.threads)
}

/// One row: a test's operation in every result (None where a result lacks the test).
pub struct Row<'a> {
    pub key: String,
    pub op: &'static str,
    pub cells: Vec<Option<&'a OpStats>>,
}

/// Rows in the order tests first appear; a test found in only one result still has its row.
pub fn rows<'a>(results: &'a [RunResult]) -> Vec<Row<'a>> {
    let mut keys: Vec<String> = Vec::new();
    for r in results {
        for t in &r.tests {
            let k = test_key(&t.spec);
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    let mut out = Vec::new();
    for k in keys {
        let found: Vec<Option<&TestResult>> =
            results.iter().map(|r| r.tests.iter().find(|t| test_key(&t.spec) == k)).collect();
        let sample = found.iter().flatten().next().expect("a key comes from some test").spec.read_pct;
        let ops: &[&'static str] = match sample {
            100 => &["read"],
            0 => &["write"],
            _ => &["read", "write", "total"],
        };
        for &op in ops {
            let cells = found
                .iter()
                .map(|t| {
                    t.map(|t| match op {
                        "read" => &t.read,
                        "write" => &t.write,
                        _ => &t.total,
                    })
                })
                .collect();
            out.push(Row { key: k.clone(), op, cells });
        }
    }
    out
}

/// A comparison, ready for any report: who is compared, one row per test and operation with
/// every result's figures and verdict against the baseline, and what some results lack.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub results: Vec<Side>,
    /// Index into `results` of the one the verdicts compare with.
    pub baseline: usize,
    /// Differences within this fraction (0.10 = ±10 %) are `≈`.
    pub same: f64,
    pub rows: Vec<CmpRow>,
    /// "RND4K Q32T16 Read is not in #7 vSphere, #9 Azure", one line per test some lack.
    pub missing: Vec<String>,
    /// "#7 vSphere and #9 Azure came from different iolens builds: …"; absent when one build
    /// made them all (results that record none count as their version alone).
    pub builds: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Side {
    /// What heads its columns: the label, the id, or the file name.
    pub name: String,
    pub host: String,
    pub vm: Option<String>,
    pub command: String,
    pub target: Option<String>,
    pub started_at: String,
    /// "0.1.0 (commit 04f0e97c1a2b, x86_64-unknown-linux-musl, built 2026-11-27)".
    pub build: String,
    /// The run was cut short (Ctrl-C): its figures cover what was measured.
    pub interrupted: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CmpRow {
    /// "SEQ1M Q8T1 Read", or "RND4K Q1T1 Mix70 read" for an operation of a mix.
    pub test: String,
    pub op: &'static str,
    /// One per result; None where the result lacks the test.
    pub cells: Vec<Option<Cell>>,
    /// One per result: the verdict of its IOPS against the baseline's (None for the baseline,
    /// "-" where either lacks the test).
    pub verdicts: Vec<Option<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Cell {
    pub iops: f64,
    /// 10^6 B/s.
    pub mbps: f64,
    pub p50_us: Option<f64>,
    pub p99_us: Option<f64>,
}

/// Compares `results` (named `names`) with the one at `base`; `same` is the ≈ tolerance.
pub fn compare(results: &[RunResult], names: &[String], base: usize, same: f64) -> Comparison {
    let sides: Vec<Side> = names
        .iter()
        .zip(results)
        .map(|(n, r)| Side {
            name: n.clone(),
            host: crate::result::ranks::who(&r.tests, &r.host.hostname),
            vm: r.host.vm_product.clone(),
            command: r.command.clone(),
            target: r.host.targets.first().map(|t| t.path.clone()),
            started_at: r.started_at.clone(),
            build: crate::result::build::describe(&r.iolens_version, r.build.as_ref()),
            interrupted: r.interrupted,
        })
        .collect();
    let builds = different_builds(&sides);
    let mut missing: Vec<(String, String)> = Vec::new();
    let folded: Vec<RunResult> = results.iter().map(fold_clones).collect();
    let rows = rows(&folded)
        .into_iter()
        .map(|row| {
            // A mix has a row per operation; a pure read or write test is its own operation.
            let test = if row.key.contains(" Mix") { format!("{} {}", row.key, row.op) } else { row.key.clone() };
            let cells: Vec<Option<Cell>> = row
                .cells
                .iter()
                .map(|c| {
                    c.map(|s| Cell {
                        iops: s.iops,
                        mbps: s.mbps,
                        p50_us: s.lat_us.percentiles.get("50"),
                        p99_us: s.lat_us.percentiles.get("99"),
                    })
                })
                .collect();
            let lacking: Vec<&str> =
                cells.iter().zip(names).filter(|(c, _)| c.is_none()).map(|(_, n)| n.as_str()).collect();
            let lacking = lacking.join(", ");
            if !lacking.is_empty() && !missing.iter().any(|(k, l)| *k == row.key && *l == lacking) {
                missing.push((row.key.clone(), lacking));
            }
            let verdicts = (0..cells.len())
                .map(|i| {
                    (i != base).then(|| match (cells[i], cells[base]) {
                        (Some(s), Some(b)) => verdict(s.iops, b.iops, same),
                        _ => "-".into(),
                    })
                })
                .collect();
            CmpRow { test, op: row.op, cells, verdicts }
        })
        .collect();
    Comparison { results: sides, baseline: base, same, rows, missing: lacking(missing), builds }
}

/// The tests some results lack, one line per set of results lacking them: the table marks each
/// cell already, so many tests make one line that names a few of them.
fn lacking(missing: Vec<(String, String)>) -> Vec<String> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (test, who) in missing {
        match groups.iter_mut().find(|(w, _)| *w == who) {
            Some((_, tests)) => tests.push(test),
            None => groups.push((who, vec![test])),
        }
    }
    groups
        .into_iter()
        .flat_map(|(who, tests)| match tests.len() {
            1 | 2 => tests.into_iter().map(|t| format!("{t} is not in {who}")).collect::<Vec<_>>(),
            n => vec![format!("{n} tests are not in {who} (marked in the table): {}, …", tests[..2].join(", "))],
        })
        .collect()
}

/// One line naming each result's build, when they are not all the same: a difference between
/// them may be the program's, not the disks'.
fn different_builds(sides: &[Side]) -> Option<String> {
    let first = &sides.first()?.build;
    if sides.iter().all(|s| &s.build == first) {
        return None;
    }
    let each: Vec<String> = sides.iter().map(|s| format!("{} {}", s.name, s.build)).collect();
    Some(format!("different iolens builds made these results: {}", each.join("; ")))
}

/// The users' notation for `value` against `base` (higher is better): `≈` within `same`
/// (0.10 = ±10 %), `>`/`<` below 2×, and from 2× one sign per whole factor.
pub fn verdict(value: f64, base: f64, same: f64) -> String {
    if !(value > 0.0 && base > 0.0) {
        return "?".into();
    }
    let (ratio, sign) = if value >= base { (value / base, '>') } else { (base / value, '<') };
    if ratio <= 1.0 + same {
        return "≈".into();
    }
    let n = if ratio < 2.0 { 1 } else { ratio.floor() as usize };
    // Past nine signs nobody counts them: nine, then the factor.
    if n > 9 {
        return format!("{} {n}×", sign.to_string().repeat(9));
    }
    sign.to_string().repeat(n)
}

/// A fio job's numjobs clones, which ran and were stored as tests of one name in one group
/// (fio's entries without group_reporting), compare as the one job they are, as fio's own
/// entries do when imported: I/Os and throughput summed, latency from their merged histograms.
pub fn fold_clones(r: &RunResult) -> RunResult {
    let mut tests = Vec::new();
    for (i, t) in r.tests.iter().enumerate() {
        let key = (t.name.as_str(), t.group);
        let clones: Vec<TestResult> =
            r.tests.iter().filter(|c| !c.options.is_empty() && (c.name.as_str(), c.group) == key).cloned().collect();
        if clones.len() < 2 {
            tests.push(t.clone());
        } else if r.tests.iter().position(|c| !c.options.is_empty() && (c.name.as_str(), c.group) == key) == Some(i) {
            let Some(mut one) = crate::cluster::combine::combine(&clones) else { continue };
            one.spec.threads = clones.iter().map(|c| c.spec.threads).sum();
            one.spec.targets.dedup();
            one.ranks.clear();
            tests.push(one);
        }
    }
    RunResult { tests, ..r.clone() }
}

#[cfg(test)]
mod tests;

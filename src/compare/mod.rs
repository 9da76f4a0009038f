//! Side by side: tests matched across results by what they ran (so CrystalDiskMark's
//! "SEQ1M Q8T1 Read" meets `run --rw read --bs 1M --qd 8`), one row per test and operation, and
//! the seeds' verdicts: `≈` within the tolerance, `<`/`>` below 2×, then one sign per factor
//! (`<<` 2×, `<<<` 3×, `<<<<<` 5×).

use crate::result::{OpStats, RunResult, TestResult};
use crate::spec::size::format_block;
use crate::spec::{Pattern, Spec};

/// What makes two tests the same test, written as CrystalDiskMark users write it.
pub fn test_key(s: &Spec) -> String {
    let kind = if s.pattern == Pattern::Sequential { "SEQ" } else { "RND" };
    let bs = if s.blocks.len() == 1 {
        format_block(s.blocks[0].size)
    } else {
        s.blocks.iter().map(|b| format!("{}/{}", format_block(b.size), b.pct)).collect::<Vec<_>>().join(":")
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

/// The seeds' notation for `value` against `base` (higher is better): `≈` within `same`
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
    sign.to_string().repeat(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_at_their_edges() {
        assert_eq!(verdict(110.0, 100.0, 0.10), "≈");
        assert_eq!(verdict(90.91, 100.0, 0.10), "≈");
        assert_eq!(verdict(111.0, 100.0, 0.10), ">");
        assert_eq!(verdict(199.0, 100.0, 0.10), ">");
        assert_eq!(verdict(200.0, 100.0, 0.10), ">>");
        assert_eq!(verdict(50.0, 100.0, 0.10), "<<");
        assert_eq!(verdict(300.0, 100.0, 0.10), ">>>");
        assert_eq!(verdict(20.0, 100.0, 0.10), "<<<<<");
        assert_eq!(verdict(105.0, 100.0, 0.02), ">");
        assert_eq!(verdict(0.0, 100.0, 0.10), "?");
    }

    #[test]
    fn cdm_and_run_name_the_same_test_alike() {
        use crate::spec::presets::{CdmOp, CdmTest};
        let cdm = CdmTest::parse("SEQ1M Q8T1").unwrap().spec(&Spec::default(), CdmOp::Read);
        let run = Spec {
            pattern: Pattern::Sequential,
            blocks: vec![crate::spec::BlockShare { size: 1 << 20, pct: 100 }],
            qd: 8,
            read_pct: 100,
            ..Spec::default()
        };
        assert_eq!(test_key(&cdm), "SEQ1M Q8T1 Read");
        assert_eq!(test_key(&run), test_key(&cdm));
        let mix = Spec { read_pct: 70, ..Spec::default() };
        assert_eq!(test_key(&mix), "RND4K Q1T1 Mix70");
    }
}

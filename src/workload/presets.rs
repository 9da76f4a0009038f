//! CrystalDiskMark's tests and profiles, as its users name them: "SEQ1M Q8T1" is sequential
//! 1 MiB blocks, 8 outstanding I/Os, 1 thread; "RND4K Q32T16" is random 4 KiB, 32 outstanding
//! on each of 16 threads.

use super::size::{format_block, parse_size};
use super::{BlockShare, Pattern, Spec};
use crate::error::{usage, UsageError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CdmTest {
    pub sequential: bool,
    pub block: u64,
    pub qd: u32,
    pub threads: u32,
}

/// The operations of a CDM row: read, write and (with --mix) CDM's R70/W30 mix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CdmOp {
    Read,
    Write,
    Mix,
}

impl CdmOp {
    pub fn name(self) -> &'static str {
        match self {
            CdmOp::Read => "Read",
            CdmOp::Write => "Write",
            CdmOp::Mix => "Mix",
        }
    }
}

pub const PROFILES: [(&str, &[&str]); 5] = [
    ("default", &["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"]),
    ("nvme", &["SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1"]),
    ("peak", &["SEQ1M Q8T1", "RND4K Q32T1"]),
    ("realworld", &["SEQ1M Q1T1", "RND4K Q1T1"]),
    ("demo", &["SEQ1M Q8T1"]),
];

impl CdmTest {
    /// "SEQ1M Q8T1", "RND4K Q32T16", "SEQ128K Q32T1" (case-insensitive, one space).
    pub fn parse(s: &str) -> Result<CdmTest, UsageError> {
        const OPT: &str = "--tests";
        let bad = || usage(OPT, format!("'{s}' is not a CrystalDiskMark test; write e.g. SEQ1M Q8T1 or RND4K Q32T16"));
        let up = s.trim().to_ascii_uppercase();
        let Some((kind, qt)) = up.split_once(' ') else { return bad() };
        let (sequential, bs) = if let Some(b) = kind.strip_prefix("SEQ") {
            (true, b)
        } else if let Some(b) = kind.strip_prefix("RND") {
            (false, b)
        } else {
            return bad();
        };
        let Some(block) = parse_size(bs).filter(|b| *b >= 512 && b % 512 == 0) else { return bad() };
        let Some((q, t)) = qt.trim().strip_prefix('Q').and_then(|r| r.split_once('T')) else { return bad() };
        let (Ok(qd), Ok(threads)) = (q.parse::<u32>(), t.parse::<u32>()) else { return bad() };
        if qd == 0 || threads == 0 {
            return bad();
        }
        Ok(CdmTest { sequential, block, qd, threads })
    }

    pub fn label(&self) -> String {
        format!(
            "{}{} Q{}T{}",
            if self.sequential { "SEQ" } else { "RND" },
            format_block(self.block),
            self.qd,
            self.threads
        )
    }

    /// The spec of one operation of this test, on top of the command's common settings.
    pub fn spec(&self, base: &Spec, op: CdmOp) -> Spec {
        Spec {
            blocks: vec![BlockShare { size: self.block, pct: 100 }],
            pattern: if self.sequential { Pattern::Sequential } else { Pattern::Random },
            read_pct: match op {
                CdmOp::Read => 100,
                CdmOp::Write => 0,
                CdmOp::Mix => 70,
            },
            qd: self.qd,
            threads: self.threads,
            ..base.clone()
        }
    }
}

pub fn profile(name: &str) -> Result<Vec<CdmTest>, UsageError> {
    match PROFILES.iter().find(|(n, _)| *n == name.to_ascii_lowercase()) {
        Some((_, tests)) => tests.iter().map(|t| CdmTest::parse(t)).collect(),
        None => usage("--profile", format!("'{name}' is not a profile; use default, nvme, peak, realworld or demo")),
    }
}

#[cfg(test)]
mod tests;

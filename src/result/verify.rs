//! What data verification found: one `Finding` per bad page or log record, in the classes
//! a DBA can act on. Stored schema (SQLite and JSON, docs/result-schema.md); `verify` computes
//! it and owns none of it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a read did not return what was last written there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingClass {
    /// A unit's checksum does not match its contents (bit rot, a damaged transfer).
    Corrupt,
    /// The units of one page come from different writes: the write was not atomic.
    Torn,
    /// A valid page older than the last acknowledged write: the write was lost.
    Stale,
    /// A valid page stamped with another address or file: written to, or read from, the
    /// wrong place.
    Misdirected,
    /// The read reported success but left the buffer as it was before the read.
    NeverRead,
    /// A log record missing, out of order or damaged in the LSN chain.
    Log,
}

impl FindingClass {
    pub const ALL: [FindingClass; 6] = [
        FindingClass::Corrupt,
        FindingClass::Torn,
        FindingClass::Stale,
        FindingClass::Misdirected,
        FindingClass::NeverRead,
        FindingClass::Log,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FindingClass::Corrupt => "corrupt",
            FindingClass::Torn => "torn",
            FindingClass::Stale => "stale",
            FindingClass::Misdirected => "misdirected",
            FindingClass::NeverRead => "never_read",
            FindingClass::Log => "log",
        }
    }

    pub fn parse(s: &str) -> Option<FindingClass> {
        FindingClass::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

impl fmt::Display for FindingClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One bad page (or log record) as first read, and what re-reading it showed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The file as given to iolens.
    pub file: String,
    /// Byte offset of the page (or log record) in the file.
    pub offset: u64,
    /// Bytes checked: the page or record size.
    pub len: u32,
    pub class: FindingClass,
    /// The generation last acknowledged for this page (for log records: the LSN expected).
    pub expected_gen: u64,
    /// The generation found in the first bad unit, when it carried a valid stamp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_gen: Option<u64>,
    /// The address the bad unit claims to belong to, when it carried a valid stamp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_offset: Option<u64>,
    /// The file number the bad unit claims to belong to, when it differs from this file's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_file: Option<u32>,
    /// Offset inside the page of the first byte that differs from what was expected.
    pub diff_at: u32,
    /// Up to 16 bytes from `diff_at`, expected then found, as hex ("expected … / found …").
    pub diff: String,
    /// Re-reads done after the first bad read.
    pub rereads: u32,
    /// Re-reads that were bad again: equal to `rereads` for a persistent fault, fewer for a
    /// transient one.
    pub bad_rereads: u32,
    /// Seconds since the run started.
    pub at_s: f64,
}

impl Finding {
    /// Every re-read was bad too: the data on the medium (or the path to it) is wrong, not
    /// one transfer.
    pub fn persistent(&self) -> bool {
        self.bad_rereads == self.rereads
    }
}

/// How a test's data was checked, and what was found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Verification {
    /// Bytes per stamped unit (512, or the device's logical block size).
    pub unit: u32,
    /// Bytes per page: the unit of writes, claims and findings.
    pub page: u32,
    /// Stamped pages acknowledged as written.
    pub pages_written: u64,
    /// Pages read back and checked.
    pub pages_checked: u64,
    /// Re-reads done of each bad page to tell transient faults from persistent ones.
    pub rereads: u32,
    /// Each bad page or log record, in the order found (at most `MAX_FINDINGS`).
    pub findings: Vec<Finding>,
    /// Findings beyond `MAX_FINDINGS`, counted but not kept.
    #[serde(default)]
    pub findings_dropped: u64,
    /// The random number every stamp of this run carries, so pages from earlier runs are told
    /// apart from this one's.
    #[serde(default)]
    pub run_id: u64,
    /// Faults a self-test injected (`run --inject`), to compare with the findings per class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub injected: Option<Injected>,
}

/// Faults injected by kind. Each is meant to be found as one class: lost → stale, torn → torn,
/// misdirect → misdirected, bitflip → corrupt, unread → never_read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Injected {
    pub lost: u64,
    pub torn: u64,
    pub misdirect: u64,
    pub bitflip: u64,
    pub unread: u64,
}

impl Injected {
    /// (kind, count, the class it is found as).
    pub fn by_kind(&self) -> [(&'static str, u64, FindingClass); 5] {
        [
            ("lost", self.lost, FindingClass::Stale),
            ("torn", self.torn, FindingClass::Torn),
            ("misdirect", self.misdirect, FindingClass::Misdirected),
            ("bitflip", self.bitflip, FindingClass::Corrupt),
            ("unread", self.unread, FindingClass::NeverRead),
        ]
    }

    pub fn add(&mut self, o: &Injected) {
        self.lost += o.lost;
        self.torn += o.torn;
        self.misdirect += o.misdirect;
        self.bitflip += o.bitflip;
        self.unread += o.unread;
    }
}

/// Findings kept per test: a disk that loses everything should not fill the store.
pub const MAX_FINDINGS: usize = 10_000;

impl Verification {
    /// Records a finding, or counts it once `MAX_FINDINGS` are kept.
    pub fn add(&mut self, f: Finding) {
        if self.findings.len() < MAX_FINDINGS {
            self.findings.push(f);
        } else {
            self.findings_dropped += 1;
        }
    }

    pub fn clean(&self) -> bool {
        self.findings.is_empty() && self.findings_dropped == 0
    }

    /// Adds another worker's verification of the same test.
    pub fn merge(&mut self, o: Verification) {
        self.pages_written += o.pages_written;
        self.pages_checked += o.pages_checked;
        self.findings_dropped += o.findings_dropped;
        for f in o.findings {
            self.add(f);
        }
        if let Some(i) = o.injected {
            self.injected.get_or_insert_with(Injected::default).add(&i);
        }
    }
}

/// Findings counted by class, for summaries and verdicts.
pub fn counts(findings: &[Finding]) -> [(FindingClass, usize); 6] {
    FindingClass::ALL.map(|c| (c, findings.iter().filter(|f| f.class == c).count()))
}

#[cfg(test)]
mod tests;

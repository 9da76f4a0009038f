//! Data verification as part of a workload (`run --verify`, fio's `verify=`): what is checked
//! and when, and the faults a self-test injects (`--inject`).

use crate::error::{usage, UsageError};
use serde::{Deserialize, Serialize};

/// The smallest unit a stamp fits in with room for filler: a verified page is a whole number
/// of them.
pub const MIN_UNIT: usize = 512;

/// How a workload's data is checked. Every write carries stamps (see `verify::stamp`); every
/// read is checked against the last acknowledged write of its page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerifySpec {
    /// Re-reads of a bad page, to tell a transient fault from a persistent one.
    pub rereads: u32,
    /// Read each written page back after this many further writes of its worker (fio's
    /// `verify_backlog`); 0 = only the workload's own reads (and, for a pure write workload,
    /// the read-back pass at its end) check.
    #[serde(default)]
    pub backlog: u32,
    /// Stop at the first finding (fio's `verify_fatal`).
    #[serde(default)]
    pub fatal: bool,
    /// Read every page back at the end of a pure write workload (fio's `do_verify`).
    #[serde(default = "yes")]
    pub read_back: bool,
    /// Faults to inject below the runner (a self-test of detection).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inject: Option<Inject>,
    /// The read-backs after the workload (the backlog's last pages, do_verify's pass) count
    /// as the test's reads, as fio counts its verify phase; iolens' own runs keep them apart.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub count_read_backs: bool,
    /// fio's verify options beyond the checker's own (absent for iolens' runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fio: Option<AsFio>,
    /// fio's verify=pattern: blocks hold this pattern instead of stamps, written and checked
    /// byte for byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<PatternFill>,
}

/// A pattern blocks are filled with from their first byte: `bytes` repeated, the block's
/// offset (8 bytes, little-endian) at each of `offsets` in every copy, the whole restarting
/// every `interval` bytes with that interval's offset (0: once per block).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatternFill {
    pub bytes: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offsets: Vec<usize>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub interval: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What fio's verify options ask beyond the checks themselves: how many backlogged pages are
/// read back at once, whether a page's write generation is checked, the job's writes walked
/// but not issued (verify_only), dumps of bad blocks and the saved write state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AsFio {
    /// fio's checksum name, for its messages.
    pub method: String,
    /// Pages read back each time the backlog is full (fio's verify_backlog_batch); 0: all.
    #[serde(default)]
    pub backlog_batch: u32,
    /// Check that a page holds its last write, not an older one (fio's verify_write_sequence).
    #[serde(default)]
    pub sequence: bool,
    /// Nothing is written: the pages are read and checked against what is on the medium.
    #[serde(default)]
    pub only: bool,
    /// The job wrote before verify_only made it read: fio counts the writes it walked.
    #[serde(default)]
    pub walked_writes: bool,
    /// A bad block is written to FILE.OFFSET.received and .expected (fio's verify_dump).
    #[serde(default)]
    pub dump: bool,
    /// fio's verify_state_save and verify_state_load.
    #[serde(default)]
    pub state_save: bool,
    /// fio's verify_policy=fsynced: the state counts only the writes an fsync covered.
    #[serde(default)]
    pub fsynced: bool,
    #[serde(default)]
    pub state_load: bool,
    /// Bytes each stamp covers (fio's verify_interval); 0: the logical block.
    #[serde(default)]
    pub interval: u32,
    /// fio's --aux-path: where the state and the dumps go (else the current directory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aux: Option<String>,
    /// The job's state file, fio's `local-NAME-INDEX-verify.state` (saved to or loaded from).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_file: Option<String>,
    /// fio's job index, as its state records it.
    #[serde(default)]
    pub index: u64,
}

impl Default for VerifySpec {
    fn default() -> Self {
        VerifySpec {
            rereads: 3,
            backlog: 0,
            fatal: false,
            read_back: true,
            inject: None,
            count_read_backs: false,
            fio: None,
            pattern: None,
        }
    }
}

fn yes() -> bool {
    true
}

/// Fractions of the eligible I/Os that get each fault: lost and torn apply to writes;
/// misdirect, bitflip and unread to reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Inject {
    /// The write is acknowledged but not done.
    pub lost: f64,
    /// Only the first half of the page is written.
    pub torn: f64,
    /// The read is done at a neighbouring page's offset.
    pub misdirect: f64,
    /// One bit of the data read is flipped.
    pub bitflip: f64,
    /// The read is acknowledged without transferring anything.
    pub unread: f64,
}

pub const INJECT_KINDS: [&str; 5] = ["lost", "torn", "misdirect", "bitflip", "unread"];

impl Inject {
    pub fn rate(&self, kind: &str) -> f64 {
        match kind {
            "lost" => self.lost,
            "torn" => self.torn,
            "misdirect" => self.misdirect,
            "bitflip" => self.bitflip,
            "unread" => self.unread,
            _ => 0.0,
        }
    }

    fn rate_mut(&mut self, kind: &str) -> Option<&mut f64> {
        Some(match kind {
            "lost" => &mut self.lost,
            "torn" => &mut self.torn,
            "misdirect" => &mut self.misdirect,
            "bitflip" => &mut self.bitflip,
            "unread" => &mut self.unread,
            _ => return None,
        })
    }
}

/// `lost:0.01,torn:0.005`: each kind once, each rate a fraction; the rates of one side (writes:
/// lost + torn; reads: misdirect + bitflip + unread) add up to at most 1.
pub fn parse_inject(s: &str) -> Result<Inject, UsageError> {
    const OPT: &str = "--inject";
    const HELP: &str =
        "write KIND:RATE,… with KIND lost, torn, misdirect, bitflip or unread and RATE a fraction (0.01 = 1 %)";
    let mut out = Inject::default();
    let mut seen = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((kind, rate)) = part.split_once(':') else {
            return usage(OPT, format!("'{part}' has no rate; {HELP}"));
        };
        let kind = kind.trim();
        if seen.contains(&kind) {
            return usage(OPT, format!("'{kind}' is given twice"));
        }
        let Some(slot) = out.rate_mut(kind) else {
            return usage(OPT, format!("'{kind}' is not a fault; {HELP}"));
        };
        match rate.trim().parse::<f64>() {
            Ok(r) if (0.0..=1.0).contains(&r) => *slot = r,
            _ => return usage(OPT, format!("rate '{rate}' of {kind} is not a fraction from 0 to 1")),
        }
        seen.push(kind);
    }
    if seen.is_empty() {
        return usage(OPT, format!("'{s}' names no fault; {HELP}"));
    }
    if out.lost + out.torn > 1.0 || out.misdirect + out.bitflip + out.unread > 1.0 {
        return usage(
            OPT,
            "the rates of writes (lost, torn) and of reads (misdirect, bitflip, unread) must each add up to at most 1",
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests;

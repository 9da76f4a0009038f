//! Classifies a page read back against what was last acknowledged there. The clean path
//! allocates nothing; only a bad page builds its diff.

use super::stamp::{self, Stamp, Unit};
use crate::result::verify::{Finding, FindingClass};
use std::fmt::Write;

/// What a page should hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expect {
    pub run_id: u64,
    pub file_id: u32,
    /// Byte offset of the page's first unit.
    pub address: u64,
    /// The generation of the last acknowledged write.
    pub generation: u64,
    /// Writes issued after it but never acknowledged (a crash, an I/O error): any of the
    /// generations `generation + 1 ..= generation + pending` may be on the medium, whole or in
    /// part, and none of that is a finding.
    pub pending: u64,
}

/// A page that is not what was acknowledged, with what was found instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bad {
    pub class: FindingClass,
    pub found_gen: Option<u64>,
    pub found_offset: Option<u64>,
    /// Set when the stamp names another file.
    pub found_file: Option<u32>,
    /// First byte, inside the page, that differs from the expected contents.
    pub diff_at: u32,
    /// Up to 16 bytes from `diff_at`: "expected HEX / found HEX".
    pub diff: String,
}

/// Checks `page` (read from `e.address`, units of `unit` bytes). `None`: it holds what was
/// acknowledged (or an unacknowledged write that may have landed).
///
/// One class per page, the most basic fault first: a unit the read never filled, then a unit
/// whose checksum fails, then one stamped for another place, then a unit newer than anything
/// iolens wrote or had in flight (corrupt: no write produced it), then a page where the last
/// write landed in part (torn), then one where it left no trace at all (stale, a lost write),
/// even if what is there instead mixes older writes: a lost write over a page an earlier
/// write tore is the lost write's finding (the tear was found when that page was read).
pub fn check_page(page: &[u8], unit: usize, e: &Expect) -> Option<Bad> {
    let mut landed = false;
    let mut older = None;
    let mut newer = None;
    let mut worst: Option<(FindingClass, usize, Option<Stamp>)> = None;
    let mut note = |class: FindingClass, i: usize, s: Option<Stamp>| {
        if worst.is_none_or(|(c, _, _)| rank(class) < rank(c)) {
            worst = Some((class, i, s));
        }
    };
    for (i, u) in page.chunks(unit).enumerate() {
        let address = e.address + (i * unit) as u64;
        match stamp::read_unit(u) {
            Unit::Unread => note(FindingClass::NeverRead, i, None),
            Unit::Corrupt => note(FindingClass::Corrupt, i, None),
            Unit::Valid(s) if s.file_id != e.file_id || s.address != address => {
                note(FindingClass::Misdirected, i, Some(s))
            }
            Unit::Valid(s) => {
                let g = if s.run_id == e.run_id { s.generation } else { u64::MIN };
                if g < e.generation {
                    older = older.or(Some((i, s)));
                } else if g - e.generation > e.pending {
                    newer = newer.or(Some((i, s)));
                } else {
                    landed = true;
                }
            }
        }
    }
    if worst.is_none() {
        worst = match (newer, older) {
            (Some((i, s)), _) => Some((FindingClass::Corrupt, i, Some(s))),
            (None, Some((i, s))) => Some((if landed { FindingClass::Torn } else { FindingClass::Stale }, i, Some(s))),
            (None, None) => None,
        };
    }
    let (class, i, s) = worst?;
    Some(describe(page, unit, e, class, i, s))
}

impl Bad {
    /// The finding this bad page makes: `rereads` done after the first bad read, and how many
    /// of them were bad again.
    pub fn finding(
        self,
        file: String,
        offset: u64,
        len: u32,
        expected_gen: u64,
        rereads: (u32, u32),
        at_s: f64,
    ) -> Finding {
        Finding {
            file,
            offset,
            len,
            class: self.class,
            expected_gen,
            found_gen: self.found_gen,
            found_offset: self.found_offset,
            found_file: self.found_file,
            diff_at: self.diff_at,
            diff: self.diff,
            rereads: rereads.0,
            bad_rereads: rereads.1,
            at_s,
        }
    }
}

fn rank(c: FindingClass) -> u8 {
    match c {
        FindingClass::NeverRead => 0,
        FindingClass::Corrupt => 1,
        FindingClass::Misdirected => 2,
        FindingClass::Torn => 3,
        FindingClass::Stale => 4,
        FindingClass::Log => 5,
    }
}

fn describe(page: &[u8], unit: usize, e: &Expect, class: FindingClass, i: usize, s: Option<Stamp>) -> Bad {
    let found = &page[i * unit..((i + 1) * unit).min(page.len())];
    // The expected unit, with the informational fields (writer, time) taken from what was
    // found so that the diff points at what matters.
    let mut want = vec![0u8; found.len()];
    let address = e.address + (i * unit) as u64;
    let (writer, time_ns) = stamp::informational(found);
    let generation = expected_generation(found, e);
    stamp::write_unit(&mut want, &Stamp { run_id: e.run_id, file_id: e.file_id, writer, address, generation, time_ns });
    let at = want.iter().zip(found).position(|(a, b)| a != b).unwrap_or(0);
    let end = (at + 16).min(found.len());
    let mut diff = String::from("expected ");
    hex(&mut diff, &want[at..end]);
    diff.push_str(" / found ");
    hex(&mut diff, &found[at..end]);
    Bad {
        class,
        found_gen: s.map(|s| s.generation),
        found_offset: s.map(|s| s.address),
        found_file: s.filter(|s| s.file_id != e.file_id).map(|s| s.file_id),
        diff_at: (i * unit + at) as u32,
        diff,
    }
}

/// The generation a bad unit is compared with: the one it claims when that is among those
/// expected (a page with writes pending, or any write of an earlier run), else the last one
/// acknowledged.
pub fn expected_generation(found: &[u8], e: &Expect) -> u64 {
    let g = stamp::generation_field(found);
    let last = e.generation.saturating_add(e.pending);
    if e.pending > 0 && (e.generation..=last).contains(&g) {
        g
    } else {
        e.generation
    }
}

fn hex(out: &mut String, bytes: &[u8]) {
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
}

#[cfg(test)]
mod tests;

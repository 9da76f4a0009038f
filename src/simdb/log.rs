//! Log records and their chain. The log is written sequentially, one record per write, each
//! a multiple of the unit (512 B – 60 KB), and wraps to the start when full (a pass). A record:
//!
//! ```text
//!  0 magic "IOLG"  4 length  8 run id  16 LSN  24 previous record's LSN  32 CRC-32C  36 filler
//! ```
//! The CRC covers the whole record but its own four bytes. Reading a pass back, each record
//! must be intact, carry the next LSN and name the one before it: a record missing, out of
//! order or damaged is a `log` finding.

const MAGIC: [u8; 4] = *b"IOLG";
pub const HEADER: usize = 36;
pub const MAX_RECORD: usize = 60 * 1024;
const CRC_AT: usize = 32;

fn crc(r: &[u8]) -> u32 {
    crc32c::crc32c_append(crc32c::crc32c(&r[..CRC_AT]), &r[CRC_AT + 4..])
}

/// Writes a whole record into `r` (its length is the record's).
pub fn write_record(r: &mut [u8], run_id: u64, lsn: u64, prev: u64) {
    r[..4].copy_from_slice(&MAGIC);
    let len = r.len() as u32;
    r[4..8].copy_from_slice(&len.to_le_bytes());
    r[8..16].copy_from_slice(&run_id.to_le_bytes());
    r[16..24].copy_from_slice(&lsn.to_le_bytes());
    r[24..32].copy_from_slice(&prev.to_le_bytes());
    let mut s = run_id ^ lsn.rotate_left(23);
    for c in r[HEADER..].chunks_mut(8) {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let v = (z ^ (z >> 31)).to_le_bytes();
        c.copy_from_slice(&v[..c.len()]);
    }
    let c = crc(r);
    r[CRC_AT..CRC_AT + 4].copy_from_slice(&c.to_le_bytes());
}

/// A record's header as read: (length, run id, LSN, previous LSN), when the magic is there
/// and the length is plausible for `unit`.
pub fn header(h: &[u8], unit: usize) -> Option<(usize, u64, u64, u64)> {
    if h.len() < HEADER || h[..4] != MAGIC {
        return None;
    }
    let len = u32::from_le_bytes(h[4..8].try_into().unwrap()) as usize;
    if len < unit || len > MAX_RECORD || !len.is_multiple_of(unit) {
        return None;
    }
    let u64_at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().unwrap());
    Some((len, u64_at(8), u64_at(16), u64_at(24)))
}

/// Whether a whole record's CRC holds.
pub fn intact(r: &[u8]) -> bool {
    r.len() >= HEADER && u32::from_le_bytes(r[CRC_AT..CRC_AT + 4].try_into().unwrap()) == crc(r)
}

/// What is wrong with the record at a place in the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Broken {
    /// No record header there (overwritten, never written, or the header damaged).
    Missing,
    /// The header is there but the record's CRC fails.
    Damaged { lsn: u64 },
    /// An intact record with another LSN than the next one, or naming another predecessor.
    Reordered { lsn: u64, prev: u64 },
    /// An intact record of another run.
    Foreign { lsn: u64 },
}

/// Checks one record read back where LSN `want` (after `prev`) should be. `rec` holds at
/// least the header; `whole` says whether `rec` is the complete record (its length from the
/// header).
pub fn check(rec: &[u8], unit: usize, run_id: u64, want: u64, prev: u64) -> Result<usize, Broken> {
    let Some((len, run, lsn, p)) = header(rec, unit) else { return Err(Broken::Missing) };
    if rec.len() < len || !intact(&rec[..len]) {
        return Err(Broken::Damaged { lsn });
    }
    if run != run_id {
        return Err(Broken::Foreign { lsn });
    }
    if lsn != want || p != prev {
        return Err(Broken::Reordered { lsn, prev: p });
    }
    Ok(len)
}

impl Broken {
    pub fn describe(&self, want: u64, prev: u64) -> String {
        match self {
            Broken::Missing => format!("expected LSN {want} (after {prev}) / found no record header"),
            Broken::Damaged { lsn } => format!("expected LSN {want} / found LSN {lsn} with a bad checksum"),
            Broken::Reordered { lsn, prev: p } => {
                format!("expected LSN {want} after {prev} / found LSN {lsn} after {p}")
            }
            Broken::Foreign { lsn } => format!("expected LSN {want} / found LSN {lsn} of another run"),
        }
    }

    pub fn found_lsn(&self) -> Option<u64> {
        match *self {
            Broken::Missing => None,
            Broken::Damaged { lsn } | Broken::Reordered { lsn, .. } | Broken::Foreign { lsn } => Some(lsn),
        }
    }
}

#[cfg(test)]
mod tests;

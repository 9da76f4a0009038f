//! The stamp every verified unit (512 B, or the device's logical block) carries, so that any
//! unit read back says by itself which file, address and write it belongs to, and whether it
//! arrived intact.
//!
//! Layout, little-endian:
//! ```text
//!  0  magic "IOLV"      4   16  file id          4   40  time (ns)       8
//!  4  version           2   20  unit size        4   48  CRC-32C         4
//!  6  writer            2   24  address (bytes)  8   52  filler to the end of the unit
//!  8  run id            8   32  generation       8
//! ```
//! The CRC covers the whole unit except its own four bytes. The filler is a pseudo-random
//! sequence drawn from (run id, file id, address, generation), so a unit's expected contents
//! can be rebuilt for a diff, and storage that compresses or dedupes sees no pattern.

// The workload's validation needs the smallest unit too, and the workload is the lower module.
use crate::workload::verify::MIN_UNIT;

pub const MAGIC: [u8; 4] = *b"IOLV";
pub const VERSION: u16 = 1;
/// Bytes of header before the filler.
pub const HEADER: usize = 52;
const CRC_AT: usize = 48;
/// Written over every unit's header before a read: a read that transfers nothing leaves it.
const UNREAD: [u8; 16] = *b"iolens:not-read!";

/// What a unit says about itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub run_id: u64,
    pub file_id: u32,
    /// The user or thread that wrote it.
    pub writer: u16,
    /// Byte offset of this unit in its file.
    pub address: u64,
    /// How many times this page has been written (0: at creation).
    pub generation: u64,
    pub time_ns: u64,
}

/// A unit as read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Still holds the marker written before the read.
    Unread,
    /// No valid stamp: wrong magic or version, or a CRC that does not match.
    Corrupt,
    Valid(Stamp),
}

fn put(buf: &mut [u8], at: usize, bytes: &[u8]) {
    buf[at..at + bytes.len()].copy_from_slice(bytes);
}

fn u16_at(buf: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([buf[at], buf[at + 1]])
}

fn u32_at(buf: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(buf[at..at + 4].try_into().unwrap())
}

fn u64_at(buf: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(buf[at..at + 8].try_into().unwrap())
}

/// splitmix64: cheap, and every seed gives an unrelated stream.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn fill(unit: &mut [u8], s: &Stamp) {
    let mut state = s.run_id ^ (u64::from(s.file_id) << 48) ^ s.address.rotate_left(17) ^ s.generation.rotate_left(41);
    for chunk in unit[HEADER..].chunks_mut(8) {
        let v = next(&mut state).to_le_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
}

fn crc(unit: &[u8]) -> u32 {
    crc32c::crc32c_append(crc32c::crc32c(&unit[..CRC_AT]), &unit[CRC_AT + 4..])
}

/// Writes a complete unit (`unit.len()` ≥ MIN_UNIT) for `s`.
pub fn write_unit(unit: &mut [u8], s: &Stamp) {
    debug_assert!(unit.len() >= MIN_UNIT);
    put(unit, 0, &MAGIC);
    put(unit, 4, &VERSION.to_le_bytes());
    put(unit, 6, &s.writer.to_le_bytes());
    put(unit, 8, &s.run_id.to_le_bytes());
    put(unit, 16, &s.file_id.to_le_bytes());
    put(unit, 20, &(unit.len() as u32).to_le_bytes());
    put(unit, 24, &s.address.to_le_bytes());
    put(unit, 32, &s.generation.to_le_bytes());
    put(unit, 40, &s.time_ns.to_le_bytes());
    fill(unit, s);
    let c = crc(unit);
    put(unit, CRC_AT, &c.to_le_bytes());
}

/// Stamps every unit of a page whose first byte is at `s.address`.
pub fn stamp_page(page: &mut [u8], unit: usize, s: &Stamp) {
    for (i, u) in page.chunks_mut(unit).enumerate() {
        write_unit(u, &Stamp { address: s.address + (i * unit) as u64, ..*s });
    }
}

/// Marks every unit of a buffer about to be read into, so a read that transfers nothing shows.
pub fn mark_unread(page: &mut [u8], unit: usize) {
    for u in page.chunks_mut(unit) {
        put(u, 0, &UNREAD);
    }
}

/// The writer and time fields of a unit as they stand, valid or not: a diff against the
/// expected unit should not stop at fields that only inform.
pub fn informational(unit: &[u8]) -> (u16, u64) {
    if unit.len() < HEADER {
        return (0, 0);
    }
    (u16_at(unit, 6), u64_at(unit, 40))
}

/// The generation field of a unit as it stands, valid or not: when any of several
/// generations may be expected, a damaged unit is compared with the one it claims to be.
pub fn generation_field(unit: &[u8]) -> u64 {
    if unit.len() < HEADER {
        return 0;
    }
    u64_at(unit, 32)
}

/// The run, file and address a unit's header names when it starts as a stamp does (magic and
/// version), whether or not the rest holds: a unit of another size still says whose it is.
pub fn header_ids(unit: &[u8]) -> Option<(u64, u32, u64)> {
    (unit.len() >= HEADER && unit[..4] == MAGIC && u16_at(unit, 4) == VERSION)
        .then(|| (u64_at(unit, 8), u32_at(unit, 16), u64_at(unit, 24)))
}

/// What one unit read back says.
pub fn read_unit(unit: &[u8]) -> Unit {
    if unit[..UNREAD.len()] == UNREAD {
        return Unit::Unread;
    }
    if unit[..4] != MAGIC
        || u16_at(unit, 4) != VERSION
        || u32_at(unit, 20) as usize != unit.len()
        || u32_at(unit, CRC_AT) != crc(unit)
    {
        return Unit::Corrupt;
    }
    Unit::Valid(Stamp {
        writer: u16_at(unit, 6),
        run_id: u64_at(unit, 8),
        file_id: u32_at(unit, 16),
        address: u64_at(unit, 24),
        generation: u64_at(unit, 32),
        time_ns: u64_at(unit, 40),
    })
}

#[cfg(test)]
mod tests;

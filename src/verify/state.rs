//! fio's verify state file (its verify-state.h, version 3 as fio 3.33 writes it): how many
//! writes a job completed and where its last ones went, so that a later verify_only run checks
//! no more than the writes got to.
//!
//! Layout, little-endian: a header (version, size of the list, fio's CRC-32C of the list), then
//! the job's list: completions kept, depth, files, writes done, job index, random state (56
//! bytes, unused here), the job's name (64 bytes), and per completion its file and offset.

use std::path::{Path, PathBuf};

const VERSION: u64 = 3;
const HEADER: usize = 24;
/// The list before its completions.
const LIST: usize = 8 + 4 + 4 + 8 + 8 + 56 + 64;
const NAME_AT: usize = 88;

/// One job's saved state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    pub name: String,
    pub index: u64,
    pub depth: u32,
    /// Writes completed (fio's numberio).
    pub writes: u64,
    /// The last completed writes: (file number, offset).
    pub last: Vec<(u64, u64)>,
}

/// fio's name for a job's state: `local-NAME-INDEX-verify.state` ('/' in the name as '.'), in
/// `dir` (fio's --aux-path) or the current directory.
pub fn path(dir: Option<&str>, name: &str, index: u64) -> PathBuf {
    let file = format!("local-{}-{index}-verify.state", name.replace('/', "."));
    dir.map_or_else(|| PathBuf::from(&file), |d| Path::new(d).join(&file))
}

/// fio's CRC-32C: Castagnoli from all ones, without the final inversion.
fn fio_crc(b: &[u8]) -> u64 {
    u64::from(!crc32c::crc32c(b))
}

pub fn encode(s: &Saved) -> Vec<u8> {
    let mut list = Vec::with_capacity(LIST + 16 * s.last.len());
    list.extend((s.last.len() as u64).to_le_bytes());
    list.extend(s.depth.to_le_bytes());
    list.extend(1u32.to_le_bytes());
    list.extend(s.writes.to_le_bytes());
    list.extend(s.index.to_le_bytes());
    list.extend([0u8; 56]);
    let mut name = [0u8; 64];
    let n = s.name.len().min(63);
    name[..n].copy_from_slice(&s.name.as_bytes()[..n]);
    list.extend(name);
    for (file, offset) in &s.last {
        list.extend(file.to_le_bytes());
        list.extend(offset.to_le_bytes());
    }
    let mut out = Vec::with_capacity(HEADER + list.len());
    out.extend(VERSION.to_le_bytes());
    out.extend((list.len() as u64).to_le_bytes());
    out.extend(fio_crc(&list).to_le_bytes());
    out.extend(list);
    out
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// A state file's contents, checked as fio checks them (version, size, CRC).
pub fn decode(b: &[u8]) -> Result<Saved, String> {
    if b.len() < HEADER + LIST {
        return Err(format!("{} bytes is too short for a verify state", b.len()));
    }
    if u64_at(b, 0) != VERSION {
        return Err(format!("unsupported ({}) version in verify state header, wanted {VERSION}", u64_at(b, 0)));
    }
    let list = &b[HEADER..];
    let comps = u64_at(list, 0);
    let size = u64_at(b, 8);
    if size != list.len() as u64 || size != (LIST as u64).saturating_add(comps.saturating_mul(16)) {
        return Err("verify state is corrupt (size)".into());
    }
    if fio_crc(list) != u64_at(b, 16) {
        return Err("verify state is corrupt (checksum)".into());
    }
    let name = &list[NAME_AT..NAME_AT + 64];
    let name = String::from_utf8_lossy(&name[..name.iter().position(|&c| c == 0).unwrap_or(64)]).into_owned();
    let last = (0..comps as usize).map(|i| (u64_at(list, LIST + 16 * i), u64_at(list, LIST + 16 * i + 8))).collect();
    Ok(Saved {
        name,
        index: u64_at(list, 24),
        depth: u32::from_le_bytes(list[8..12].try_into().expect("4 bytes")),
        writes: u64_at(list, 16),
        last,
    })
}

pub fn save(p: &Path, s: &Saved) -> std::io::Result<()> {
    std::fs::write(p, encode(s))
}

pub fn load(p: &Path) -> Result<Saved, String> {
    let b = std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    decode(&b).map_err(|e| format!("{}: {e}", p.display()))
}

#[cfg(test)]
mod tests;

//! Does an existing test file hold data a disk must really read? Holes and unwritten extents
//! read as zeros without touching the disk, and storage that compresses or dedupes serves zero
//! or repeated blocks from far less than was asked; either inflates read figures. DiskSpd's `-c`
//! fills its files with a repeating 0-255 byte pattern, which such storage shrinks to nothing,
//! so DiskSpd users pointing iolens at their old test files meet exactly this.

use std::collections::HashSet;
use std::fs::File;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

/// Blocks sampled across the region: enough to see a pattern, cheap even on a slow disk.
const SAMPLES: u64 = 32;
const SAMPLE: usize = 64 << 10;
/// The unit storage commonly dedupes at.
const CHUNK: usize = 4096;

/// What was found in the tested region of a file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Content {
    /// Share of the region backed by written data (not holes or unwritten extents).
    pub written: f64,
    /// Compressed size ÷ size of the sampled blocks (lz4; about 1.0 for random data).
    pub compressed: f64,
    /// Share of the sampled 4 KiB chunks that repeat another sampled chunk.
    pub repeated: f64,
}

impl Content {
    /// One line for the user when reads of this region would be inflated; None when it is fine.
    pub fn warning(&self, path: &Path) -> Option<String> {
        const FIX: &str = "give a path that does not exist so iolens creates and fills it with random data, or rewrite this file with random data first";
        let p = path.display();
        if self.written < 0.5 {
            return Some(format!(
                "{p}: only {:.0} % of the tested region is written (the rest are holes or unwritten extents, read as zeros without touching the disk), so reads from it will be inflated by sparseness; {FIX}",
                self.written * 100.0
            ));
        }
        if self.compressed < 0.5 || self.repeated > 0.5 {
            return Some(format!(
                "{p}: sampled blocks compress to {:.0} % of their size and {:.0} % of 4 KiB chunks repeat (zeros or a pattern, like the files DiskSpd -c makes), so reads from storage that compresses or dedupes will be inflated by compression/dedup; {FIX}",
                self.compressed * 100.0,
                self.repeated * 100.0
            ));
        }
        None
    }
}

/// Probes `len` bytes from `offset` of a regular file: its allocation, then a few dozen blocks.
pub fn probe(path: &Path, offset: u64, len: u64) -> std::io::Result<Content> {
    let f = File::open(path)?;
    let written = if len == 0 { 1.0 } else { data_bytes(&f, offset, len)? as f64 / len as f64 };
    let n = (len / SAMPLE as u64).clamp(1, SAMPLES);
    let step = len / n;
    let mut buf = vec![0u8; SAMPLE];
    let mut out = vec![0u8; lz4_flex::block::get_maximum_output_size(SAMPLE)];
    let (mut raw, mut packed) = (0usize, 0usize);
    let mut seen = HashSet::new();
    let mut chunks = 0usize;
    for i in 0..n {
        let at = offset + i * step;
        let want = (SAMPLE as u64).min(offset + len - at) as usize;
        let got = super::os::read_at(&f, &mut buf[..want], at)?;
        if got == 0 {
            break;
        }
        // The probe's reads must not leave the file warm in the page cache for a buffered test;
        // only the sampled ranges are dropped, so pages the user warmed on purpose stay.
        super::os::drop_cached(&f, at, got as u64);
        let block = &buf[..got];
        raw += got;
        // The output buffer holds the worst case, so compressing cannot fail.
        packed += lz4_flex::block::compress_into(block, &mut out).map_or(got, |n| n.min(got));
        for c in block.chunks(CHUNK) {
            let mut h = DefaultHasher::new();
            c.hash(&mut h);
            seen.insert(h.finish());
            chunks += 1;
        }
    }
    Ok(Content {
        written: written.min(1.0),
        compressed: if raw > 0 { packed as f64 / raw as f64 } else { 1.0 },
        repeated: if chunks > 0 { 1.0 - seen.len() as f64 / chunks as f64 } else { 0.0 },
    })
}

/// Bytes of `offset .. offset + len` backed by data. SEEK_DATA/SEEK_HOLE also count unwritten
/// (preallocated) extents as holes, which st_blocks would count as allocated.
#[cfg(target_os = "linux")]
fn data_bytes(f: &File, offset: u64, len: u64) -> std::io::Result<u64> {
    use std::os::fd::AsRawFd;
    let end = offset + len;
    let (mut pos, mut data) = (offset, 0u64);
    // A badly fragmented file has many extents; past this many the rest is taken as data.
    for _ in 0..100_000 {
        if pos >= end {
            return Ok(data);
        }
        let start = unsafe { libc::lseek(f.as_raw_fd(), pos as libc::off_t, libc::SEEK_DATA) };
        if start < 0 {
            let e = std::io::Error::last_os_error();
            return match e.raw_os_error() {
                // No data after pos.
                Some(libc::ENXIO) => Ok(data),
                // A file system without SEEK_DATA: fall back to the blocks allocated.
                Some(libc::EINVAL) => allocated(f, len),
                _ => Err(e),
            };
        }
        let start = start as u64;
        if start >= end {
            return Ok(data);
        }
        let hole = unsafe { libc::lseek(f.as_raw_fd(), start as libc::off_t, libc::SEEK_HOLE) };
        let hole = if hole < 0 { end } else { (hole as u64).min(end) };
        data += hole - start;
        pos = hole;
    }
    Ok(data + end.saturating_sub(pos))
}

#[cfg(not(target_os = "linux"))]
fn data_bytes(f: &File, _offset: u64, len: u64) -> std::io::Result<u64> {
    allocated(f, len)
}

fn allocated(f: &File, len: u64) -> std::io::Result<u64> {
    Ok(super::os::allocated(f)?.min(len))
}

#[cfg(test)]
mod tests;

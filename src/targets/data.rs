//! What goes into written blocks. Default data is incompressible and every write is stamped
//! with fresh values, because SANs and cloud storage layers compress and dedupe.

use crate::workload::DataPattern;
use rand::rngs::SmallRng;
use rand::RngCore;

/// Fills a whole buffer according to the pattern.
pub fn fill(buf: &mut [u8], pattern: &DataPattern, rng: &mut SmallRng) {
    match pattern {
        DataPattern::Random => rng.fill_bytes(buf),
        DataPattern::Zero => buf.fill(0),
        DataPattern::Compress { pct } => {
            // Per 4 KiB chunk: the first pct % zeros, the rest random, so a compressor working
            // on 4 KiB (or larger) units sees the requested ratio.
            for chunk in buf.chunks_mut(4096) {
                let zeros = chunk.len() * *pct as usize / 100;
                chunk[..zeros].fill(0);
                rng.fill_bytes(&mut chunk[zeros..]);
            }
        }
        DataPattern::Repeat { bytes, len } => {
            let len = (*len as usize).clamp(1, bytes.len().max(1));
            for (b, p) in buf.iter_mut().zip(bytes[..len].iter().cycle()) {
                *b = *p;
            }
        }
    }
}

/// Makes a block written before unique again at the cost of two stores per 4 KiB: the offset
/// and a running counter at each 4 KiB boundary. Zero data stays zero, a pattern stays the
/// pattern asked for.
#[inline]
pub fn stamp(buf: &mut [u8], pattern: &DataPattern, offset: u64, counter: u64) {
    if matches!(pattern, DataPattern::Zero | DataPattern::Repeat { .. }) {
        return;
    }
    let tail = match pattern {
        // Compressible data keeps its zero prefix; the stamp goes at the chunk's end.
        DataPattern::Compress { .. } => true,
        _ => false,
    };
    for (i, chunk) in buf.chunks_mut(4096).enumerate() {
        if chunk.len() < 16 {
            continue;
        }
        let at = if tail { chunk.len() - 16 } else { 0 };
        let a = offset.wrapping_add(i as u64 * 4096) ^ 0x9e37_79b9_7f4a_7c15;
        chunk[at..at + 8].copy_from_slice(&a.to_le_bytes());
        chunk[at + 8..at + 16].copy_from_slice(&counter.to_le_bytes());
    }
}

#[cfg(test)]
mod tests;

//! fio's verify=pattern: a block holds `verify_pattern` repeated from its first byte, the block's
//! offset pasted where the pattern has `%o` (and, with verify_pattern_interval, the pattern
//! restarting at every interval with that interval's offset), and nothing else: no stamp, so a
//! pattern another tool or job wrote is checked as it is.

use crate::workload::verify::PatternFill;

/// The byte a block at `offset` holds at `i` (`i` from the block's first byte).
#[inline]
fn byte_at(p: &PatternFill, offset: u64, i: usize) -> u8 {
    let (seg_at, pos) = match p.interval {
        0 => (offset, i),
        n => (offset + (i as u64 / n) * n, (i as u64 % n) as usize),
    };
    let k = pos % p.bytes.len();
    for &o in &p.offsets {
        if (o..o + 8).contains(&k) {
            return seg_at.to_le_bytes()[k - o];
        }
    }
    p.bytes[k]
}

/// Fills `buf`, the block at `offset`, with the pattern.
pub fn fill(buf: &mut [u8], p: &PatternFill, offset: u64) {
    if p.offsets.is_empty() && p.interval == 0 {
        for chunk in buf.chunks_mut(p.bytes.len()) {
            chunk.copy_from_slice(&p.bytes[..chunk.len()]);
        }
        return;
    }
    for (i, b) in buf.iter_mut().enumerate() {
        *b = byte_at(p, offset, i);
    }
}

/// The first byte of `buf`, the block at `offset`, that is not the pattern's.
pub fn mismatch(buf: &[u8], p: &PatternFill, offset: u64) -> Option<usize> {
    if p.offsets.is_empty() && p.interval == 0 {
        let n = p.bytes.len();
        return buf.chunks(n).enumerate().find_map(|(c, chunk)| {
            (chunk != &p.bytes[..chunk.len()])
                .then(|| c * n + chunk.iter().zip(&p.bytes).position(|(a, b)| a != b).unwrap_or(0))
        });
    }
    buf.iter().enumerate().position(|(i, &b)| b != byte_at(p, offset, i))
}

#[cfg(test)]
mod tests;

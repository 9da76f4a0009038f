//! fio's completion-latency histogram logs (write_hist_log): `PREFIX_clat_hist.N.log`, a line
//! per direction each time log_hist_msec has passed since the direction's last line, holding
//! the I/Os completed since then in fio's 1856 latency bins (stat.c plat_val_to_idx), summed in
//! groups of 2^coarseness. Written after the run from the job's per-I/O clat samples, which
//! its lat log recorded.

use crate::workload::iolog::{HistLog, IoLogs, LogKind};
use std::path::Path;

/// fio's FIO_IO_U_PLAT_BITS and FIO_IO_U_PLAT_NR (29 groups of 64 bins).
const PLAT_BITS: u32 = 6;
const PLAT_NR: usize = 29 << PLAT_BITS;

/// fio's plat_val_to_idx: the bin of a latency in ns.
fn bin(ns: u64) -> usize {
    let msb = 63 - ns.max(1).leading_zeros();
    if msb <= PLAT_BITS {
        return ns as usize;
    }
    let error_bits = msb - PLAT_BITS;
    let base = ((error_bits + 1) << PLAT_BITS) as usize;
    let offset = ((1u64 << PLAT_BITS) - 1) & (ns >> error_bits);
    (base + offset as usize).min(PLAT_NR - 1)
}

/// The histogram lines of one thread's clat samples (`ms, ns, ddir, bs, …` lines), as fio's
/// add_clat_sample and flush_hist_samples make them: a direction's window opens at its first
/// sample, and a line is written at the sample that ends it (its time, direction and size),
/// the window then moved on by log_hist_msec; samples after the last line are not written.
pub fn lines(clat: &str, msec: u64, coarseness: u32) -> String {
    let mut out = String::new();
    if msec == 0 {
        return out;
    }
    let stride = 1usize << coarseness;
    // Per direction: the bins since the last line, and the window's start (ms).
    let mut dirs: [(Vec<u64>, Option<u64>); 3] = std::array::from_fn(|_| (vec![0; PLAT_NR], None));
    for l in clat.lines() {
        let f: Vec<u64> = l.split(',').take(4).filter_map(|v| v.trim().parse().ok()).collect();
        let [t, ns, d, bs] = f[..] else { continue };
        let Some((bins, last)) = dirs.get_mut(d as usize) else { continue };
        bins[bin(ns)] += 1;
        let start = *last.get_or_insert(t);
        let window = t - start.min(t);
        if window >= msec {
            out.push_str(&format!("{t}, {d}, {bs}"));
            for g in bins.chunks(stride) {
                out.push_str(&format!(", {}", g.iter().sum::<u64>()));
            }
            out.push('\n');
            bins.fill(0);
            *last = Some(t - (window - msec));
        }
    }
    out
}

/// Writes the job's histogram logs in `dir` from the clat files of `logs` (the job's), and
/// removes the lat log made for them.
pub fn write(h: &HistLog, logs: &IoLogs, dir: &Path) -> std::io::Result<()> {
    let lat = logs.lat.as_deref().unwrap_or_default();
    let threads = if logs.per_job { h.threads } else { 1 };
    for t in 0..threads {
        let text = std::fs::read_to_string(dir.join(logs.file_name(LogKind::Clat, lat, t))).unwrap_or_default();
        let name = if logs.per_job {
            format!("{}_clat_hist.{}.log", h.prefix, logs.first_thread + t)
        } else {
            format!("{}_clat_hist.log", h.prefix)
        };
        std::fs::write(dir.join(name), lines(&text, h.msec, h.coarseness))?;
        if h.made {
            for k in [LogKind::Lat, LogKind::Slat, LogKind::Clat] {
                let _ = std::fs::remove_file(dir.join(logs.file_name(k, lat, t)));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;

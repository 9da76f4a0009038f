//! What the block device itself saw during the measured window (/sys/block/DEV/stat), as fio's
//! "Disk stats": requests, merges, bytes, busy time. Comparing requests with I/Os shows splits
//! (a 1 MiB read sent as two requests) and merges that the tool's own counts cannot.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default)]
pub struct DiskSnapshot {
    /// (device name, the stat file's fields).
    devs: Vec<(String, Vec<u64>)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiskStats {
    /// Kernel name: "vda", "nvme0n1", "loop0".
    pub device: String,
    pub read_requests: u64,
    pub read_merges: u64,
    pub read_bytes: u64,
    pub write_requests: u64,
    pub write_merges: u64,
    pub write_bytes: u64,
    /// Time with at least one request in flight, as a percentage of the window (fio's util).
    pub util_pct: f64,
    /// Mean requests in flight at the device (weighted time in queue ÷ window).
    pub mean_queue: f64,
}

fn read_stat(dev: &str) -> Option<Vec<u64>> {
    let text = std::fs::read_to_string(format!("/sys/block/{dev}/stat")).ok()?;
    Some(text.split_whitespace().filter_map(|v| v.parse().ok()).collect())
}

impl DiskSnapshot {
    pub fn take(devices: &[String]) -> DiskSnapshot {
        DiskSnapshot { devs: devices.iter().filter_map(|d| read_stat(d).map(|s| (d.clone(), s))).collect() }
    }

    pub fn since(&self, start: &DiskSnapshot, window_s: f64) -> Vec<DiskStats> {
        self.devs
            .iter()
            .filter_map(|(dev, e)| {
                let (_, b) = start.devs.iter().find(|(d, _)| d == dev)?;
                let d = |i: usize| e.get(i).copied().unwrap_or(0).saturating_sub(b.get(i).copied().unwrap_or(0));
                let ms = window_s * 1000.0;
                Some(DiskStats {
                    device: dev.clone(),
                    read_requests: d(0),
                    read_merges: d(1),
                    read_bytes: d(2) * 512,
                    write_requests: d(4),
                    write_merges: d(5),
                    write_bytes: d(6) * 512,
                    util_pct: if ms > 0.0 { (100.0 * d(9) as f64 / ms).min(100.0) } else { 0.0 },
                    mean_queue: if ms > 0.0 { d(10) as f64 / ms } else { 0.0 },
                })
            })
            .collect()
    }
}

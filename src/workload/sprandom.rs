//! fio's sprandom settings and the model behind them (Desnoyers, "Analytic Models of SSD Write
//! Performance", ACM TOS 8(2), 2012): at steady state under greedy garbage collection, a
//! block's validity times the share of the device held by blocks of that validity is constant;
//! the least valid block, the one collected, has validity 1 − 1/WA, with the write
//! amplification WA ≈ 0.5/OP + 0.7 for an over-provisioning OP. `run::sprandom` writes by it.

use serde::{Deserialize, Serialize};

/// The job's sprandom settings (fio's spr_op, spr_num_regions, spr_cs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub op: f64,
    pub regions: u32,
    pub cache: u64,
}

/// The physical size for a logical one: over-provisioning added, whole blocks.
pub fn physical_size(op: f64, logical: u64, bs: u64) -> u64 {
    let size = logical + (logical as f64 * op).ceil() as u64;
    size - size % bs.max(1)
}

/// Why these settings cannot precondition `logical` bytes in blocks of `bs`, in fio's terms.
pub fn check(s: Settings, logical: u64, bs: u64) -> Result<(), String> {
    if !(s.op > 0.0 && s.op < 1.0) {
        return Err(format!("spr_op: {} is not an over-provisioning ratio between 0 and 1", s.op));
    }
    if s.regions == 0 {
        return Err("spr_num_regions: needs at least one region".into());
    }
    let physical = physical_size(s.op, logical, bs);
    let region = physical / u64::from(s.regions);
    if region < bs {
        return Err(format!("spr_num_regions: {} regions of {physical} bytes leave less than a block each", s.regions));
    }
    if s.cache > region {
        return Err(format!(
            "spr_cs: {} bytes must be smaller than a region ({region} bytes), which allows {} regions",
            s.cache,
            physical / s.cache
        ));
    }
    Ok(())
}

/// The validity of each region, least valid first: the model's curve, points equally spaced by
/// validity from 1 down to the collected block's, resampled equally spaced by the share of the
/// device they stand for.
pub fn validity(regions: u32, op: f64) -> Vec<f64> {
    let n = regions.max(1) as usize;
    let wa = 0.5 / op + 0.7;
    let gc = 1.0 - 1.0 / wa;
    let step = if n > 1 { (gc - 1.0) / (n - 1) as f64 } else { 0.0 };
    let v: Vec<f64> = (0..n).map(|i| 1.0 + i as f64 * step).collect();
    // The share each validity stands for grows as 1/validity; x is its running sum.
    let x: Vec<f64> = v
        .iter()
        .scan(0.0, |acc, vi| {
            *acc += 1.0 / vi;
            Some(*acc)
        })
        .collect();
    let x_step = if n > 1 { (x[n - 1] - x[0]) / (n - 1) as f64 } else { 0.0 };
    let mut out: Vec<f64> = (0..n).map(|i| interpolate(x[0] + i as f64 * x_step, &x, &v)).collect();
    out.reverse();
    out
}

fn interpolate(at: f64, x: &[f64], y: &[f64]) -> f64 {
    if at <= x[0] {
        return y[0];
    }
    let i = x.partition_point(|&xi| xi < at).min(x.len() - 1);
    let (x1, x2, y1, y2) = (x[i - 1], x[i], y[i - 1], y[i]);
    if (x2 - x1).abs() < 1e-9 {
        y1
    } else {
        y1 + (y2 - y1) * (at - x1) / (x2 - x1)
    }
}

#[cfg(test)]
mod tests;

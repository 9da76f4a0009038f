//! Option values as typed → spec fields, each failure naming the option and what it accepts.

use super::size::parse_size;
use super::{AccessHint, BlockShare, DataPattern, EngineKind, Pattern, RandomDist, Spec, StartDelay, UNBUFFERED};
use crate::error::{usage, UsageError};

type R<T> = Result<T, UsageError>;

const SIZE_HELP: &str = "use bytes or a k/M/G suffix (512, 4k, 64K, 1M, 1GiB)";

pub fn size(option: &str, s: &str) -> R<u64> {
    match parse_size(s) {
        Some(n) => Ok(n),
        None => usage(option, format!("'{s}' is not a size; {SIZE_HELP}")),
    }
}

pub fn block_size(option: &str, s: &str) -> R<u64> {
    let n = size(option, s)?;
    if n == 0 || n > 64 << 20 {
        return usage(option, format!("'{s}' is out of range; block sizes go from 1 byte to 64M"));
    }
    Ok(n)
}

/// fio's `bssplit` syntax: `4k/50:64k/50`. An entry without a share takes what is left.
pub fn bssplit(s: &str) -> R<Vec<BlockShare>> {
    const OPT: &str = "--bssplit";
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for part in s.split(':').filter(|p| !p.is_empty()) {
        let (bs, pct) = match part.split_once('/') {
            Some((b, p)) => (b, Some(p)),
            None => (part, None),
        };
        let size = block_size(OPT, bs)?;
        let pct = match pct {
            Some(p) => match p.parse::<u32>() {
                Ok(v) if v <= 100 => v,
                _ => return usage(OPT, format!("share '{p}' in '{part}' must be a whole percentage 0-100")),
            },
            None => {
                if open.is_some() {
                    return usage(OPT, "only one entry may leave out its share");
                }
                open = Some(out.len());
                0
            }
        };
        out.push(BlockShare { size, pct });
    }
    if out.is_empty() {
        return usage(OPT, format!("'{s}' has no entries; write SIZE/PCT:SIZE/PCT, e.g. 4k/50:64k/50"));
    }
    let sum: u32 = out.iter().map(|b| b.pct).sum();
    match open {
        Some(i) if sum <= 100 => out[i].pct = 100 - sum,
        _ if sum == 100 => {}
        _ => return usage(OPT, format!("shares add up to {sum}%; they must add up to 100")),
    }
    out.retain(|b| b.pct > 0);
    Ok(out)
}

/// fio's rw words → (pattern, default read percentage).
pub fn rw(s: &str) -> R<(Pattern, u32)> {
    Ok(match s {
        "read" => (Pattern::Sequential, 100),
        "write" => (Pattern::Sequential, 0),
        "randread" => (Pattern::Random, 100),
        "randwrite" => (Pattern::Random, 0),
        "rw" | "readwrite" => (Pattern::Sequential, 50),
        "randrw" => (Pattern::Random, 50),
        _ => {
            return usage("--rw", format!("'{s}' is not a pattern; use read, write, randread, randwrite, rw or randrw"))
        }
    })
}

pub fn random_dist(s: &str) -> R<RandomDist> {
    const OPT: &str = "--random-dist";
    const HELP: &str = "use uniform, zipf:THETA (THETA > 0, not 1) or pareto:H (0 < H < 1)";
    let (kind, arg) = s.split_once(':').unwrap_or((s, ""));
    let num = |a: &str| a.parse::<f64>().ok().filter(|v| v.is_finite());
    match (kind, num(arg)) {
        ("uniform", _) if arg.is_empty() => Ok(RandomDist::Uniform),
        ("zipf", Some(t)) if t > 0.0 && t != 1.0 => Ok(RandomDist::Zipf { theta: t }),
        ("pareto", Some(h)) if h > 0.0 && h < 1.0 => Ok(RandomDist::Pareto { h }),
        _ => usage(OPT, format!("'{s}' is not a distribution; {HELP}")),
    }
}

pub fn data(s: &str) -> R<DataPattern> {
    const OPT: &str = "--data";
    match s.split_once(':') {
        None if s == "random" => Ok(DataPattern::Random),
        None if s == "zero" => Ok(DataPattern::Zero),
        Some(("compress", p)) => match p.parse::<u32>() {
            Ok(v) if v <= 100 => Ok(DataPattern::Compress { pct: v }),
            _ => usage(OPT, format!("'{p}' is not a percentage; compress:PCT takes 0-100")),
        },
        _ => usage(OPT, format!("'{s}' is not a data pattern; use random, zero or compress:PCT")),
    }
}

pub fn hint(s: &str) -> R<AccessHint> {
    match s {
        "random" => Ok(AccessHint::Random),
        "sequential" => Ok(AccessHint::Sequential),
        _ => usage("--hint", format!("'{s}' is not an access hint; use random or sequential")),
    }
}

pub fn engine(s: &str) -> R<EngineKind> {
    match s {
        "io_uring" | "iouring" | "uring" => Ok(EngineKind::IoUring),
        "iocp" => Ok(EngineKind::Iocp),
        "ioring" => Ok(EngineKind::IoRing),
        "psync" | "sync" => Ok(EngineKind::Psync),
        "null" => Ok(EngineKind::Null),
        _ => usage("--engine", format!("'{s}' is not an engine; use io_uring, iocp, ioring, psync (sync) or null")),
    }
}

/// Seconds as "10", "2.5", "10s", "500ms", "2m".
pub fn seconds(option: &str, s: &str) -> R<f64> {
    let t = s.trim();
    let (num, mult) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1.0)
    };
    match num.parse::<f64>() {
        // Every time iolens takes is bounded here, so that no later conversion overflows.
        Ok(v) if v.is_finite() && v >= 0.0 && v * mult <= MAX_SECONDS => Ok(v * mult),
        Ok(v) if v.is_finite() && v >= 0.0 => usage(option, format!("'{s}' is more than 30 days")),
        _ => usage(option, format!("'{s}' is not a time; use seconds (10, 2.5, 10s, 500ms, 2m)")),
    }
}

/// The longest time any option may give: 30 days.
pub const MAX_SECONDS: f64 = 30.0 * 86400.0;

/// Microseconds as "10000", "500us", "10ms", "2s" (a bare number is µs, as fio's thinktime).
pub fn micros(option: &str, s: &str) -> R<u64> {
    let t = s.trim();
    let (num, mult) = if let Some(n) = t.strip_suffix("us") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix("ms") {
        (n, 1e3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1e6)
    } else {
        (t, 1.0)
    };
    match num.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 && v * mult < 1e13 => Ok((v * mult).round() as u64),
        _ => usage(option, format!("'{s}' is not a time; use µs (10000) or 500us, 10ms, 2s")),
    }
}

/// A start delay: seconds, or a range "1-3" from which each worker draws its own.
pub fn start_delay(option: &str, s: &str) -> R<StartDelay> {
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let (min, max) = (seconds(option, a)?, seconds(option, b)?);
    if max < min {
        return usage(option, format!("'{s}': the range must go from low to high"));
    }
    Ok(StartDelay { min, max })
}

impl Spec {
    /// The spec a result keeps: what ran, without how it was asked for (`size_given`), so a
    /// result equals itself read back from the store.
    pub fn as_ran(&self) -> Spec {
        Spec { size_given: false, ..self.clone() }
    }

    /// Checks that belong to the spec as a whole; target-dependent checks (free space, existing
    /// sizes, the tested region, devices) are the target module's.
    pub fn validate(&self) -> R<()> {
        if self.targets.is_empty() {
            return usage("TARGET", "no target given");
        }
        // An empty name would open as the current directory: a test there was not asked for.
        if self.targets.iter().any(|t| t.is_empty()) {
            return usage("TARGET", "'' is empty; name a file, a directory or a device ('.' for this directory)");
        }
        if self.read_pct > 100 {
            return usage("--read-pct", format!("{} is out of range; use 0-100", self.read_pct));
        }
        if !(1..=4096).contains(&self.threads) {
            return usage("--threads", format!("{} is out of range; use 1-4096", self.threads));
        }
        if !(1..=4096).contains(&self.qd) {
            return usage("--qd", format!("{} is out of range; use 1-4096", self.qd));
        }
        if !(1..=4096).contains(&self.batch) {
            return usage(
                "--batch",
                format!("{} is out of range; use 1-4096 (more than --qd acts as --qd)", self.batch),
            );
        }
        if self.duration <= 0.0 {
            return usage("--duration", "must be more than 0 seconds");
        }
        const MONTH: f64 = 30.0 * 86400.0;
        for (opt, v) in [("--duration", self.duration), ("--warmup", self.warmup), ("--cooldown", self.cooldown)] {
            if v > MONTH {
                return usage(opt, format!("{v} s is more than 30 days"));
            }
        }
        if self.direct {
            if let Some(b) = self.all_blocks().find(|b| b.size % 512 != 0) {
                return usage(
                    "--bs",
                    format!(
                        "{} bytes is not a multiple of the 512-byte sector, which {UNBUFFERED} needs; use --buffered or a multiple of 512",
                        b.size
                    ),
                );
            }
        }
        if let Some(a) = self.align {
            if a == 0 || (self.direct && a % 512 != 0) {
                return usage(
                    "--align",
                    format!("{a} is not allowed; use a positive multiple of 512 (any positive size with --buffered)"),
                );
            }
        }
        if self.size == 0 {
            return usage("--size", "must be more than 0");
        }
        if self.direct && !self.offset.is_multiple_of(512) {
            return usage(
                "--offset",
                format!("{} is not a multiple of the 512-byte sector, which {UNBUFFERED} needs", self.offset),
            );
        }
        for (opt, v) in [("--rate-iops", self.rate_iops), ("--rate-mbps", self.rate_mbps)] {
            if let Some(v) = v {
                if !(v.is_finite() && v > 0.0) {
                    return usage(opt, format!("{v} is not allowed; use a number above 0"));
                }
            }
        }
        if self.rate_iops.is_some() && self.rate_mbps.is_some() {
            return usage("--rate-mbps", "use either --rate-iops or --rate-mbps, not both");
        }
        self.validate_shaping()?;
        if self.trim && (self.read_pct != 0 || self.fsync_every > 0) {
            return usage("--rw", "a trim test only trims: no reads, writes or fsyncs with it");
        }
        if self.verify.is_some() {
            self.validate_verify()?;
        }
        Ok(())
    }

    /// Verification checks pages: every block size a multiple of the 512-byte unit (the
    /// target's logical block size is checked when it is opened), the page their common
    /// divisor, and real I/O.
    fn validate_verify(&self) -> R<()> {
        if let Some(b) = self.all_blocks().find(|b| !b.size.is_multiple_of(super::verify::MIN_UNIT as u64)) {
            return usage("--bs", format!("{} bytes is not a multiple of 512, the unit --verify stamps", b.size));
        }
        let page = self.verify_page();
        if self.trim {
            return usage("--verify", "trims leave no data to check");
        }
        if self.trim_write {
            return usage("--verify", "is not supported with trim+write pairs (trimwrite, randtrimwrite)");
        }
        if self.engine == EngineKind::Null {
            return usage("--verify", "needs an engine that transfers data (io_uring or psync), not null");
        }
        if !self.effective_align().is_multiple_of(page) {
            return usage("--align", format!("with --verify offsets must be whole pages: use a multiple of {page}"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;

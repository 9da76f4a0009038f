//! CPU cost of a run: this process's user/system time (getrusage) and every CPU's
//! busy/user/kernel/idle split over the same window (/proc/stat), as DiskSpd's CPU table.

use serde::{Deserialize, Serialize};
use std::time::Duration;

#[derive(Debug, Clone, Default)]
pub struct CpuSnapshot {
    user: Duration,
    system: Duration,
    /// Per CPU: (user+nice, system+irq+softirq, idle+iowait, total) in clock ticks.
    per_cpu: Vec<[u64; 4]>,
}

/// The CPU figures of one test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CpuStats {
    /// Logical CPUs of the host.
    pub cores: u32,
    /// iolens's own user time as a percentage of all CPUs' time in the window.
    pub user_pct: f64,
    /// iolens's own system (kernel) time as a percentage of all CPUs' time.
    pub system_pct: f64,
    /// iolens's CPU time (user + system) per I/O, µs.
    pub us_per_io: Option<f64>,
    /// Every CPU's usage over the window, whoever used it (DiskSpd's per-CPU table).
    pub per_cpu: Vec<CpuLine>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CpuLine {
    pub cpu: u32,
    pub usage_pct: f64,
    pub user_pct: f64,
    pub kernel_pct: f64,
    pub idle_pct: f64,
}

impl CpuSnapshot {
    pub fn take() -> CpuSnapshot {
        let (user, system) = rusage();
        CpuSnapshot { user, system, per_cpu: proc_stat() }
    }

    pub fn since(&self, start: &CpuSnapshot, wall: Duration, ios: u64) -> CpuStats {
        let cores = online_cpus();
        let all = wall.as_secs_f64() * cores as f64;
        let u = self.user.saturating_sub(start.user).as_secs_f64();
        let s = self.system.saturating_sub(start.system).as_secs_f64();
        let pct = |x: f64| if all > 0.0 { 100.0 * x / all } else { 0.0 };
        let per_cpu = self
            .per_cpu
            .iter()
            .zip(&start.per_cpu)
            .enumerate()
            .map(|(i, (e, b))| {
                let d: Vec<f64> = (0..4).map(|k| e[k].saturating_sub(b[k]) as f64).collect();
                let t = d[3].max(1.0);
                CpuLine {
                    cpu: i as u32,
                    usage_pct: 100.0 * (t - d[2]).max(0.0) / t,
                    user_pct: 100.0 * d[0] / t,
                    kernel_pct: 100.0 * d[1] / t,
                    idle_pct: 100.0 * d[2] / t,
                }
            })
            .collect();
        CpuStats {
            cores,
            user_pct: pct(u),
            system_pct: pct(s),
            us_per_io: (ios > 0).then(|| (u + s) * 1e6 / ios as f64),
            per_cpu,
        }
    }
}

/// Logical CPUs online on the host, whatever this process is pinned to.
pub fn online_cpus() -> u32 {
    #[cfg(unix)]
    {
        // SAFETY: sysconf has no preconditions.
        let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
        if n > 0 {
            return n as u32;
        }
    }
    std::thread::available_parallelism().map(|n| n.get() as u32).unwrap_or(1)
}

#[cfg(unix)]
fn rusage() -> (Duration, Duration) {
    // SAFETY: getrusage fills the struct we pass.
    let mut r: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut r) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    (tv(r.ru_utime), tv(r.ru_stime))
}

#[cfg(not(unix))]
fn rusage() -> (Duration, Duration) {
    (Duration::ZERO, Duration::ZERO)
}

fn proc_stat() -> Vec<[u64; 4]> {
    let Ok(text) = std::fs::read_to_string("/proc/stat") else { return Vec::new() };
    text.lines()
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(|c| c.is_ascii_digit()))
        .map(|l| {
            let v: Vec<u64> = l.split_whitespace().skip(1).filter_map(|x| x.parse().ok()).collect();
            let g = |i: usize| v.get(i).copied().unwrap_or(0);
            let (user, sys, idle) = (g(0) + g(1), g(2) + g(5) + g(6), g(3) + g(4));
            [user, sys, idle, v.iter().take(8).sum()]
        })
        .collect()
}

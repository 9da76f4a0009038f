//! CPU cost of a run: this process's user/system time (getrusage; GetProcessTimes on Windows)
//! and every CPU's busy/user/kernel/idle split over the same window (/proc/stat; ntdll's
//! processor performance counters on Windows), as DiskSpd's CPU table.

use serde::{Deserialize, Serialize};
use std::time::Duration;

#[derive(Debug, Clone, Default)]
pub struct CpuSnapshot {
    user: Duration,
    system: Duration,
    /// Per CPU: (user+nice, system+irq+softirq, idle+iowait, total) in clock ticks (100 ns
    /// units on Windows); only differences between two snapshots mean anything.
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
        CpuSnapshot { user, system, per_cpu: per_cpu_times() }
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

#[cfg(windows)]
fn rusage() -> (Duration, Duration) {
    use windows_sys::Win32::Foundation::FILETIME;
    use windows_sys::Win32::System::Threading::{GetCurrentProcess, GetProcessTimes};
    let zero = FILETIME { dwLowDateTime: 0, dwHighDateTime: 0 };
    let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
    // SAFETY: the pseudo-handle of this process and four FILETIMEs to fill.
    let ok = unsafe { GetProcessTimes(GetCurrentProcess(), &mut created, &mut exited, &mut kernel, &mut user) };
    if ok == 0 {
        return (Duration::ZERO, Duration::ZERO);
    }
    let d = |f: FILETIME| Duration::from_nanos((u64::from(f.dwHighDateTime) << 32 | u64::from(f.dwLowDateTime)) * 100);
    (d(user), d(kernel))
}

// Under wine /proc/stat is readable through drive Z:, but it is the Linux host's, not what
// Windows reports: the Windows build never looks there.
#[cfg(unix)]
fn per_cpu_times() -> Vec<[u64; 4]> {
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

/// Every CPU's times since boot (of the calling thread's processor group, as DiskSpd without
/// group awareness sees them); empty where ntdll refuses.
#[cfg(windows)]
fn per_cpu_times() -> Vec<[u64; 4]> {
    use windows_sys::Wdk::System::SystemInformation::{
        NtQuerySystemInformation, SystemProcessorPerformanceInformation,
    };
    use windows_sys::Win32::System::WindowsProgramming::SYSTEM_PROCESSOR_PERFORMANCE_INFORMATION as Perf;
    let size = std::mem::size_of::<Perf>();
    let mut buf = vec![Perf::default(); online_cpus().max(1) as usize];
    let mut len = 0u32;
    // SAFETY: a buffer of `buf.len()` entries, its length in bytes, and a count to fill.
    let mut status = unsafe {
        NtQuerySystemInformation(
            SystemProcessorPerformanceInformation,
            buf.as_mut_ptr().cast(),
            (buf.len() * size) as u32,
            &mut len,
        )
    };
    if status < 0 && len as usize > buf.len() * size {
        // More processors than online_cpus counted (another group's): size by the answer.
        buf = vec![Perf::default(); (len as usize).div_ceil(size)];
        // SAFETY: as above, with the length ntdll asked for.
        status = unsafe {
            NtQuerySystemInformation(
                SystemProcessorPerformanceInformation,
                buf.as_mut_ptr().cast(),
                (buf.len() * size) as u32,
                &mut len,
            )
        };
    }
    if status < 0 {
        return Vec::new();
    }
    buf.truncate(len as usize / size);
    buf.iter().map(|p| split_times(p.IdleTime, p.KernelTime, p.UserTime)).collect()
}

/// One CPU's Windows times as /proc/stat's split: Windows counts idle time inside kernel time,
/// so kernel is KernelTime − IdleTime and the total is UserTime + KernelTime.
#[cfg(any(windows, test))]
fn split_times(idle: i64, kernel: i64, user: i64) -> [u64; 4] {
    let (idle, kernel, user) = (idle.max(0) as u64, kernel.max(0) as u64, user.max(0) as u64);
    [user, kernel.saturating_sub(idle), idle.min(kernel), user + kernel]
}

#[cfg(test)]
mod tests;

//! Workers held to CPUs (DiskSpd's default thread affinity, `-a`): the CPUs this process may
//! run on, and a worker thread held to one of them. Linux's sched_setaffinity; on Windows,
//! SetThreadAffinityMask within the process's processor group (the first 64 CPUs).

/// The CPUs this process may run on, ascending; empty where the OS does not say.
pub fn allowed() -> Vec<u32> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: a zeroed cpu_set_t is a valid empty set, which sched_getaffinity fills.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        if unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) } != 0 {
            return Vec::new();
        }
        let max = 8 * std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: CPU_ISSET reads the set within its size.
        (0..max).filter(|&c| unsafe { libc::CPU_ISSET(c, &set) }).map(|c| c as u32).collect()
    }
    #[cfg(windows)]
    {
        use windows_sys::Win32::System::Threading::{GetCurrentProcess, GetProcessAffinityMask};
        let (mut process, mut system) = (0usize, 0usize);
        // SAFETY: two masks to fill, for the pseudo-handle of this process.
        if unsafe { GetProcessAffinityMask(GetCurrentProcess(), &mut process, &mut system) } == 0 {
            return Vec::new();
        }
        (0..usize::BITS).filter(|&c| process & (1usize << c) != 0).collect()
    }
    #[cfg(not(any(target_os = "linux", windows)))]
    {
        Vec::new()
    }
}

/// Holds the calling thread to `cpu`.
pub fn pin(cpu: u32) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        if cpu as usize >= 8 * std::mem::size_of::<libc::cpu_set_t>() {
            return Err(std::io::Error::from_raw_os_error(libc::EINVAL));
        }
        // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET stays within it (checked above).
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        unsafe { libc::CPU_SET(cpu as usize, &mut set) };
        // SAFETY: pid 0 is the calling thread; the set is sized as passed.
        match unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) } {
            0 => Ok(()),
            _ => Err(std::io::Error::last_os_error()),
        }
    }
    #[cfg(windows)]
    {
        use windows_sys::Win32::System::Threading::{GetCurrentThread, SetThreadAffinityMask};
        if cpu >= usize::BITS {
            return Err(std::io::Error::from_raw_os_error(87)); // ERROR_INVALID_PARAMETER
        }
        // SAFETY: the pseudo-handle of the calling thread and a one-CPU mask.
        match unsafe { SetThreadAffinityMask(GetCurrentThread(), 1usize << cpu) } {
            0 => Err(std::io::Error::last_os_error()),
            _ => Ok(()),
        }
    }
    #[cfg(not(any(target_os = "linux", windows)))]
    {
        let _ = cpu;
        Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
    }
}

/// Holds worker `w` to its CPU of `cpus` (round robin); nothing when `cpus` is empty. Asked for,
/// so never dropped in silence: a CPU the process may not use ends the worker with the reason.
pub fn hold_worker(cpus: &[u32], w: usize) -> Result<(), String> {
    let Some(&cpu) = cpus.get(w % cpus.len().max(1)) else { return Ok(()) };
    pin(cpu).map_err(|e| format!("holding worker {w} to CPU {cpu}: {e}"))
}

#[cfg(test)]
mod tests;

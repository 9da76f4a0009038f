//! Facts about the machine that job files may name (fio's $pagesize, $mb_memory, $ncpus), read
//! where the OS keeps them.

#[cfg(unix)]
fn conf(name: libc::c_int) -> i64 {
    // SAFETY: sysconf only reads system configuration.
    unsafe { libc::sysconf(name) as i64 }
}

/// Bytes.
pub fn page_size() -> i64 {
    #[cfg(unix)]
    {
        conf(libc::_SC_PAGESIZE)
    }
    #[cfg(windows)]
    {
        use windows_sys::Win32::System::SystemInformation::{GetSystemInfo, SYSTEM_INFO};
        let mut info = SYSTEM_INFO::default();
        // SAFETY: GetSystemInfo fills the struct it is given and cannot fail.
        unsafe { GetSystemInfo(&mut info) };
        i64::from(info.dwPageSize)
    }
}

/// Physical memory, MiB.
pub fn memory_mib() -> i64 {
    #[cfg(unix)]
    {
        conf(libc::_SC_PHYS_PAGES).saturating_mul(conf(libc::_SC_PAGESIZE)) >> 20
    }
    #[cfg(windows)]
    {
        physical_memory().map_or(0, |(total, _)| (total >> 20) as i64)
    }
}

pub fn cpus_configured() -> i64 {
    #[cfg(unix)]
    {
        conf(libc::_SC_NPROCESSORS_CONF)
    }
    #[cfg(not(unix))]
    {
        std::thread::available_parallelism().map_or(1, |n| n.get() as i64)
    }
}

/// (installed, available) physical memory in bytes, as Task Manager counts them.
#[cfg(windows)]
pub fn physical_memory() -> Option<(u64, u64)> {
    use windows_sys::Win32::System::SystemInformation::{GlobalMemoryStatusEx, MEMORYSTATUSEX};
    let mut m = MEMORYSTATUSEX { dwLength: std::mem::size_of::<MEMORYSTATUSEX>() as u32, ..Default::default() };
    // SAFETY: a struct whose dwLength names its size, as the call requires.
    (unsafe { GlobalMemoryStatusEx(&mut m) } != 0).then_some((m.ullTotalPhys, m.ullAvailPhys))
}

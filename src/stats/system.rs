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
    #[cfg(not(unix))]
    {
        4096
    }
}

/// Physical memory, MiB.
pub fn memory_mib() -> i64 {
    #[cfg(unix)]
    {
        conf(libc::_SC_PHYS_PAGES).saturating_mul(conf(libc::_SC_PAGESIZE)) >> 20
    }
    #[cfg(not(unix))]
    {
        0
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

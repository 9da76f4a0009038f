//! The run's clock, and the local time zone, which reports in fio's layout print times in.

/// Nanoseconds since a run started, as every worker and the supervisor read them: from the
/// CPU's invariant time-stamp counter where there is one (calibrated to the OS monotonic
/// clock to well under a part per million), else from the OS monotonic clock.
#[derive(Clone)]
pub struct RunClock {
    clock: quanta::Clock,
    start: u64,
}

impl RunClock {
    /// Starts the clock at 0 now.
    pub fn start() -> RunClock {
        let clock = quanta::Clock::new();
        let start = clock.raw();
        RunClock { clock, start }
    }

    #[inline]
    pub fn ns(&self) -> u64 {
        self.clock.delta_as_nanos(self.start, self.clock.raw())
    }
}

/// Seconds east of UTC of the local time zone at `t` (fio prints local time).
#[cfg(unix)]
pub fn utc_offset(t: i64) -> i64 {
    let tt = t as libc::time_t;
    // SAFETY: localtime_r only writes the tm we pass, and a zeroed tm is a valid value.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let ok = !unsafe { libc::localtime_r(&tt, &mut tm) }.is_null();
    if ok {
        tm.tm_gmtoff as i64
    } else {
        0
    }
}

#[cfg(not(unix))]
pub fn utc_offset(_: i64) -> i64 {
    0
}

//! The run's clock, and the local time zone, which reports in fio's layout print times in.

/// Nanoseconds since a run started, as every worker and the supervisor read them: from the
/// CPU's time-stamp counter where the kernel itself keeps time by it (its clocksource is `tsc`,
/// so the counter is invariant and in step across CPUs), else from the OS monotonic clock.
#[derive(Clone)]
pub struct RunClock {
    from: From,
    /// The same moment on the OS clock, for what is timed by `Instant` (a run's t0).
    origin: std::time::Instant,
}

#[derive(Clone)]
enum From {
    /// Counter at the start, and nanoseconds per tick as a 32.32 fixed-point factor.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    Tsc {
        start: u64,
        mult: u64,
    },
    Os(std::time::Instant),
}

impl RunClock {
    /// Starts the clock at 0 now. The first clock of a process is calibrated first (20 ms);
    /// `calibrate` does that ahead of time.
    pub fn start() -> RunClock {
        #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
        if let Some(mult) = *tsc::MULT.get_or_init(tsc::calibrate) {
            let (start, origin) = (tsc::read(), std::time::Instant::now());
            return RunClock { from: From::Tsc { start, mult }, origin };
        }
        let origin = std::time::Instant::now();
        RunClock { from: From::Os(origin), origin }
    }

    /// Calibrates the counter now, so that a later `start` takes no time.
    pub fn calibrate() {
        #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
        tsc::MULT.get_or_init(tsc::calibrate);
    }

    /// When the clock read 0, on the OS clock.
    pub fn origin(&self) -> std::time::Instant {
        self.origin
    }

    #[inline]
    pub fn ns(&self) -> u64 {
        match self.from {
            #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
            From::Tsc { start, mult } => ((tsc::read().saturating_sub(start) as u128 * mult as u128) >> 32) as u64,
            From::Os(t) => t.elapsed().as_nanos() as u64,
        }
    }
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod tsc {
    use std::time::{Duration, Instant};

    /// Once per process: the counter's nanoseconds per tick (32.32), or None to use the OS clock.
    pub static MULT: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();

    #[inline]
    pub fn read() -> u64 {
        // SAFETY: rdtsc exists on every x86_64 CPU and only reads the counter.
        unsafe { core::arch::x86_64::_rdtsc() }
    }

    /// The counter against the OS clock over 20 ms. Each end is the tightest of many bracketed
    /// reads (OS clock, counter, OS clock), so a preemption at either end, which on a busy
    /// machine skewed a sub-millisecond calibration by 5 %, costs a retry and not accuracy:
    /// with brackets under 2 µs the factor is within 10^-4, typically a few parts per million.
    pub fn calibrate() -> Option<u64> {
        let source = std::fs::read_to_string("/sys/devices/system/clocksource/clocksource0/current_clocksource");
        if source.ok()?.trim() != "tsc" {
            return None;
        }
        let epoch = Instant::now();
        let (t0, c0) = pair(epoch)?;
        std::thread::sleep(Duration::from_millis(20));
        let (t1, c1) = pair(epoch)?;
        let ns_per_tick = (t1 - t0) / c1.checked_sub(c0).filter(|&d| d > 0)? as f64;
        // A counter between 100 MHz and 20 GHz; anything else is not a clock to trust.
        (0.05..=10.0).contains(&ns_per_tick).then(|| (ns_per_tick * 4_294_967_296.0).round() as u64)
    }

    /// (ns since `epoch` at the middle of the bracket, counter) from the tightest of 64 tries.
    fn pair(epoch: Instant) -> Option<(f64, u64)> {
        let mut best: Option<(u64, f64, u64)> = None;
        for _ in 0..64 {
            let a = epoch.elapsed().as_nanos() as u64;
            let c = read();
            let b = epoch.elapsed().as_nanos() as u64;
            let w = b.saturating_sub(a);
            if best.is_none_or(|(bw, _, _)| w < bw) {
                best = Some((w, (a as f64 + b as f64) / 2.0, c));
            }
        }
        best.filter(|&(w, _, _)| w < 2_000).map(|(_, t, c)| (t, c))
    }
}

/// Seconds east of UTC of the local time zone at `t` (fio prints local time).
#[cfg(unix)]
pub fn utc_offset(t: i64) -> i64 {
    // libc marks musl's time_t as about to become 64-bit; the cast follows whichever it is.
    #[allow(deprecated)]
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

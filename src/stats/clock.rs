//! The local time zone, which reports in fio's layout print times in.

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

//! BypassIO (DiskSpd 2.3's `-Sy`, `-SY`): a handle's reads skip the file system's filters and,
//! where every driver below allows it, the storage stack as well. Asked for on each handle an
//! engine opens, as DiskSpd asks on each of its own; the messages are 2.3's, so that a script
//! reading DiskSpd's errors reads these.

use crate::workload::Bypass;
use std::io;
use std::path::Path;
use windows_sys::Win32::Foundation::{ERROR_INVALID_FUNCTION, HANDLE};
use windows_sys::Win32::System::Ioctl::{
    FSCTL_MANAGE_BYPASS_IO, FS_BPIO_INPUT, FS_BPIO_OPERATIONS, FS_BPIO_OP_ENABLE, FS_BPIO_OP_QUERY, FS_BPIO_OUTPUT,
    FS_BPIO_RESULTS,
};
use windows_sys::Win32::System::IO::DeviceIoControl;

/// Enables BypassIO on `h` and checks how far it reaches. Ok holds the warning to show when
/// only the filters are bypassed and `mode` allows that; Err the lines that end the run.
pub fn enable(h: HANDLE, path: &Path, mode: Bypass) -> Result<Option<String>, String> {
    let path = path.display();
    let on = manage(h, FS_BPIO_OP_ENABLE).map_err(|code| failed("enabling", &path, code))?;
    if !nt_success(on.OpStatus) {
        return Err(format!(
            "Error enabling BypassIO on file: {path} (status 0x{:08x}: {})\n{}",
            on.OpStatus,
            message(on.OpStatus),
            culprit(&on)
        ));
    }
    // Enabling succeeds as soon as the filters can be skipped; only the query says whether
    // the storage stack is bypassed too.
    let q = manage(h, FS_BPIO_OP_QUERY).map_err(|code| failed("querying", &path, code))?;
    if nt_success(q.OpStatus) {
        return Ok(None);
    }
    let warning = format!(
        "Warning: BypassIO is not fully enabled on file: {path} (status 0x{:08x}: {})\n{}",
        q.OpStatus,
        message(q.OpStatus),
        culprit(&q)
    );
    match mode {
        Bypass::Partial => Ok(Some(warning)),
        Bypass::Full => Err(format!(
            "{warning}\nError: BypassIO is not fully enabled. Cannot bypass both file system filters and storage \
             stack. Use -Sy to allow partial bypass."
        )),
    }
}

/// One FSCTL_MANAGE_BYPASS_IO call: the operation's results, or the Win32 error of the call.
fn manage(h: HANDLE, op: FS_BPIO_OPERATIONS) -> Result<FS_BPIO_RESULTS, u32> {
    let input = FS_BPIO_INPUT { Operation: op, ..Default::default() };
    let mut out = FS_BPIO_OUTPUT::default();
    let mut bytes = 0u32;
    // SAFETY: both buffers are live locals of the sizes passed; the call is synchronous.
    let ok = unsafe {
        DeviceIoControl(
            h,
            FSCTL_MANAGE_BYPASS_IO,
            (&input as *const FS_BPIO_INPUT).cast(),
            size_of::<FS_BPIO_INPUT>() as u32,
            (&mut out as *mut FS_BPIO_OUTPUT).cast(),
            size_of::<FS_BPIO_OUTPUT>() as u32,
            &mut bytes,
            std::ptr::null_mut(),
        )
    } != 0;
    if !ok {
        return Err(io::Error::last_os_error().raw_os_error().unwrap_or(0) as u32);
    }
    // SAFETY: enable and query both answer in the union's FS_BPIO_RESULTS arm.
    Ok(unsafe {
        if op == FS_BPIO_OP_ENABLE {
            out.Anonymous.Enable
        } else {
            out.Anonymous.Query
        }
    })
}

fn failed(doing: &str, path: &impl std::fmt::Display, code: u32) -> String {
    let mut s = format!("Error {doing} BypassIO on file: {path} (error {code}: {})", message(code));
    if code == ERROR_INVALID_FUNCTION {
        s.push_str("\nBypassIO requires Windows 11 or later and is only supported by the NTFS file system.");
    }
    s
}

fn nt_success(status: u32) -> bool {
    (status as i32) >= 0
}

/// The system's text for a code, without std's " (os error N)" tail.
pub fn message(code: u32) -> String {
    let s = io::Error::from_raw_os_error(code as i32).to_string();
    match s.rfind(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// The driver that refused, and why, as the file system reports them.
fn culprit(r: &FS_BPIO_RESULTS) -> String {
    let text = |w: &[u16], n: u16| String::from_utf16_lossy(&w[..(n as usize).min(w.len())]);
    format!(
        "Failing driver: {}\nFailure reason: {}",
        text(&r.FailingDriverName, r.FailingDriverNameLen),
        text(&r.FailureReason, r.FailureReasonLen)
    )
}

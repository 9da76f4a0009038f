//! Errors and the exit codes they map to, once, in `main`. A `UsageError` is what a user can fix
//! by changing what they typed: one line naming the option and what it accepts, exit code 2;
//! everything else is an `anyhow` error (exit 1), or `Interrupted` (130). A write that fails
//! while a measurement goes on is kept for the end instead (`defer_write_failure`, exit 4).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError {
    /// The option as typed on the command line, e.g. "--bs", or the target path.
    pub option: String,
    pub message: String,
    /// The message is the whole line, worded as the tool a front end stands in for words it
    /// (DiskSpd's "ERROR: …"), so it is printed as it is.
    pub worded: bool,
}

impl UsageError {
    pub fn new(option: impl Into<String>, message: impl Into<String>) -> Self {
        UsageError { option: option.into(), message: message.into(), worded: false }
    }

    /// A whole line in another tool's wording; `line` must name the option itself.
    pub fn worded(option: impl Into<String>, line: impl Into<String>) -> Self {
        UsageError { option: option.into(), message: line.into(), worded: true }
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.worded {
            return f.write_str(&self.message);
        }
        write!(f, "{}: {}", self.option, self.message)
    }
}

impl std::error::Error for UsageError {}

/// Shorthand for an `Err(UsageError)`.
pub fn usage<T>(option: &str, message: impl Into<String>) -> Result<T, UsageError> {
    Err(UsageError::new(option, message))
}

/// The run was stopped by Ctrl-C (or SIGTERM) before it measured anything.
#[derive(Debug)]
pub struct Interrupted;

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

/// Exit codes: 0 success, 1 failure, 2 bad input, 3 data verification found bad pages or log
/// records, 4 measured but not all written, 130 interrupted (as shells report Ctrl-C).
pub const EXIT_FAIL: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
/// Data verification found bad pages (lost, torn, misdirected, corrupt or never read).
pub const EXIT_FINDINGS: i32 = 3;
/// The measurement stands, but a file or the store it was to be written to could not be
/// written (disk full, read-only, locked): what could be written was.
pub const EXIT_WRITE: i32 = 4;
pub const EXIT_INTERRUPTED: i32 = 130;

/// The writes that failed while a command went on; `after_writes` reports them at the end.
static WRITE_FAILURES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Keeps `line` (the file and why) to fail the command once it is done, so a log or trace
/// that cannot be written costs neither the measurement nor the other outputs.
pub fn defer_write_failure(line: String) {
    let mut f = WRITE_FAILURES.lock().unwrap_or_else(|e| e.into_inner());
    // A series of tests meets the same full disk once per test: said once.
    if !f.contains(&line) {
        f.push(line);
    }
}

/// The exit code once the command is done: writes that failed on the way are printed as one
/// line and turn success into `EXIT_WRITE`; a failure, findings or an interruption keep
/// their own code.
pub fn after_writes(code: i32) -> i32 {
    let failed = std::mem::take(&mut *WRITE_FAILURES.lock().unwrap_or_else(|e| e.into_inner()));
    if failed.is_empty() {
        return code;
    }
    eprintln!("error: {}", one_line(&failed.join("; ")));
    if code == 0 {
        EXIT_WRITE
    } else {
        code
    }
}

/// Prints an error the iolens way (one line) and returns its exit code.
pub fn exit_code(e: &anyhow::Error) -> i32 {
    if let Some(u) = e.downcast_ref::<UsageError>() {
        if u.worded {
            eprintln!("{}", one_line(&u.to_string()));
        } else {
            eprintln!("error: {}", one_line(&u.to_string()));
        }
        return EXIT_USAGE;
    }
    if e.downcast_ref::<Interrupted>().is_some() {
        eprintln!("interrupted");
        return EXIT_INTERRUPTED;
    }
    eprintln!("error: {}", one_line(&format!("{e:#}")));
    EXIT_FAIL
}

/// An error as one line: control characters a user's text brought in (a newline in a value,
/// an escape sequence in a file name) are shown escaped, so they can neither split the line
/// nor drive the terminal.
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

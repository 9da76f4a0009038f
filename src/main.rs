fn main() {
    // A closed pipe (`iolens show 3 | head`) ends the program quietly, as it does for cat.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // A stdout that cannot be written (`> /dev/full`) makes print! panic: that is a failed
    // write like any other, said in one line at the end, not a crash with a backtrace.
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if stdout_failure(info.payload()).is_none() {
            default(info)
        }
    }));
    // Every error becomes its exit code here, once.
    let code = match std::panic::catch_unwind(iolens::cli::main) {
        Ok(r) => r.unwrap_or_else(|e| iolens::error::exit_code(&e)),
        Err(p) => match stdout_failure(&*p) {
            Some(line) => {
                iolens::error::defer_write_failure(line);
                0
            }
            None => std::panic::resume_unwind(p),
        },
    };
    let code = iolens::error::after_writes(code);
    std::process::exit(code);
}

/// The one line for std's "failed printing to stdout: …" panic, if that is what `payload` is.
fn stdout_failure(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    let text = payload.downcast_ref::<String>().map(String::as_str).or(payload.downcast_ref::<&str>().copied())?;
    text.strip_prefix("failed printing to stdout: ").map(|why| format!("writing to stdout: {why}"))
}

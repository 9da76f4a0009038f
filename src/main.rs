fn main() {
    // A closed pipe (`iolens show 3 | head`) ends the program quietly, as it does for cat.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Every error becomes its exit code here, once.
    let code = iolens::cli::main().unwrap_or_else(|e| iolens::error::exit_code(&e));
    let code = iolens::error::after_writes(code);
    std::process::exit(code);
}

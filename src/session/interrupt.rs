//! Ctrl-C and SIGTERM during a run: the first stops it and keeps what was measured, the second
//! removes the test files and exits at once.

use crate::error::EXIT_INTERRUPTED;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Set by `--mpi` (unless --keep): the first Ctrl-C or SIGTERM removes the test files at once.
/// mpirun kills the ranks a second after it stopped them, or within tens of milliseconds when
/// three or more ranks died at once, and a rank may be stuck sending to a rank 0 that is gone;
/// workers still running lose only the names of their files.
pub static REMOVE_AT_STOP: AtomicBool = AtomicBool::new(false);

/// Ctrl-C (and SIGTERM) set a flag the runner polls; a second one removes the test files and
/// exits at once. One flag per process: every call returns it (a handler can be set only once,
/// and `--mpi` needs the flag before the targets are prepared).
pub fn install_interrupt() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        let _ = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::SeqCst) {
                crate::targets::remove_all_created();
                std::process::exit(EXIT_INTERRUPTED);
            }
            if REMOVE_AT_STOP.load(Ordering::SeqCst) {
                crate::targets::remove_all_created();
            }
        });
        flag
    })
    .clone()
}

//! fio job-file text (sections, includes, `${VAR}`, every option iolens knows) → jobs or a
//! one-line error; each job's spec survives JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // No environment and a base directory that does not exist: runs stay reproducible.
    if let Ok(jobs) = iolens::frontends::fio::parse_job_text(text, Path::new("/nonexistent/iolens-fuzz"), &|_| None) {
        for j in &jobs {
            common::spec_round_trip(&j.spec);
        }
    }
});

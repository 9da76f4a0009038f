//! A DiskSpd command line (`-b4K -t2 -o32 -r -w25 -c1G target`), one argument per line → a
//! job or a one-line error; the spec survives JSON. `-X` is diskspd_xml's.
#![no_main]

use iolens::error::UsageError;
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Some(args) = common::args(data) else { return };
    let no_file = |f: &str| Err(UsageError::new("-X", format!("{f}: no profile while fuzzing the line")));
    if let Ok(job) = iolens::frontends::diskspd::parse_reading(&args, &no_file) {
        common::spec_round_trip(&job.spec);
    }
});

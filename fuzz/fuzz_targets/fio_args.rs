//! fio's command line (`--name=j --rw=randread --bs 4k …`), one argument per line → jobs or a
//! one-line error; each job's spec survives JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Some(args) = common::args(data) else { return };
    // An argument that is not an option names a job file to read: the file system is not fuzzed.
    if args.iter().any(|a| !a.starts_with('-')) {
        return;
    }
    if let Ok(jobs) = iolens::frontends::fio::parse_args(&args) {
        for j in &jobs {
            common::spec_round_trip(&j.spec);
        }
    }
});

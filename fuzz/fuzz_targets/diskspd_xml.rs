//! A DiskSpd XML profile (`-Xprofile.xml`, or a whole `-Rxml` result): the first line holds
//! the options and targets added on the command line (space-separated), the rest is the
//! profile's text → a job or a one-line error; every time span's spec survives JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (line, xml) = text.split_once('\n').unwrap_or(("", text));
    let mut args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    args.insert(0, "-Xprofile.xml".into());
    if let Ok(job) = iolens::frontends::diskspd::parse_reading(&args, &|_| Ok(xml.to_string())) {
        common::spec_round_trip(&job.spec);
        job.later.iter().for_each(common::spec_round_trip);
    }
});

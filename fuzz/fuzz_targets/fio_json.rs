//! fio's JSON output (`--output-format=json`/`json+`) → an iolens result or a one-line error;
//! an accepted result survives JSON and the store.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    if let Ok(r) = iolens::frontends::fio::from_fio_json(&doc, "fuzz.json", Some("host")) {
        common::round_trip(&r);
    }
});

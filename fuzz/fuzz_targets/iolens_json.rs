//! What `import` and `compare` read: iolens' result JSON, or fio's told apart by its "fio
//! version" key, notes before the JSON allowed → a result or a one-line error; an accepted
//! result survives JSON and the store.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(r) = iolens::frontends::import::from_text(text, "fuzz.json", "fuzz.json", None) {
        common::round_trip(&r);
    }
});

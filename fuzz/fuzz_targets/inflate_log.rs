//! fio's `log_store_compressed` files (`--inflate-log FILE`): zlib streams of binary samples →
//! fio's text log or a one-line error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = iolens::run::inflate_log(data);
});

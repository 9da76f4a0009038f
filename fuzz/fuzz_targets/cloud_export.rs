//! A cloud tool's export (`az vm list-skus`, Azure Retail Prices, `aws ec2
//! describe-instance-types`, `aws pricing get-products`, a CSV of one's own) → rows and prices,
//! or a one-line error; what is read merges into a user's catalog that still reads back.
#![no_main]

use iolens::analyze::catalog::{import, user_text, Catalog, Source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(got) = import::parse(text) else { return };
    let shipped = Catalog::built_in();
    let mut user = Catalog::default();
    let source = Source { id: "I1".into(), reference: "fuzz".into(), url: None, read: None };
    let _ = import::merge(&mut user, &shipped, got, source);
    // What import keeps must read back: user_text checks that and says so if not.
    if let Err(e) = user_text(&user) {
        panic!("{e}");
    }
});

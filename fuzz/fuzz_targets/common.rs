//! What every target checks of an accepted value beyond "no panic": it survives the trip
//! through JSON and through the store unchanged, as every result iolens keeps must.

#![allow(dead_code)] // each target uses its part

use iolens::result::RunResult;
use iolens::store::Store;
use iolens::workload::Spec;
use std::cell::RefCell;

thread_local! {
    /// One in-memory store for the whole run: opening one per input would dominate the time.
    static STORE: RefCell<Store> =
        RefCell::new(Store::open(std::path::Path::new(":memory:")).expect("an in-memory store opens"));
}

/// The result back from its JSON and from the store equals the result.
pub fn round_trip(r: &RunResult) {
    let json = serde_json::to_string(r).expect("a result serializes");
    let back: RunResult = serde_json::from_str(&json).unwrap_or_else(|e| panic!("its JSON does not read back: {e}"));
    assert_eq!(&back, r, "the result changed through JSON");
    STORE.with(|s| {
        let mut s = s.borrow_mut();
        let id = s.save(r).expect("the store saves it");
        let loaded = s.load(id).expect("the store loads it").expect("saved");
        assert_eq!(&loaded, r, "the result changed through the store");
        s.delete(id).expect("deleted");
    });
}

/// A spec goes into every result it runs: it must come back from JSON the same.
pub fn spec_round_trip(s: &Spec) {
    let json = serde_json::to_string(s).expect("a spec serializes");
    let back: Spec = serde_json::from_str(&json).unwrap_or_else(|e| panic!("its JSON does not read back: {e}: {json}"));
    assert_eq!(&back, s, "the spec changed through JSON");
}

/// Arguments, one per line (so any byte but a newline can be inside one).
pub fn args(data: &[u8]) -> Option<Vec<String>> {
    let text = std::str::from_utf8(data).ok()?;
    Some(text.lines().map(str::to_string).collect())
}

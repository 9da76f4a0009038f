//! Data verification: every unit written carries a stamp (file, address, generation, CRC-32C);
//! reads are checked against the last acknowledged generation of their page, and a bad page is
//! classified as corrupt, torn, stale (a lost write), misdirected or never read.
//!
//! - `stamp`: the on-disk layout of a stamped unit;
//! - `check`: classifies a page read back;
//! - `pattern`: fio's verify=pattern, a block holding a given pattern and no stamp;
//! - `pages`: the lock-free map of acknowledged generations that workers claim pages from;
//! - `state`: fio's verify state file (how far a job's writes got).

pub mod check;
pub mod pages;
pub mod pattern;
pub mod stamp;
pub mod state;

pub use check::{check_page, Bad, Expect};
pub use pages::PageMap;
pub use stamp::{mark_unread, read_unit, stamp_page, Stamp, Unit};

//! iolens: measure what a disk, volume or VM can really do, and explain why.
//!
//! Flow: the command line (`cli`), alone or through a peer's syntax in [`frontends`], produces
//! a [`workload::Spec`]; [`targets`] checks and prepares the
//! files; [`run`] drives one [`engine`] per worker and records into [`stats`]; the merged
//! [`result::RunResult`] is what every [`report`] reads.
//!
//! Unit tests: a module's live in `tests.rs` in the module's own folder, declared
//! `#[cfg(test)] mod tests;` (`NAME/tests.rs` beside `NAME.rs`, `dir/tests.rs` beside
//! `dir/mod.rs`); `tests/layering.rs` holds every file to it.

pub mod analyze;
pub mod cli;
pub mod cluster;
pub mod compare;
pub mod engine;
pub mod error;
pub mod frontends;
pub mod input;
pub mod report;
pub mod result;
pub mod run;
pub mod session;
pub mod simdb;
pub mod stats;
pub mod store;
pub mod targets;
#[cfg(test)]
pub(crate) mod testing;
pub mod verify;
pub mod workload;
// testing.rs is also included by path into the integration tests, which must not pull its
// tests in: they are declared here instead of inside it.
#[cfg(test)]
mod testing_tests;

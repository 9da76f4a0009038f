//! iolens: measure what a disk, volume or VM can really do, and explain why.
//!
//! Flow: a front end (`cli`) produces a [`spec::Spec`]; [`target`] checks and prepares the
//! files; [`run`] drives one [`engine`] per worker and records into [`stats`]; the merged
//! [`result::RunResult`] is what every [`report`] reads.

pub mod analyze;
pub mod cli;
pub mod compare;
pub mod engine;
pub mod error;
pub mod report;
pub mod result;
pub mod run;
pub mod spec;
pub mod stats;
pub mod store;
pub mod target;
#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod testing_tests;

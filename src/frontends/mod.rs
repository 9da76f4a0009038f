//! Other tools' syntaxes, each read into the model ([`crate::workload`]): fio's job files,
//! command lines and JSON output, DiskSpd's command lines and XML profiles, captured traces
//! (fio's iologs, blktrace, iolens's own), and the databases' I/O counters. Nothing the model
//! flows into (the runner, the engines, the results, the store, the analysis) reads them.

pub mod counters;
pub mod diskspd;
pub mod fio;
pub mod import;
pub mod replay;

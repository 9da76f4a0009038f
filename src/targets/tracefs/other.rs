//! No block tracepoints to read outside Linux.

use crate::error::UsageError;
use std::path::Path;

pub struct BlockTrace;

impl BlockTrace {
    pub fn start(_dev: &Path) -> Result<BlockTrace, UsageError> {
        Err(UsageError::new("capture", "records the block tracepoints of Linux's tracefs; this system has none"))
    }

    pub fn read(&mut self, _buf: &mut Vec<u8>, _wait_ms: u64) -> std::io::Result<usize> {
        Ok(0)
    }

    pub fn stop(&mut self) {}
}

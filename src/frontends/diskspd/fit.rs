//! DiskSpd's check of a target against -B, -f and -T once its size is known (its
//! IORequestGenerator and TargetState::CanStart): an end (-f, or -Bbase:length) past the file
//! is cut back to the file with DiskSpd's warning; a thread whose first block would not fit
//! below the end is refused in DiskSpd's words, naming the options that put it there.

use crate::error::UsageError;
use crate::workload::Spec;
use std::path::Path;

/// The size DiskSpd would see: the -c size when the line creates the targets, else an
/// existing regular file's length. None (a device, a missing file) leaves the check to iolens'
/// own, once the target is open.
pub fn target_size(path: &Path, create_size: Option<u64>) -> Option<u64> {
    create_size.or_else(|| std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.len()))
}

/// Fits `spec`'s region to a target of `size` bytes: DiskSpd's warnings, or its refusal.
pub fn fit(spec: &mut Spec, target: &str, size: u64) -> Result<Vec<String>, UsageError> {
    let mut warnings = Vec::new();
    let mut end = size;
    if let Some(range) = spec.range {
        let max = spec.offset.saturating_add(range);
        if max > size {
            warnings.push(format!("WARNING: file size {size} is less than MaxFileSize {max}"));
            spec.range = Some(size.saturating_sub(spec.offset));
            spec.end_asked = Some(max);
        } else {
            end = max;
        }
    }
    let bs = spec.max_block();
    let first_stuck = (0..spec.threads).find(|&k| spec.worker_offset(k).saturating_add(bs) > end);
    if let Some(k) = first_stuck {
        let line = format!(
            "ERROR: The file is too small. File: '{target}' relative thread {k}: file size: {size}, base offset: {}, \
             thread stride: {}, block size: {bs}; the base offset (-B) plus the thread stride (-T) and one block (-b) \
             must end within the file and below its maximum offset (-f)",
            spec.offset, spec.offset_increment
        );
        return Err(UsageError::worded(if spec.offset_increment > 0 && k > 0 { "-T" } else { "-B" }, line));
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests;

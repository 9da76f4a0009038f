//! Unbuffered I/O (`--direct`: O_DIRECT, FILE_FLAG_NO_BUFFERING) moves whole sectors of the
//! device or volume under the target: a block size, offset or alignment that is not a multiple
//! of its sector fails each I/O (EINVAL, ERROR_INVALID_PARAMETER). The spec's own check knows
//! only the 512 bytes every device takes; this one reads the sector size and refuses before
//! any file is made.

use super::Plan;
use crate::error::{usage, UsageError};
use crate::workload::Spec;

pub(super) fn check(spec: &Spec, plan: &Plan) -> Result<(), UsageError> {
    if !spec.direct {
        return Ok(());
    }
    let Some(sector) = super::host::sector_size(&plan.path).filter(|&s| s > 512) else { return Ok(()) };
    let on = format!("the sector size of the device under {}", plan.path.display());
    if let Some(b) = spec.all_blocks().find(|b| !b.size.is_multiple_of(sector)) {
        return usage(
            "--bs",
            format!(
                "{} bytes is not a multiple of {sector}, {on}, which unbuffered I/O needs; use --buffered or a multiple of {sector}",
                b.size
            ),
        );
    }
    if !spec.offset.is_multiple_of(sector) {
        return usage("--offset", format!("{} is not a multiple of {sector}, {on}", spec.offset));
    }
    if !spec.effective_align().is_multiple_of(sector) {
        return usage("--align", format!("{} is not a multiple of {sector}, {on}", spec.effective_align()));
    }
    Ok(())
}

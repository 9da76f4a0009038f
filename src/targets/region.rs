//! What of a target a test may use: its size (the whole, or `--size` of it) and the region
//! the offsets, ranges and per-thread increments leave inside it.

use super::Plan;
use crate::error::{usage, UsageError};
use crate::workload::size::format_size;
use crate::workload::Spec;

pub(super) fn limit(actual: u64, spec: &Spec, size_given: bool, shown: &str) -> Result<u64, UsageError> {
    if size_given && spec.size > actual {
        return usage("--size", format!("{} is larger than {shown} ({} bytes)", format_size(spec.size), actual));
    }
    Ok(if size_given { spec.size } else { actual })
}

pub(super) fn check_region(spec: &Spec, plan: &Plan) -> Result<(), UsageError> {
    let range = spec.range.unwrap_or(plan.size.saturating_sub(spec.offset));
    if spec.offset >= plan.size || spec.offset.checked_add(range).is_none_or(|end| end > plan.size) {
        return usage(
            if spec.range.is_some() { "--range" } else { "--offset" },
            format!(
                "offset {} + range {range} goes past the end of {} ({} bytes)",
                spec.offset,
                plan.path.display(),
                plan.size
            ),
        );
    }
    let last = spec.worker_offset(spec.threads.saturating_sub(1));
    if spec.offset_increment > 0 {
        let len = spec.range.unwrap_or(plan.size.saturating_sub(last));
        if last >= plan.size || last.saturating_add(len) > plan.size || len < spec.max_block() {
            return usage(
                "--offset-increment",
                format!(
                    "the last thread's region (offset {last} + {len}) does not fit in {} ({} bytes)",
                    plan.path.display(),
                    plan.size
                ),
            );
        }
    }
    if range < spec.max_block() {
        return usage(
            "--range",
            format!(
                "the tested region of {} ({range} bytes) is smaller than one block ({} bytes)",
                plan.path.display(),
                spec.max_block()
            ),
        );
    }
    Ok(())
}

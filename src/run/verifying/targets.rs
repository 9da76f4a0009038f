//! The targets a run verifies: each file region's page map, stamped first when the run
//! writes it, shared by the jobs that verify the same pages.

use super::VerifyTarget;
use crate::verify::PageMap;
use std::sync::Arc;

/// The pages verified so far in a run, by file: jobs that verify the same pages of one file
/// (fio jobs sharing a `filename=`) share one map, so each expects what the others wrote.
#[derive(Default)]
pub struct Verified {
    seen: Vec<(std::path::PathBuf, Arc<VerifyTarget>, u32)>,
}

/// Stamps every target of a verifying job as generation 0 of run `run_id` and maps its pages,
/// unless an earlier job of the run verifies the same pages (then it takes that map). The
/// unit is 512 bytes or the target's logical block size, whichever is larger. Each mapped
/// file region gets its own id in the run's stamps.
pub fn prepare_targets(
    spec: &crate::workload::Spec,
    targets: &[crate::targets::Prepared],
    run_id: u64,
    stop: &std::sync::atomic::AtomicBool,
    verified: &mut Verified,
) -> anyhow::Result<Vec<(Arc<VerifyTarget>, u32)>> {
    let page = spec.verify_page();
    let mut out = Vec::with_capacity(targets.len());
    for t in targets {
        let block = t.info.logical_block_size.unwrap_or(512).max(crate::workload::verify::MIN_UNIT as u32);
        // fio's verify_interval, when the device's block divides it.
        let interval = spec.verify.as_ref().and_then(|v| v.fio.as_ref()).map_or(0, |f| f.interval);
        let unit = if interval > block && interval.is_multiple_of(block) { interval } else { block };
        if !page.is_multiple_of(unit as u64) {
            return Err(crate::error::UsageError::new(
                "--bs",
                format!(
                    "{page} bytes is not a multiple of the logical block size of {} ({unit} bytes), the unit --verify stamps",
                    t.plan.path.display()
                ),
            )
            .into());
        }
        let start = spec.offset;
        let len = spec.range.unwrap_or(t.plan.size - spec.offset);
        let pages = len / page;
        let end = start + pages * page;
        let path = std::fs::canonicalize(&t.plan.path).unwrap_or_else(|_| t.plan.path.clone());
        let mut same = verified.seen.iter().filter(|(p, ..)| *p == path);
        let earlier = same.find(|(_, v, _)| v.start < end && start < v.start + v.map.len() as u64 * v.page);
        match earlier {
            Some((_, v, u)) if (v.start, v.map.len() as u64, v.page) == (start, pages, page) => {
                out.push((Arc::clone(v), *u));
                continue;
            }
            Some((_, v, _)) => {
                return Err(crate::error::UsageError::new(
                    "verify",
                    format!(
                        "two jobs verify overlapping parts of {} with different pages ({} at {} and {} at {}); give them the same block size and region, or parts of their own",
                        t.plan.path.display(),
                        crate::workload::size::format_size(v.page),
                        v.start,
                        crate::workload::size::format_size(page),
                        start
                    ),
                )
                .into())
            }
            None => {}
        }
        let file_id = verified.seen.len() as u32;
        // A read job checks what an existing file holds; a file this run made is stamped first,
        // unless the job only verifies (fio's verify_only): then nothing was written there.
        let only = spec.verify.as_ref().and_then(|v| v.fio.as_ref()).is_some_and(|f| f.only);
        let new = t.plan.kind == crate::targets::Kind::NewFile;
        let pattern = spec.verify.as_ref().and_then(|v| v.pattern.as_ref());
        let written_by = if let Some(p) = pattern {
            // verify=pattern has no stamps to tell whose a page is: the pattern is the check.
            if spec.writes() || (new && !only) {
                let fill = |b: &mut [u8], at: u64| crate::verify::pattern::fill(b, p, at);
                crate::targets::stamped::fill_pages(&t.file, (start, end, page), stop, fill)?;
            }
            None
        } else if spec.writes() || (new && !only) {
            let region = crate::targets::stamped::Region { start, end, page, unit: unit as usize, run_id, file_id };
            crate::targets::stamped::prefill(&t.file, &region, stop)?;
            None
        } else {
            Some(crate::targets::stamped::writer(&t.file, start, end, page, unit as usize))
        };
        let map = PageMap::new(pages as usize, 0);
        let name = t.plan.path.display().to_string();
        let v = Arc::new(VerifyTarget { map, file_id, name, start, page, written_by });
        verified.seen.push((path, Arc::clone(&v), unit));
        out.push((v, unit));
    }
    Ok(out)
}

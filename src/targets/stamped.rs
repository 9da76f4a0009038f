//! Verification's starting point: every page of the tested region stamped as generation 0 of
//! this run, so that any read, even of a page never written during the run, can be checked.

use crate::engine::AlignedBuf;
use crate::verify::stamp::header_ids;
use crate::verify::{stamp_page, Stamp};
use std::fs::File;
use std::sync::atomic::{AtomicBool, Ordering};

/// What to stamp: pages of `page` bytes (units of `unit`) in [start, end) of one file.
pub struct Region {
    pub start: u64,
    pub end: u64,
    pub page: u64,
    pub unit: usize,
    pub run_id: u64,
    pub file_id: u32,
}

/// Writes generation-0 stamps over the region in 1 MiB writes (through the handle the test uses,
/// so O_DIRECT and O_DSYNC apply as they will during the run), then syncs.
pub fn prefill(f: &File, r: &Region, stop: &AtomicBool) -> anyhow::Result<()> {
    let (run_id, file_id, unit) = (r.run_id, r.file_id, r.unit);
    fill_pages(f, (r.start, r.end, r.page), stop, |page, address| {
        let s = Stamp { run_id, file_id, writer: u16::MAX, address, generation: 0, time_ns: 0 };
        stamp_page(page, unit, &s);
    })
}

/// Writes every page of [start, end) as `fill` makes it (given the page and its address),
/// a MiB at a time, then syncs.
pub fn fill_pages(
    f: &File,
    (start, end, page): (u64, u64, u64),
    stop: &AtomicBool,
    fill: impl Fn(&mut [u8], u64),
) -> anyhow::Result<()> {
    let chunk = ((1u64 << 20) / page).max(1) * page;
    let mut buf = AlignedBuf::try_new(chunk as usize)?;
    let mut at = start;
    while at < end {
        if stop.load(Ordering::Relaxed) {
            return Err(crate::error::Interrupted.into());
        }
        let n = chunk.min(end - at) as usize;
        let b = &mut buf.as_mut_slice()[..n];
        for (i, p) in b.chunks_mut(page as usize).enumerate() {
            fill(p, at + i as u64 * page);
        }
        super::os::write_all_at(f, b, at)?;
        at += n as u64;
    }
    f.sync_data()?;
    Ok(())
}

/// The run and file id of the stamps an earlier run left in [start, end): those of the first
/// page whose first unit starts with a stamp header of its own address, among the first 256
/// pages (the rest is checked against them; a stamp of another unit size still names them). (0, 0) when none does: every page will be a finding.
pub fn writer(f: &File, start: u64, end: u64, page: u64, unit: usize) -> (u64, u32) {
    let Ok(mut buf) = AlignedBuf::try_new(page as usize) else { return (0, 0) };
    let b = &mut buf.as_mut_slice()[..page as usize];
    for at in (start..end).step_by(page as usize).take(256) {
        if !super::os::read_at(f, b, at).is_ok_and(|n| n == b.len()) {
            break;
        }
        if let Some((run_id, file_id, _)) = header_ids(&b[..unit]).filter(|h| h.2 == at) {
            return (run_id, file_id);
        }
    }
    (0, 0)
}

//! The last acknowledged generation of every page, shared by all workers without locks: one
//! 64-bit word per page (an 8 KiB page costs 0.1 % of its size), whose top bit says a worker
//! holds the page. A worker claims a page before writing or reading it, so two I/Os to one
//! page are never in flight at once and the expected contents of every read are known.

use std::sync::atomic::{AtomicU64, Ordering};

const HELD: u64 = 1 << 63;
/// Set on a page found bad: what the medium holds is no longer known generation by
/// generation, only that it is this page's, until the next acknowledged write. Later reads
/// still check stamps, checksums and addresses, so one lost write is reported once.
const UNSURE: u64 = 1 << 62;

pub struct PageMap {
    words: Box<[AtomicU64]>,
}

impl PageMap {
    /// `pages` pages, all at `generation`.
    pub fn new(pages: usize, generation: u64) -> PageMap {
        PageMap { words: (0..pages).map(|_| AtomicU64::new(generation)).collect() }
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Takes the page if no other worker holds it; returns its acknowledged generation.
    pub fn claim(&self, page: usize) -> Option<u64> {
        let w = &self.words[page];
        let cur = w.load(Ordering::Acquire);
        if cur & HELD != 0 {
            return None;
        }
        w.compare_exchange(cur, cur | HELD, Ordering::AcqRel, Ordering::Relaxed).ok().map(|g| g & !UNSURE)
    }

    /// As `claim`, and whether the page was found bad since its last acknowledged write.
    pub fn claim_checked(&self, page: usize) -> Option<(u64, bool)> {
        let w = &self.words[page];
        let cur = w.load(Ordering::Acquire);
        if cur & HELD != 0 {
            return None;
        }
        w.compare_exchange(cur, cur | HELD, Ordering::AcqRel, Ordering::Relaxed)
            .ok()
            .map(|g| (g & !UNSURE, g & UNSURE != 0))
    }

    /// Gives a page found bad back: its generation stays, its contents are unsure (see UNSURE).
    pub fn release_unsure(&self, page: usize, generation: u64) {
        self.words[page].store((generation & !HELD) | UNSURE, Ordering::Release);
    }

    /// Gives the page back with `generation` as its acknowledged one (the same after a read
    /// or a failed write, one more after an acknowledged write).
    pub fn release(&self, page: usize, generation: u64) {
        debug_assert!(self.words[page].load(Ordering::Relaxed) & HELD != 0, "page {page} released unheld");
        self.words[page].store(generation & !(HELD | UNSURE), Ordering::Release);
    }

    /// The acknowledged generation, held or not.
    pub fn generation(&self, page: usize) -> u64 {
        self.words[page].load(Ordering::Acquire) & !(HELD | UNSURE)
    }
}

#[cfg(test)]
mod tests;

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
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_held_page_cannot_be_claimed_twice() {
        let m = PageMap::new(4, 1);
        assert_eq!(m.claim(2), Some(1));
        assert_eq!(m.claim(2), None);
        assert_eq!(m.generation(2), 1);
        m.release(2, 2);
        assert_eq!(m.claim(2), Some(2));
        assert_eq!(m.claim(3), Some(1));
    }

    #[test]
    fn a_page_found_bad_stays_unsure_until_written() {
        let m = PageMap::new(2, 0);
        assert_eq!(m.claim_checked(1), Some((0, false)));
        m.release_unsure(1, 4);
        assert_eq!(m.generation(1), 4);
        assert_eq!(m.claim_checked(1), Some((4, true)));
        m.release_unsure(1, 4);
        assert_eq!(m.claim(1), Some(4));
        m.release(1, 5);
        assert_eq!(m.claim_checked(1), Some((5, false)));
    }

    #[test]
    fn concurrent_writers_never_lose_an_increment() {
        let m = Arc::new(PageMap::new(8, 0));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let m = Arc::clone(&m);
                std::thread::spawn(move || {
                    let mut done = 0;
                    let mut page = 0;
                    while done < 10_000 {
                        if let Some(g) = m.claim(page) {
                            m.release(page, g + 1);
                            done += 1;
                        }
                        page = (page + 1) % 8;
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!((0..8).map(|p| m.generation(p)).sum::<u64>(), 40_000);
    }
}

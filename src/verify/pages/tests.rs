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

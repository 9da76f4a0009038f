use super::*;
use crate::verify::stamp::{mark_unread, stamp_page};

const UNIT: usize = 512;
const PAGE: usize = 8192;

fn expect() -> Expect {
    Expect { run_id: 11, file_id: 1, address: 3 * PAGE as u64, generation: 4, pending: 0 }
}

fn page(gen: u64) -> Vec<u8> {
    let mut p = vec![0u8; PAGE];
    let e = expect();
    stamp_page(
        &mut p,
        UNIT,
        &Stamp { run_id: e.run_id, file_id: e.file_id, writer: 0, address: e.address, generation: gen, time_ns: 1 },
    );
    p
}

#[test]
fn the_acknowledged_page_is_clean() {
    assert_eq!(check_page(&page(4), UNIT, &expect()), None);
}

#[test]
fn an_older_page_is_stale_and_says_which_generation() {
    let bad = check_page(&page(3), UNIT, &expect()).unwrap();
    assert_eq!(bad.class, FindingClass::Stale);
    assert_eq!(bad.found_gen, Some(3));
    assert_eq!(bad.found_offset, Some(expect().address));
    // The generation field (bytes 32..40) is the first to differ.
    assert_eq!(bad.diff_at, 32);
    assert!(bad.diff.starts_with("expected 04000000"), "{}", bad.diff);
    assert!(bad.diff.contains(" / found 03000000"), "{}", bad.diff);
}

#[test]
fn a_page_from_an_earlier_run_is_stale() {
    let mut p = page(4);
    let e = expect();
    stamp_page(
        &mut p,
        UNIT,
        &Stamp { run_id: 10, file_id: e.file_id, writer: 0, address: e.address, generation: 9, time_ns: 1 },
    );
    assert_eq!(check_page(&p, UNIT, &e).unwrap().class, FindingClass::Stale);
}

#[test]
fn units_from_two_writes_are_torn() {
    let mut p = page(4);
    p[PAGE / 2..].copy_from_slice(&page(3)[PAGE / 2..]);
    let bad = check_page(&p, UNIT, &expect()).unwrap();
    assert_eq!(bad.class, FindingClass::Torn);
    assert_eq!(bad.found_gen, Some(3));
    assert_eq!(bad.found_offset, Some(expect().address + PAGE as u64 / 2));
}

#[test]
fn a_lost_write_over_a_torn_page_is_stale() {
    // Write 3 tore (its first half landed over write 2), then write 4 was lost: nothing of the
    // acknowledged write is there, which is what a lost write leaves.
    let mut p = page(3);
    p[PAGE / 2..].copy_from_slice(&page(2)[PAGE / 2..]);
    let bad = check_page(&p, UNIT, &expect()).unwrap();
    assert_eq!(bad.class, FindingClass::Stale);
    assert_eq!(bad.found_gen, Some(3));
    assert_eq!(bad.found_offset, Some(expect().address));
    // Any unit of the acknowledged write makes it torn again, wherever it is.
    p[PAGE - UNIT..].copy_from_slice(&page(4)[PAGE - UNIT..]);
    assert_eq!(check_page(&p, UNIT, &expect()).unwrap().class, FindingClass::Torn);
    // A unit newer than anything written is corrupt, whatever lies beside it.
    p[..UNIT].copy_from_slice(&page(9)[..UNIT]);
    let bad = check_page(&p, UNIT, &expect()).unwrap();
    assert_eq!((bad.class, bad.found_gen), (FindingClass::Corrupt, Some(9)));
}

#[test]
fn a_flipped_bit_is_corrupt_and_located() {
    let mut p = page(4);
    p[5000] ^= 0x10;
    let bad = check_page(&p, UNIT, &expect()).unwrap();
    assert_eq!(bad.class, FindingClass::Corrupt);
    assert_eq!(bad.diff_at, 5000);
    assert_eq!(bad.found_gen, None);
}

#[test]
fn another_pages_data_is_misdirected() {
    let e = expect();
    let mut other = vec![0u8; PAGE];
    stamp_page(
        &mut other,
        UNIT,
        &Stamp { run_id: e.run_id, file_id: e.file_id, writer: 0, address: 7 * PAGE as u64, generation: 4, time_ns: 1 },
    );
    let bad = check_page(&other, UNIT, &e).unwrap();
    assert_eq!(bad.class, FindingClass::Misdirected);
    assert_eq!(bad.found_offset, Some(7 * PAGE as u64));
    assert_eq!(bad.found_file, None);
    // The same address in another file.
    stamp_page(
        &mut other,
        UNIT,
        &Stamp { run_id: e.run_id, file_id: 2, writer: 0, address: e.address, generation: 4, time_ns: 1 },
    );
    let bad = check_page(&other, UNIT, &e).unwrap();
    assert_eq!((bad.class, bad.found_file), (FindingClass::Misdirected, Some(2)));
}

#[test]
fn a_read_that_filled_nothing_is_never_read() {
    let mut p = page(4);
    mark_unread(&mut p, UNIT);
    assert_eq!(check_page(&p, UNIT, &expect()).unwrap().class, FindingClass::NeverRead);
    // Half filled: still never read (the worst unit names the page).
    let mut p = page(4);
    mark_unread(&mut p[PAGE / 2..], UNIT);
    assert_eq!(check_page(&p, UNIT, &expect()).unwrap().class, FindingClass::NeverRead);
}

#[test]
fn unacknowledged_writes_may_land_whole_or_torn() {
    let e = Expect { pending: 2, ..expect() };
    assert_eq!(check_page(&page(5), UNIT, &e), None);
    assert_eq!(check_page(&page(6), UNIT, &e), None);
    let mut p = page(4);
    p[PAGE / 2..].copy_from_slice(&page(6)[PAGE / 2..]);
    assert_eq!(check_page(&p, UNIT, &e), None);
    // An acknowledged write must still be there.
    assert_eq!(check_page(&page(3), UNIT, &e).unwrap().class, FindingClass::Stale);
    // Newer than anything issued: no write produced it.
    assert_eq!(check_page(&page(7), UNIT, &e).unwrap().class, FindingClass::Corrupt);
}

#[test]
fn the_most_basic_fault_names_the_page() {
    // A torn page with a flipped bit elsewhere is reported as corrupt.
    let mut p = page(4);
    p[PAGE / 2..].copy_from_slice(&page(3)[PAGE / 2..]);
    p[100] ^= 1;
    assert_eq!(check_page(&p, UNIT, &expect()).unwrap().class, FindingClass::Corrupt);
}

use super::*;

#[test]
fn repeats_pastes_offsets_and_finds_the_first_difference() {
    let p = PatternFill { bytes: vec![1, 2, 3], offsets: vec![], interval: 0 };
    let mut b = [0u8; 8];
    fill(&mut b, &p, 4096);
    assert_eq!(b, [1, 2, 3, 1, 2, 3, 1, 2]);
    assert_eq!(mismatch(&b, &p, 0), None);
    b[7] = 9;
    assert_eq!(mismatch(&b, &p, 0), Some(7));
    // "%o" then 0xAA: the block's offset, little-endian, in every repetition.
    let p = PatternFill { bytes: [vec![0; 8], vec![0xAA]].concat(), offsets: vec![0], interval: 0 };
    let mut b = [0u8; 18];
    fill(&mut b, &p, 0x0102);
    assert_eq!(&b[..10], &[2, 1, 0, 0, 0, 0, 0, 0, 0xAA, 2]);
    assert_eq!(mismatch(&b, &p, 0x0102), None);
    assert_eq!(mismatch(&b, &p, 0x0103), Some(0));
    // With an interval of 9 the second copy carries the offset of its own interval.
    let q = PatternFill { interval: 9, ..p };
    fill(&mut b, &q, 0x0100);
    assert_eq!((b[0], b[9], b[17]), (0x00, 0x09, 0xAA));
}

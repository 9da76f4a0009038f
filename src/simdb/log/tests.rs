use super::*;

fn rec(len: usize, lsn: u64, prev: u64) -> Vec<u8> {
    let mut r = vec![0u8; len];
    write_record(&mut r, 5, lsn, prev);
    r
}

#[test]
fn a_chain_checks_record_by_record() {
    assert_eq!(check(&rec(1024, 8, 7), 512, 5, 8, 7), Ok(1024));
    // Out of order: LSN 9 where 8 should be.
    assert_eq!(check(&rec(512, 9, 8), 512, 5, 8, 7), Err(Broken::Reordered { lsn: 9, prev: 8 }));
    let mut r = rec(1536, 8, 7);
    r[1000] ^= 4;
    assert_eq!(check(&r, 512, 5, 8, 7), Err(Broken::Damaged { lsn: 8 }));
    assert_eq!(check(&vec![0u8; 512], 512, 5, 8, 7), Err(Broken::Missing));
    let mut other = vec![0u8; 512];
    write_record(&mut other, 6, 8, 7);
    assert_eq!(check(&other, 512, 5, 8, 7), Err(Broken::Foreign { lsn: 8 }));
    // A length that is not a multiple of the unit is no header.
    let mut odd = rec(1024, 8, 7);
    odd[4..8].copy_from_slice(&700u32.to_le_bytes());
    assert_eq!(header(&odd, 512), None);
}

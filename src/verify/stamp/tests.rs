use super::*;

fn stamp() -> Stamp {
    Stamp { run_id: 7, file_id: 2, writer: 3, address: 8192, generation: 5, time_ns: 99 }
}

#[test]
fn a_stamped_page_reads_back_unit_by_unit() {
    let mut page = vec![0u8; 8192];
    stamp_page(&mut page, 512, &stamp());
    for (i, u) in page.chunks(512).enumerate() {
        assert_eq!(read_unit(u), Unit::Valid(Stamp { address: 8192 + 512 * i as u64, ..stamp() }));
    }
}

#[test]
fn any_flipped_bit_makes_the_unit_corrupt() {
    let mut unit = vec![0u8; 512];
    write_unit(&mut unit, &stamp());
    for bit in [0, 7, 8 * 30, 8 * 48 + 1, 8 * 52, 8 * 300 + 5, 8 * 511 + 7] {
        let mut bad = unit.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        assert_eq!(read_unit(&bad), Unit::Corrupt, "bit {bit}");
    }
}

#[test]
fn filler_depends_on_generation_and_address() {
    let (mut a, mut b, mut c) = (vec![0u8; 512], vec![0u8; 512], vec![0u8; 512]);
    write_unit(&mut a, &stamp());
    write_unit(&mut b, &Stamp { generation: 6, ..stamp() });
    write_unit(&mut c, &Stamp { address: 8704, ..stamp() });
    assert_ne!(a[HEADER..], b[HEADER..]);
    assert_ne!(a[HEADER..], c[HEADER..]);
    // Incompressible: no byte value dominates the filler.
    let most = (0..=255u8).map(|v| a[HEADER..].iter().filter(|&&x| x == v).count()).max().unwrap();
    assert!(most < 12, "{most}");
}

#[test]
fn a_marked_buffer_reads_as_unread_until_overwritten() {
    let mut page = vec![0u8; 1024];
    stamp_page(&mut page, 512, &stamp());
    mark_unread(&mut page, 512);
    assert_eq!(read_unit(&page[..512]), Unit::Unread);
    assert_eq!(read_unit(&page[512..]), Unit::Unread);
    write_unit(&mut page[512..], &stamp());
    assert!(matches!(read_unit(&page[512..]), Unit::Valid(_)));
}

#[test]
fn zeros_are_corrupt_not_valid() {
    assert_eq!(read_unit(&[0u8; 4096]), Unit::Corrupt);
}

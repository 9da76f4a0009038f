use super::*;

#[test]
fn scatter_and_gather_follow_the_slots() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f");
    let f = open(&p, Open { create: true, write: true, direct: false, dsync: false }).unwrap();
    let mut v = Vectored::new(4);
    // Slots 2, 0, 1 of the buffer go to file pages 0, 1, 2.
    let buf: Vec<u8> = (0..3 * 16).map(|i| (i / 16) as u8).collect();
    assert_eq!(v.write(&f, &buf, 16, &[2, 0, 1], 0).unwrap(), 48);
    let mut back = vec![0u8; 48];
    assert_eq!(read_at(&f, &mut back, 0).unwrap(), 48);
    assert_eq!((back[0], back[16], back[32]), (2, 0, 1));
    let mut scattered = vec![9u8; 64];
    // File pages 1, 2 into slots 3, 0; reading past the end is short.
    assert_eq!(v.read(&f, &mut scattered, 16, &[3, 0], 16).unwrap(), 32);
    assert_eq!((scattered[48], scattered[0], scattered[16]), (0, 1, 9));
    assert_eq!(v.read(&f, &mut scattered, 16, &[1, 2], 32).unwrap(), 16);
}

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

/// Whole 8 KiB pages on an unbuffered handle go out as one ReadFileScatter or WriteFileGather
/// on Windows (and one preadv or pwritev on Linux), in slot order.
#[test]
fn unbuffered_page_runs_scatter_and_gather_in_one_call() {
    let dir = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
    let p = dir.path().join("f");
    let f = open(&p, Open { create: true, write: true, direct: true, dsync: false }).unwrap();
    let page = 8192;
    let mut buf = crate::engine::AlignedBuf::try_new(4 * page).unwrap();
    for (k, chunk) in buf.as_mut_slice().chunks_mut(page).enumerate() {
        chunk.fill(k as u8 + 1);
    }
    let mut v = Vectored::new(4);
    assert_eq!(v.write(&f, buf.as_slice(), page, &[3, 1, 2], 0).unwrap(), 3 * page);
    let mut back = crate::engine::AlignedBuf::try_new(4 * page).unwrap();
    assert_eq!(v.read(&f, back.as_mut_slice(), page, &[2, 0, 1], 0).unwrap(), 3 * page);
    // File pages 0, 1, 2 hold slots 3, 1, 2 of the first buffer (4, 2, 3); read into slots
    // 2, 0, 1, slot 3 untouched.
    let b = back.as_slice();
    assert_eq!((b[0], b[page], b[2 * page], b[3 * page - 1], b[3 * page]), (2, 3, 4, 4, 0));
    #[cfg(windows)]
    assert!(v.scatter, "Windows refused to scatter on an unbuffered handle");
}

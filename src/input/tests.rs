use super::*;

#[test]
fn special_files_and_oversized_ones_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let e = read_text(dir.path(), "include", TEXT_LIMIT).unwrap_err();
    assert_eq!(e.option, "include");
    assert!(e.message.contains("is a directory"), "{}", e.message);
    #[cfg(unix)]
    {
        let e = read_text(Path::new("/dev/zero"), "--catalog", TEXT_LIMIT).unwrap_err();
        assert!(e.message.contains("is a character device, not a regular file"), "{}", e.message);
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_text(&fifo, "import", TEXT_LIMIT).unwrap_err();
        assert!(e.message.contains("is a FIFO"), "{}", e.message);
    }
    let big = dir.path().join("big");
    std::fs::write(&big, vec![b'x'; 100]).unwrap();
    let e = read_text(&big, "-X", 99).unwrap_err();
    assert!(e.message.contains("holds 100 bytes; iolens reads at most 99"), "{}", e.message);
    assert_eq!(read_text(&big, "-X", 100).unwrap().len(), 100);
    std::fs::write(&big, [b'a', 0xff]).unwrap();
    assert!(read_text(&big, "-X", 100).unwrap_err().message.contains("not UTF-8 text (byte 1)"));
}

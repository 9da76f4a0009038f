use super::*;

fn bytes(v: &str) -> Vec<u8> {
    parse(v, true).unwrap_or_else(|e| panic!("{v}: {e}")).bytes
}

#[test]
fn fios_own_examples_read_as_fio_reads_them() {
    // lib/pattern.c's examples, byte for byte.
    assert_eq!(bytes("\"abcd\""), [0x61, 0x62, 0x63, 0x64]);
    assert_eq!(bytes("-1024"), [0x00, 0xfc, 0xff, 0xff]);
    assert_eq!(bytes("66"), [0x42]);
    assert_eq!(bytes("0xFF0X1"), [0xff, 0x01]);
    assert_eq!(bytes("%o"), [0; 8]);
    assert_eq!(bytes("\"123\"0xFFeeCC"), [0x31, 0x32, 0x33, 0xff, 0xee, 0xcc]);
    let p = parse("-100xab\"1\"%o\"2\"", true).unwrap();
    assert_eq!(p.bytes, [0xf6, 0xff, 0xff, 0xff, 0xab, 0x31, 0, 0, 0, 0, 0, 0, 0, 0, 0x32]);
    assert_eq!(p.offsets, [6]);
    let p = parse("%o0xdeadbeef%o", true).unwrap();
    assert_eq!((p.bytes.len(), p.offsets), (20, vec![0, 12]));
    assert_eq!(&p.bytes[8..12], &[0xde, 0xad, 0xbe, 0xef]);
    assert_eq!(bytes("0xfefefefefefefefefefefefefefefefefefefefefe"), [0xfe; 21]);
    // fio's t0028: a string, -12 up to the 0x, then the hex number.
    assert_eq!(
        bytes("\"abcd\"-120xdeadface"),
        [0x61, 0x62, 0x63, 0x64, 0xf4, 0xff, 0xff, 0xff, 0xde, 0xad, 0xfa, 0xce]
    );
    assert_eq!((bytes("0"), bytes("0xabc"), bytes("256")), (vec![0], vec![0x0a, 0xbc], vec![0, 1]));
}

#[test]
fn a_file_gives_its_first_bytes_and_bad_pieces_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p");
    std::fs::write(&f, vec![7u8; MAX_PATTERN + 100]).unwrap();
    let p = parse(&format!("0x01'{}'", f.display()), false).unwrap();
    assert_eq!((p.bytes.len(), p.bytes[0], p.bytes[MAX_PATTERN - 1]), (MAX_PATTERN, 1, 7));
    // Only a regular file: a device would be read for ever.
    #[cfg(unix)]
    assert_eq!(
        parse("'/dev/zero'", false).unwrap_err(),
        "reading the pattern from /dev/zero: is a character device, not a regular file"
    );
    let e = |v: &str, formats| parse(v, formats).unwrap_err();
    assert_eq!(e("%o", false), "'%o' is not \"text\", 0xHEX, a number or 'file'");
    assert_eq!(e("0xZZ", false), "'0xZZ' is not \"text\", 0xHEX, a number or 'file'");
    assert!(e("\"ab", true).contains("closing"));
    assert!(e("4294967296", true).contains("is not"));
    assert!(e("'/nonexistent/p'", true).starts_with("reading the pattern from /nonexistent/p"));
    assert!(e(&format!("\"{}\"", "a".repeat(MAX_PATTERN + 1)), true).contains("longer than the 1048576 bytes"));
    assert!(e("\"\"", true).contains("adds no bytes"));
}

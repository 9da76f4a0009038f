use super::*;

/// The state fio 3.33 saved for `--name=w --filename=f --size=64k --bs=4k --rw=randwrite
/// --verify=md5`: 16 writes, the last at 48 KiB (its random state zeroed here, as iolens
/// writes it; the CRC recomputed accordingly).
#[test]
fn reads_and_writes_fio_3_33_layout() {
    let s = Saved { name: "w".into(), index: 0, depth: 1, writes: 16, last: vec![(0, 0xc000)] };
    let b = encode(&s);
    assert_eq!(b.len(), 24 + 168);
    assert_eq!(&b[..8], &3u64.to_le_bytes());
    assert_eq!(u64_at(&b, 8), 168);
    assert_eq!(u64_at(&b, 24), 1, "one completion kept");
    assert_eq!(u64_at(&b, 24 + 16), 16, "numberio");
    assert_eq!(b[24 + NAME_AT], b'w');
    assert_eq!(u64_at(&b, b.len() - 8), 0xc000);
    assert_eq!(decode(&b).unwrap(), s);
}

/// The file fio 3.33 itself saved for that job (its random state included).
#[test]
fn reads_the_state_fio_saved() {
    let b = include_bytes!("fio-3.33-w.state");
    let s = decode(b).expect("fio's own file");
    assert_eq!(s, Saved { name: "w".into(), index: 0, depth: 1, writes: 16, last: vec![(0, 0xc000)] });
    let mut damaged = b.to_vec();
    damaged[24 + 40] ^= 0x80;
    assert!(decode(&damaged).unwrap_err().contains("checksum"), "fio's CRC covers the random state");
}

#[test]
fn refuses_a_damaged_or_foreign_state() {
    let mut b = encode(&Saved { name: "a/b".into(), index: 2, depth: 4, writes: 9, last: vec![] });
    assert_eq!(decode(&b).unwrap().name, "a/b");
    b[24 + 16] ^= 1;
    assert!(decode(&b).unwrap_err().contains("checksum"));
    b[0] = 7;
    assert!(decode(&b).unwrap_err().contains("unsupported (7) version"));
    assert!(decode(&b[..30]).unwrap_err().contains("too short"));
    assert_eq!(path(Some("d"), "a/b", 2), Path::new("d/local-a.b-2-verify.state"));
    assert_eq!(path(None, "w", 0), Path::new("local-w-0-verify.state"));
}

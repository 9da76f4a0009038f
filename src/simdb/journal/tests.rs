use super::*;

fn header() -> Header {
    Header {
        run_id: 9,
        page: 8192,
        unit: 512,
        data_size: 8 * 8192,
        data_files: 2,
        log_size: 1 << 20,
        write_through: false,
    }
}

fn rec(e: Entry) -> Vec<u8> {
    let mut b = vec![0u8; RECORD];
    encode(e, &mut b);
    b
}

#[test]
fn replay_keeps_the_highest_generation_and_the_newest_size() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("j");
    let j = Journal::create(&p, &header(), false).unwrap();
    let mut b = Vec::new();
    b.extend(rec(Entry::Page { file: 1, page: 3, generation: 5 }));
    b.extend(rec(Entry::Page { file: 1, page: 3, generation: 4 }));
    b.extend(rec(Entry::Live { file: 0, pages: 6, seq: 2 }));
    b.extend(rec(Entry::Live { file: 0, pages: 7, seq: 1 }));
    b.extend(rec(Entry::Log { acked: 40, pass_start: 30 }));
    j.append(&b).unwrap();
    // A torn record: skipped, counted.
    let mut torn = rec(Entry::Page { file: 0, page: 1, generation: 99 });
    torn[25] ^= 1;
    j.append(&torn).unwrap();
    j.sync().unwrap();
    let r = replay(&p).unwrap().unwrap();
    assert_eq!(r.header, header());
    assert_eq!(r.generations[1].get(&3), Some(&5));
    assert_eq!(r.generations[0].get(&1), None);
    assert_eq!(r.live, vec![6, 8]);
    assert_eq!(r.log, Some((40, 30)));
    assert_eq!((r.records, r.skipped), (5, 1));
}

#[test]
fn a_file_without_the_header_is_not_a_journal() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("j");
    std::fs::write(&p, vec![7u8; 8192]).unwrap();
    assert_eq!(replay(&p).unwrap(), None);
}

#[test]
fn a_header_simdb_would_not_write_is_not_a_journal() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("j");
    let zero_page = Header { page: 0, ..header() };
    let many_files = Header { data_files: u32::MAX, ..header() };
    let odd_page = Header { page: 8192 + 512 + 1, ..header() };
    for h in [zero_page, many_files, odd_page] {
        std::fs::write(&p, h.encode()).unwrap();
        assert_eq!(replay(&p).unwrap(), None, "{h:?}");
    }
    std::fs::write(&p, header().encode()).unwrap();
    assert_eq!(replay(&p).unwrap().unwrap().generations.len(), 2);
    // A FIFO would block the read; a device would never end it.
    #[cfg(unix)]
    assert_eq!(replay(Path::new("/dev/zero")).unwrap_err().to_string(), "not a regular file");
}

use super::*;
use rand::{rngs::SmallRng, RngCore, SeedableRng};
use std::io::Write;

fn file_with(fill: impl Fn(&mut [u8])) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    let mut buf = vec![0u8; 4 << 20];
    fill(&mut buf);
    f.write_all(&buf).unwrap();
    f.flush().unwrap();
    f
}

#[test]
fn random_data_is_fine() {
    let f = file_with(|b| SmallRng::seed_from_u64(3).fill_bytes(b));
    let c = probe(f.path(), 0, 4 << 20).unwrap();
    assert_eq!(c.written, 1.0);
    assert!(c.compressed > 0.99 && c.repeated == 0.0, "{c:?}");
    assert_eq!(c.warning(f.path()), None);
}

#[test]
fn diskspd_pattern_and_zeros_compress() {
    // DiskSpd's -c fill: byte i of each buffer is i & 0xff.
    let f = file_with(|b| b.iter_mut().enumerate().for_each(|(i, x)| *x = i as u8));
    let c = probe(f.path(), 0, 4 << 20).unwrap();
    assert!(c.compressed < 0.05 && c.repeated > 0.9, "{c:?}");
    assert!(c.warning(f.path()).unwrap().contains("inflated by compression/dedup"));
    let z = file_with(|b| b.fill(0));
    let c = probe(z.path(), 0, 4 << 20).unwrap();
    assert!(c.compressed < 0.05, "{c:?}");
}

#[test]
fn holes_count_as_unwritten() {
    let f = tempfile::NamedTempFile::new().unwrap();
    f.as_file().set_len(8 << 20).unwrap();
    let mut rnd = vec![0u8; 1 << 20];
    SmallRng::seed_from_u64(5).fill_bytes(&mut rnd);
    crate::targets::os::write_all_at(f.as_file(), &rnd, 0).unwrap();
    let c = probe(f.path(), 0, 8 << 20).unwrap();
    // One written MiB of eight; file systems allocate in blocks, so allow a little slack.
    assert!((0.12..0.2).contains(&c.written), "{c:?}");
    assert!(c.warning(f.path()).unwrap().contains("inflated by sparseness"));
    // The written MiB alone is fine.
    assert!(probe(f.path(), 0, 1 << 20).unwrap().warning(f.path()).is_none());
}

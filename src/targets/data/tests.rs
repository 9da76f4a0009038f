use super::*;
use rand::SeedableRng;

#[test]
fn compress_pattern_has_the_zero_share() {
    let mut rng = SmallRng::seed_from_u64(1);
    let mut b = vec![1u8; 8192];
    fill(&mut b, &DataPattern::Compress { pct: 50 }, &mut rng);
    assert!(b[..2048].iter().all(|&x| x == 0));
    assert!(b[2048..4096].iter().filter(|&&x| x == 0).count() < 40);
    stamp(&mut b, &DataPattern::Compress { pct: 50 }, 0, 7);
    assert!(b[..2048].iter().all(|&x| x == 0));
}

#[test]
fn a_pattern_repeats_and_is_not_stamped() {
    let mut rng = SmallRng::seed_from_u64(1);
    let mut bytes = [0u8; 32];
    bytes[..3].copy_from_slice(&[0xde, 0xad, 0x01]);
    let p = DataPattern::Repeat { bytes: bytes.to_vec(), len: 3 };
    let mut b = vec![0u8; 8192];
    fill(&mut b, &p, &mut rng);
    stamp(&mut b, &p, 4096, 9);
    assert_eq!(&b[..7], &[0xde, 0xad, 0x01, 0xde, 0xad, 0x01, 0xde]);
    assert!(b.chunks(3).all(|c| c == &[0xde, 0xad, 0x01][..c.len()]));
}

#[test]
fn stamps_differ_per_write() {
    let mut rng = SmallRng::seed_from_u64(1);
    let mut b = vec![0u8; 4096];
    fill(&mut b, &DataPattern::Random, &mut rng);
    stamp(&mut b, &DataPattern::Random, 4096, 1);
    let first = b.clone();
    stamp(&mut b, &DataPattern::Random, 4096, 2);
    assert_ne!(first, b);
}

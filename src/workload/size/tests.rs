use super::*;

#[test]
fn parses_the_usual_spellings() {
    assert_eq!(parse_size("512"), Some(512));
    assert_eq!(parse_size("4k"), Some(4096));
    assert_eq!(parse_size("8K"), Some(8192));
    assert_eq!(parse_size("64KiB"), Some(65536));
    assert_eq!(parse_size("1M"), Some(1 << 20));
    assert_eq!(parse_size("1GiB"), Some(1 << 30));
    assert_eq!(parse_size("1.5k"), Some(1536));
    assert_eq!(parse_size("2t"), Some(2 << 40));
}

#[test]
fn refuses_nonsense() {
    for s in ["", "3x", "k", "1.2.3k", "0.3k", "-4k", "4 k k"] {
        assert_eq!(parse_size(s), None, "{s}");
    }
}

#[test]
fn formats_round_trip() {
    assert_eq!(format_size(1 << 30), "1GiB");
    assert_eq!(format_size(1536), "1536B");
    assert_eq!(format_block(4096), "4K");
    assert_eq!(format_block(1 << 20), "1M");
    assert_eq!(format_block(512), "512");
    assert_eq!(parse_size(&format_size(3 << 20)), Some(3 << 20));
}

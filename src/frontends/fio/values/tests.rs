//! Numbers as fio reads them.

use super::int;

#[test]
fn numbers_end_where_fio_stops_reading_them() {
    assert_eq!(int("65536)", 1024), Ok(65536));
    assert_eq!(int("4k", 1024), Ok(4096));
    assert_eq!(int("2mib", 1024), Ok(2_000_000));
    assert!(int("4q", 1024).unwrap_err().contains("'4q' is not a number"));
    assert!(int(")", 1024).is_err());
    assert!(int("1.5k", 1024).is_err(), "fio's 1, not 1536: refused");
}

use super::*;

#[test]
fn every_name_reads_back_as_its_kind_and_unknown_ones_as_other() {
    for (k, n) in NAMES {
        assert_eq!(Kind::of(n), k);
        assert_eq!(k.name(), n);
    }
    assert_eq!(Kind::of("bench"), Kind::Other);
    assert_eq!(Kind::of("CDM"), Kind::Other, "names are stored lower case");
    assert_eq!(Kind::Other.name(), "other");
}

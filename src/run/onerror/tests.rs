use super::*;

#[test]
fn every_name_the_spec_takes_has_a_number_and_defaults_are_fios() {
    for n in crate::workload::shaping::ERROR_NAMES {
        assert!(errno(n).is_some(), "{n}");
    }
    let p = ErrorPolicy::new(&OnError { go_on: [true, false], errors: Default::default() });
    assert!(p.passes(0, libc::EIO) && p.passes(0, libc::EILSEQ) && !p.passes(0, libc::EINVAL));
    assert!(!p.passes(1, libc::EIO));
    let p = ErrorPolicy::new(&OnError { go_on: [true, true], errors: [vec![], vec!["ENOSPC".into(), "22".into()]] });
    assert!(p.passes(1, libc::ENOSPC) && p.passes(1, libc::EINVAL) && !p.passes(1, libc::EIO));
}

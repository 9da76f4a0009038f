use super::*;

#[test]
fn every_name_the_spec_takes_has_a_number_and_defaults_are_fios() {
    for n in crate::workload::shaping::ERROR_NAMES {
        assert!(errno(n).is_some(), "{n}");
    }
    let e = |n| errno(n).unwrap();
    let p = ErrorPolicy::new(&OnError { go_on: [true, false], errors: Default::default() });
    assert!(p.passes(0, e("EIO")) && p.passes(0, e("EILSEQ")) && !p.passes(0, e("EINVAL")));
    assert!(!p.passes(1, e("EIO")));
    let inval = e("EINVAL").to_string();
    let p = ErrorPolicy::new(&OnError { go_on: [true, true], errors: [vec![], vec!["ENOSPC".into(), inval]] });
    assert!(p.passes(1, e("ENOSPC")) && p.passes(1, e("EINVAL")) && !p.passes(1, e("EIO")));
}

use super::*;

#[test]
fn verdicts_at_their_edges() {
    assert_eq!(verdict(110.0, 100.0, 0.10), "≈");
    assert_eq!(verdict(90.91, 100.0, 0.10), "≈");
    assert_eq!(verdict(111.0, 100.0, 0.10), ">");
    assert_eq!(verdict(199.0, 100.0, 0.10), ">");
    assert_eq!(verdict(200.0, 100.0, 0.10), ">>");
    assert_eq!(verdict(50.0, 100.0, 0.10), "<<");
    assert_eq!(verdict(300.0, 100.0, 0.10), ">>>");
    assert_eq!(verdict(20.0, 100.0, 0.10), "<<<<<");
    assert_eq!(verdict(999.0, 100.0, 0.10), ">>>>>>>>>");
    assert_eq!(verdict(4000.0, 100.0, 0.10), ">>>>>>>>> 40×");
    assert_eq!(verdict(105.0, 100.0, 0.02), ">");
    assert_eq!(verdict(0.0, 100.0, 0.10), "?");
}

#[test]
fn cdm_and_run_name_the_same_test_alike() {
    use crate::workload::presets::{CdmOp, CdmTest};
    let cdm = CdmTest::parse("SEQ1M Q8T1").unwrap().spec(&Spec::default(), CdmOp::Read);
    let run = Spec {
        pattern: Pattern::Sequential,
        blocks: vec![crate::workload::BlockShare { size: 1 << 20, pct: 100 }],
        qd: 8,
        read_pct: 100,
        ..Spec::default()
    };
    assert_eq!(test_key(&cdm), "SEQ1M Q8T1 Read");
    assert_eq!(test_key(&run), test_key(&cdm));
    let mix = Spec { read_pct: 70, ..Spec::default() };
    assert_eq!(test_key(&mix), "RND4K Q1T1 Mix70");
}

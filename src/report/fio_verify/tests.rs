use super::*;
use crate::result::verify::Verification;
use crate::result::RunResult;
use crate::workload::verify::{AsFio, VerifySpec};

fn test_result() -> TestResult {
    let r: RunResult = serde_json::from_str(include_str!("../testdata/iolens_randrw_q4.json")).expect("fixture");
    let mut t = r.tests[0].clone();
    t.errors.first_errno = None;
    t.spec.verify =
        Some(VerifySpec { fio: Some(AsFio { method: "md5".into(), ..AsFio::default() }), ..VerifySpec::default() });
    t
}

fn finding(class: FindingClass, diff_at: u32, diff: &str) -> Finding {
    Finding {
        file: "dir/f".into(),
        offset: 8192,
        len: 4096,
        class,
        expected_gen: 5,
        found_gen: Some(4),
        found_offset: Some(12288),
        found_file: None,
        diff_at,
        diff: diff.into(),
        rereads: 3,
        bad_rereads: 3,
        at_s: 1.0,
    }
}

#[test]
fn a_bad_block_is_fios_eilseq_in_fios_words() {
    let mut t = test_result();
    assert_eq!((job_error(&t), messages(&t).len()), (0, 0), "clean: no error, nothing said");
    t.verify = Some(Verification {
        unit: 512,
        page: 4096,
        findings: vec![
            finding(FindingClass::Corrupt, 512, "expected 494f4c56 / found 00000000"),
            finding(FindingClass::Corrupt, 1026, "expected 4c56 / found d231"),
            finding(FindingClass::Corrupt, 600, "expected 0102 / found 0103"),
            finding(FindingClass::Misdirected, 0, "expected 00 / found 30"),
            finding(FindingClass::Stale, 32, "expected 05 / found 04"),
        ],
        ..Verification::default()
    });
    assert_eq!(job_error(&t), 84);
    let m = messages(&t);
    assert_eq!(
        m[0],
        "verify: bad magic header 0, wanted 564c4f49 at file dir/f offset 8704, length 512 (requested block: \
         offset=8192, length=4096)"
    );
    assert!(
        m[1].starts_with("verify: bad magic header 31d24f49, wanted 564c4f49 at file dir/f offset 9216,"),
        "{}",
        m[1]
    );
    assert!(m[2].starts_with("md5: verify failed at file dir/f offset 8704, length 512"), "{}", m[2]);
    assert!(m[2].ends_with("bad checksum"), "{}", m[2]);
    assert_eq!(m[3], "       Expected data at byte 600: 0102");
    assert_eq!(m[4], "       Received data at byte 600: 0103");
    assert!(m[5].starts_with("verify: bad header offset 12288, wanted 8192 at file dir/f offset 8192,"), "{}", m[5]);
    assert!(m[6].starts_with("verify: bad header numberio 4, wanted 5 at file dir/f offset 8192,"), "{}", m[6]);
    assert!(m[7].contains("err=84") && m[7].contains("Invalid or incomplete multibyte"), "{}", m[7]);
    t.errors.first_errno = Some(-5);
    assert_eq!(job_error(&t), 5, "an I/O error comes first, as fio's td_verror");
}

#[test]
fn verify_only_counts_the_writes_it_walked() {
    let mut t = test_result();
    assert!(!walked_writes(&t));
    t.spec.verify.as_mut().unwrap().fio.as_mut().unwrap().walked_writes = true;
    assert!(walked_writes(&t));
}

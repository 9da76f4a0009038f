use super::*;

fn labels(p: &str) -> Vec<String> {
    profile(p).unwrap().iter().map(CdmTest::label).collect()
}

#[test]
fn profiles_match_crystaldiskmark() {
    assert_eq!(labels("default"), ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"]);
    assert_eq!(labels("nvme"), ["SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1"]);
    assert_eq!(labels("peak"), ["SEQ1M Q8T1", "RND4K Q32T1"]);
    assert_eq!(labels("realworld"), ["SEQ1M Q1T1", "RND4K Q1T1"]);
    assert_eq!(labels("demo"), ["SEQ1M Q8T1"]);
    assert_eq!(profile("fast").unwrap_err().option, "--profile");
}

#[test]
fn tests_parse_into_specs() {
    let t = CdmTest::parse("RND4K Q32T16").unwrap();
    assert_eq!(t, CdmTest { sequential: false, block: 4096, qd: 32, threads: 16 });
    let s = t.spec(&Spec::default(), CdmOp::Write);
    assert_eq!((s.pattern, s.read_pct, s.qd, s.threads, s.blocks[0].size), (Pattern::Random, 0, 32, 16, 4096));
    let m = CdmTest::parse("seq128k q32t1").unwrap().spec(&Spec::default(), CdmOp::Mix);
    assert_eq!((m.pattern, m.read_pct, m.blocks[0].size), (Pattern::Sequential, 70, 131072));
    for bad in ["SEQ1M", "XYZ1M Q1T1", "SEQ1M Q0T1", "RND3x Q1T1", "SEQ1M Q8"] {
        assert_eq!(CdmTest::parse(bad).unwrap_err().option, "--tests", "{bad}");
    }
}

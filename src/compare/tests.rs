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

#[test]
fn a_comparison_names_the_builds_when_they_differ() {
    use crate::result::build::Build;
    let old: RunResult =
        serde_json::from_str(include_str!("../report/testdata/iolens_randrw_q4.json")).expect("fixture parses");
    assert_eq!(old.build, None, "the fixture predates recorded builds");
    let linux =
        Build { commit: "04f0e97c1a2b".into(), target: "x86_64-unknown-linux-musl".into(), date: "2026-11-27".into() };
    let windows = Build { target: "x86_64-pc-windows-gnu".into(), ..linux.clone() };
    let with = |b: &Build| RunResult { build: Some(b.clone()), ..old.clone() };
    let names = vec!["#1 a".to_string(), "#2 b".to_string()];

    let same = compare(&[with(&linux), with(&linux)], &names, 0, 0.1);
    assert_eq!(same.builds, None);
    assert_eq!(same.results[1].build, "0.1.0 (commit 04f0e97c1a2b, x86_64-unknown-linux-musl, built 2026-11-27)");

    let apart = compare(&[with(&linux), with(&windows)], &names, 0, 0.1);
    assert_eq!(
        apart.builds.as_deref(),
        Some(
            "different iolens builds made these results: #1 a 0.1.0 (commit 04f0e97c1a2b, x86_64-unknown-linux-musl, \
             built 2026-11-27); #2 b 0.1.0 (commit 04f0e97c1a2b, x86_64-pc-windows-gnu, built 2026-11-27)"
        )
    );
    use crate::report::{render_comparison, Format};
    let text = render_comparison(&apart, &[], Format::Text).unwrap();
    assert!(text.contains("\nnote: different iolens builds made these results: #1 a"), "{text}");
    let md = render_comparison(&apart, &[], Format::Markdown).unwrap();
    assert!(md.contains("\n- different iolens builds made these results: #1 a"), "{md}");
    // A result from before builds were recorded counts as its version alone.
    let mixed = compare(&[old.clone(), with(&linux)], &names, 0, 0.1);
    assert!(mixed.builds.unwrap().contains("#1 a 0.1.0; #2 b 0.1.0 (commit"));
}

#[test]
fn a_new_result_records_this_binarys_build() {
    let b = crate::result::build::Build::this();
    assert!(b.target.starts_with(std::env::consts::ARCH), "{}", b.target);
    assert!(b.target.contains(std::env::consts::OS), "{}", b.target);
    assert!(b.commit == "unknown" || b.commit.trim_end_matches("-dirty").len() == 12, "{}", b.commit);
    assert_eq!(b.date.len(), 10);
    assert!(crate::result::build::VERSION.contains(&format!("commit {}, {}, built {}", b.commit, b.target, b.date)));
}

#[test]
fn an_interrupted_result_is_marked_wherever_it_is_compared() {
    let r: RunResult =
        serde_json::from_str(include_str!("../report/testdata/iolens_randrw_q4.json")).expect("fixture parses");
    let cut = RunResult { interrupted: true, ..r.clone() };
    let names = vec!["#1 a".to_string(), "#2 b".to_string()];
    let c = compare(&[r, cut], &names, 0, 0.1);
    assert_eq!((c.results[0].interrupted, c.results[1].interrupted), (false, true));
    use crate::report::{render_comparison, Format};
    let text = render_comparison(&c, &[], Format::Text).unwrap();
    assert_eq!(text.matches("INTERRUPTED").count(), 1, "{text}");
    assert!(text.lines().nth(1).unwrap().ends_with("(INTERRUPTED: cut short, a partial measurement)"), "{text}");
    let md = render_comparison(&c, &[], Format::Markdown).unwrap();
    assert!(md.contains("(**interrupted**: a partial measurement)"), "{md}");
    let html = render_comparison(&c, &[], Format::Html).unwrap();
    assert!(html.contains("<span class=warn>interrupted: a partial measurement</span>"));
}

#[test]
fn many_tests_one_result_lacks_make_one_note() {
    let m = |t: &str, w: &str| (t.to_string(), w.to_string());
    let notes = lacking(vec![
        m("RND4K Q1T1 Read", "#3 vm"),
        m("SEQ1M Q8T1 Read", "#1 a, #3 vm"),
        m("RND4K Q32T1 Read", "#3 vm"),
        m("RND4K Q1T1 Write", "#3 vm"),
    ]);
    assert_eq!(
        notes,
        [
            "3 tests are not in #3 vm (marked in the table): RND4K Q1T1 Read, RND4K Q32T1 Read, …",
            "SEQ1M Q8T1 Read is not in #1 a, #3 vm"
        ]
    );
}

#[test]
fn a_jobs_clones_compare_as_the_one_job_they_are() {
    let mut r: RunResult =
        serde_json::from_str(include_str!("../report/testdata/iolens_randrw_q4.json")).expect("fixture parses");
    let mut clone = r.tests[0].clone();
    clone.options = vec![("name".into(), "j".into()), ("numjobs".into(), "2".into())];
    clone.name = "j".into();
    r.tests = vec![clone.clone(), clone.clone()];
    let one = fold_clones(&r);
    assert_eq!(one.tests.len(), 1);
    let t = &one.tests[0];
    assert_eq!(t.spec.threads, 2 * clone.spec.threads);
    assert_eq!(t.read.ios, 2 * clone.read.ios);
    assert!((t.total.iops - 2.0 * clone.total.iops).abs() < 1e-6);
    // The same latencies twice over: the merged histogram has the same median.
    assert_eq!(t.read.lat_us.percentiles.get("50"), clone.read.lat_us.percentiles.get("50"));
    // Tests iolens named itself (no job options) are never folded.
    r.tests.iter_mut().for_each(|t| t.options.clear());
    assert_eq!(fold_clones(&r).tests.len(), 2);
}

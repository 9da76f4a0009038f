use super::*;
use crate::workload::Spec;

fn cat() -> Catalog {
    Catalog::load_with(None, None).unwrap()
}

fn lvl(start_s: u32, end_s: u32, mean: f64, spread: f64) -> Level {
    Level { start_s, end_s, mean, spread }
}

fn shift(before: Level, after: Level) -> Shift {
    Shift { at_s: after.start_s, metric: Metric::Iops, before, after, stayed: true, cause: None }
}

fn test(read_pct: u32) -> TestResult {
    let r: crate::result::RunResult =
        serde_json::from_str(include_str!("../../../report/testdata/iolens_randrw_q4.json")).expect("fixture parses");
    let mut t = r.tests.into_iter().next().expect("one test");
    t.spec = Spec { read_pct, ..Spec::default() };
    t
}

#[test]
fn a_d2s_v4_falling_from_4000_to_3200_is_the_end_of_its_burst_with_the_bucket_it_held() {
    let s = shift(lvl(0, 1900, 4012.0, 40.0), lvl(1900, 2400, 3205.0, 20.0));
    let cfg = Config { vm: Some("D2s_v4".into()), ..Config::default() };
    let c = name(&s, &test(100), &cat(), &cfg, 0.05).unwrap();
    assert!(c.starts_with("the end of VM D2s_v4's burst: 4,012 ≈ its 4,000 burst, then 3,205 ≈ its 3,200 IOPS"), "{c}");
    // (4,012 − 3,205) × 1,900 s = 1,533,300 I/Os; a full bucket (4,000 − 3,200) × 30 × 60 = 1,440,000.
    assert!(c.contains("1,533,300 I/Os above the sustained rate were spent in 31.7 min"), "{c}");
    assert!(c.contains("a full bucket: 1,440,000 in 30 min at burst; this one held 106 % of it"), "{c}");
    // Without --vm, the catalog's rows are searched: D2s_v4 is among those that fit.
    let any = name(&s, &test(100), &cat(), &Config::default(), 0.05).unwrap();
    assert!(any.contains("D2s_v4"), "{any}");
}

#[test]
fn flat_levels_are_a_cap_and_a_scattered_fall_in_writes_a_cache_filling() {
    // Figures no catalog row has, both held flat: a limit.
    let s = shift(lvl(0, 15, 2007.0, 8.0), lvl(15, 30, 1000.0, 4.0));
    let c = name(&s, &test(100), &cat(), &Config::default(), 0.03).unwrap();
    assert!(c.starts_with("a cap stepping in, or lowered: both levels are flat (0.4 % and 0.4 % spread)"), "{c}");
    let up = shift(lvl(0, 10, 1000.0, 4.0), lvl(10, 20, 2000.0, 6.0));
    assert!(name(&up, &test(100), &cat(), &Config::default(), 0.03).unwrap().starts_with("a cap lifted, or raised"));
    // Writes that fall to a level scattered more than before: the medium, not a cap.
    let w = shift(lvl(0, 100, 50_000.0, 500.0), lvl(100, 200, 12_000.0, 2_400.0));
    let c = name(&w, &test(0), &cat(), &Config::default(), 0.03).unwrap();
    // 50,000 IOPS × 100 s × 4 KiB = 20.48 GB.
    assert!(c.starts_with("a write cache filling: writes fell after ≈20.5 GB written"), "{c}");
    // The same in reads is named nothing.
    assert_eq!(name(&w, &test(100), &cat(), &Config::default(), 0.03), None);
}

use super::*;

fn fixture() -> RunResult {
    serde_json::from_str(include_str!("../report/testdata/iolens_randrw_q4.json")).expect("fixture parses")
}

#[test]
fn save_then_load_gives_the_same_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("a.db")).unwrap();
    assert_eq!(s.version().unwrap(), MIGRATIONS.len() as u32);
    let mut r = fixture();
    r.label = Some("Azure-2 4xP30 RAID0".into());
    r.tags = vec![("cache".into(), "none".into())];
    let id = s.save(&r).unwrap();
    assert_eq!(s.load(id).unwrap().unwrap(), r);
    assert_eq!(s.load(id + 1).unwrap(), None);
    let rows = s.list(&Filter { label: Some("4xP30".into()), ..Filter::default() }).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].id, id);
    assert!(rows[0].headline.contains("IOPS"), "{}", rows[0].headline);
    assert!(s.list(&Filter { host: Some("elsewhere".into()), ..Filter::default() }).unwrap().is_empty());
    assert!(s.delete(id).unwrap());
    assert!(!s.delete(id).unwrap());
    assert!(s.list(&Filter::default()).unwrap().is_empty());
}

#[test]
fn reopening_keeps_results_and_schema() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("b.db");
    let id = Store::open(&p).unwrap().save(&fixture()).unwrap();
    let s = Store::open(&p).unwrap();
    assert_eq!(s.version().unwrap() as usize, super::MIGRATIONS.len());
    assert!(s.load(id).unwrap().is_some());
}

#[test]
fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("c.db");
    drop(Store::open(&p).unwrap());
    Connection::open(&p).unwrap().pragma_update(None, "user_version", 99).unwrap();
    assert!(Store::open(&p).err().unwrap().to_string().contains("newer iolens"));
}

#[test]
fn concurrent_writers_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("d.db");
    drop(Store::open(&p).unwrap());
    let r = fixture();
    std::thread::scope(|sc| {
        for _ in 0..4 {
            sc.spawn(|| {
                let mut s = Store::open(&p).unwrap();
                for _ in 0..5 {
                    s.save(&r).unwrap();
                }
            });
        }
    });
    assert_eq!(Store::open(&p).unwrap().list(&Filter { limit: Some(100), ..Filter::default() }).unwrap().len(), 20);
}

#[test]
fn findings_get_rows_of_their_own_and_go_with_their_result() {
    use crate::result::verify::{Finding, FindingClass, Verification};
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("d.db")).unwrap();
    let finding = |class, offset| Finding {
        file: "/data/f0.mdf".into(),
        offset,
        len: 8192,
        class,
        expected_gen: 4,
        found_gen: Some(3),
        found_offset: Some(offset),
        found_file: None,
        diff_at: 32,
        diff: "expected 04 / found 03".into(),
        rereads: 3,
        bad_rereads: 3,
        at_s: 1.5,
    };
    let mut v = Verification { unit: 512, page: 8192, ..Verification::default() };
    v.add(finding(FindingClass::Stale, 0));
    v.add(finding(FindingClass::Stale, 8192));
    v.add(finding(FindingClass::Torn, 16384));
    let mut r = fixture();
    r.tests[0].verify = Some(v);
    let id = s.save(&r).unwrap();
    assert_eq!(s.load(id).unwrap().unwrap(), r);
    assert_eq!(s.finding_counts(id).unwrap(), vec![("stale".to_string(), 2), ("torn".to_string(), 1)]);
    let clean = s.save(&fixture()).unwrap();
    assert!(s.finding_counts(clean).unwrap().is_empty());
    s.delete(id).unwrap();
    assert!(s.finding_counts(id).unwrap().is_empty());
}

#[test]
fn a_result_with_a_figure_json_cannot_hold_is_not_saved() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("n.db")).unwrap();
    let mut r = fixture();
    r.tests[0].read.lat_us.mean = Some(f64::INFINITY);
    let e = s.save(&r).unwrap_err().to_string();
    assert!(e.starts_with("not saved: test 1 ("), "{e}");
    assert!(s.list(&Filter::default()).unwrap().is_empty());
}

#[test]
fn what_reads_back_differently_is_refused() {
    let json = serde_json::to_string(&fixture()).unwrap();
    assert_eq!(read_back(&json, &json), Ok(()));
    let changed = json.replacen("\"command\":\"", "\"command\":\"x", 1);
    assert_eq!(read_back(&json, &changed), Err("it differs from what was written".into()));
    assert!(read_back(&json, "{}").unwrap_err().contains("missing field"));
}

#[test]
fn history_marks_an_interrupted_run_before_its_figures() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("a.db")).unwrap();
    let whole = s.save(&fixture()).unwrap();
    let mut r = fixture();
    r.interrupted = true;
    r.tests[0].duration_s = 2.5;
    let cut = s.save(&r).unwrap();
    let rows = s.list(&Filter::default()).unwrap();
    let line = |id| rows.iter().find(|e| e.id == id).unwrap().headline.clone();
    assert!(line(cut).starts_with("INTERRUPTED after 2.5 s: 4K randrw50 Q4T1: "), "{}", line(cut));
    assert!(line(whole).starts_with("4K randrw50 Q4T1: "), "{}", line(whole));
}

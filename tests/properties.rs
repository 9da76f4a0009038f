//! The parsers on stable, where the fuzzers of `fuzz/` (nightly) cannot run: arbitrary text and
//! generated job files, command lines, DiskSpd lines and profiles, fio and iolens JSON,
//! catalogs and compressed logs give a value or a one-line error, never a panic; every spec
//! accepted survives JSON, and every result accepted survives JSON and the store.
#![cfg(unix)]

mod props;

use iolens::analyze::matching::matches;
use iolens::analyze::plan::{plan, Target};
use iolens::error::UsageError;
use iolens::frontends::{diskspd, fio};
use iolens::result::RunResult;
use iolens::store::Store;
use iolens::workload::Spec;
use proptest::prelude::*;
use std::path::Path;

/// Cases per property: enough to reach every option and value list several times, few enough
/// that the file runs in seconds.
const CASES: u32 = 96;

fn config() -> ProptestConfig {
    ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() }
}

/// An error names what is wrong (`error::exit_code` prints it on one line whatever it quotes).
fn says_what(e: &UsageError) -> Result<(), TestCaseError> {
    prop_assert!(!e.message.trim().is_empty(), "an error that says nothing: {e:?}");
    Ok(())
}

fn spec_survives_json(s: &Spec) -> Result<(), TestCaseError> {
    let json = serde_json::to_string(s).unwrap();
    let back: Spec = serde_json::from_str(&json).map_err(|e| TestCaseError::fail(format!("{e}: {json}")))?;
    // `size_given` says how the spec was asked for and is not stored.
    prop_assert_eq!(back, s.as_ran());
    Ok(())
}

/// Where two results differ, as the first difference of their JSON (a result printed whole
/// would bury it).
fn differ(what: &str, a: &RunResult, b: &RunResult) -> TestCaseError {
    let (a, b) = (serde_json::to_string(a).unwrap(), serde_json::to_string(b).unwrap());
    let at = a.bytes().zip(b.bytes()).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    let around = |s: &str| s.get(at.saturating_sub(80)..(at + 40).min(s.len())).unwrap_or("").to_string();
    TestCaseError::fail(format!("changed {what}: …{}… became …{}…", around(&a), around(&b)))
}

fn result_survives(r: &RunResult, store: &mut Store) -> Result<(), TestCaseError> {
    let json = serde_json::to_string(r).unwrap();
    let back: RunResult = serde_json::from_str(&json).map_err(|e| TestCaseError::fail(format!("{e}")))?;
    if &back != r {
        return Err(differ("through JSON", r, &back));
    }
    let id = store.save(r).map_err(|e| TestCaseError::fail(format!("save: {e:#}")))?;
    let loaded = store.load(id).map_err(|e| TestCaseError::fail(format!("load: {e:#}")))?;
    match loaded {
        Some(l) if &l == r => Ok(()),
        Some(l) => Err(differ("through the store", r, &l)),
        None => Err(TestCaseError::fail("saved, and not found")),
    }
}

fn fio_jobs(r: Result<Vec<fio::FioJob>, UsageError>) -> Result<(), TestCaseError> {
    match r {
        Ok(jobs) => jobs.iter().try_for_each(|j| spec_survives_json(&j.spec)),
        Err(e) => says_what(&e),
    }
}

fn diskspd_job(r: Result<diskspd::DiskspdJob, UsageError>) -> Result<(), TestCaseError> {
    match r {
        Ok(j) => std::iter::once(&j.spec).chain(&j.later).try_for_each(spec_survives_json),
        Err(e) => says_what(&e),
    }
}

fn no_profile(f: &str) -> Result<String, UsageError> {
    Err(UsageError::new("-X", format!("{f}: no profile here")))
}

fn job_text(text: &str) -> Result<Vec<fio::FioJob>, UsageError> {
    fio::parse_job_text(text, Path::new("/nonexistent/iolens-properties"), &|_| None)
}

fn store() -> Store {
    Store::open(Path::new(":memory:")).unwrap()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_text_as_a_fio_job_file(text in props::text()) {
        fio_jobs(job_text(&text))?;
    }

    #[test]
    fn generated_fio_job_files(text in props::fio_job_file()) {
        fio_jobs(job_text(&text))?;
    }

    #[test]
    fn generated_fio_command_lines(args in props::fio_command_line()) {
        fio_jobs(fio::parse_args(&args))?;
    }

    #[test]
    fn any_arguments_as_a_diskspd_line(args in prop::collection::vec(props::text(), 0..8)) {
        diskspd_job(diskspd::parse_reading(&args, &no_profile))?;
    }

    #[test]
    fn generated_diskspd_lines(args in props::diskspd_line()) {
        diskspd_job(diskspd::parse_reading(&args, &no_profile))?;
    }

    #[test]
    fn any_text_as_a_diskspd_profile(text in props::text()) {
        diskspd_job(diskspd::parse_reading(&["-Xp.xml".into()], &|_| Ok(text.clone())))?;
    }

    #[test]
    fn generated_diskspd_profiles((args, xml) in props::diskspd_profile()) {
        diskspd_job(diskspd::parse_reading(&args, &|_| Ok(xml.clone())))?;
    }

    #[test]
    fn any_text_as_a_catalog(text in props::text()) {
        if let Err(e) = iolens::analyze::catalog::parse(&text, "--catalog c.toml") {
            says_what(&e)?;
        }
    }

    #[test]
    fn generated_catalogs(text in props::catalog()) {
        match iolens::analyze::catalog::parse(&text, "--catalog c.toml") {
            Ok(c) => {
                for d in &c.disks {
                    for gib in [0.0, 1.0, 128.0, 1e6] {
                        let caps = [d.caps(gib, None), d.caps(gib, Some(1e5))];
                        let figures = caps.iter().flat_map(|c| [c.iops, c.mbps]).chain([d.max_iops_at(gib)]);
                        prop_assert!(figures.into_iter().all(|x| x >= 0.0), "{caps:?} at {gib} GiB of {d:?}");
                    }
                }
                let need = Target { iops: 5000.0, mbps: 200.0, clouds: Vec::new(), max_disks: 4, size_gib: Some(100.0), generations_together: false };
                for p in plan(&c, &need) {
                    prop_assert!(p.iops >= need.iops && p.mbps >= need.mbps && p.disk_gib >= 0.0, "{p:?}");
                }
                let _ = matches(&c, Some(5000.0), Some(200.0), 0.1, &Default::default());
            }
            Err(e) => says_what(&e)?,
        }
    }

    #[test]
    fn any_text_as_a_cloud_export(text in props::text()) {
        // Whatever it is, an export is read or refused in words; it never panics.
        if let Err(e) = iolens::analyze::catalog::import::parse(&text) {
            prop_assert!(!e.is_empty());
        }
    }

    #[test]
    fn any_bytes_as_a_compressed_log(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = iolens::run::inflate_log(&bytes);
    }

    #[test]
    fn any_text_as_an_import(text in props::text()) {
        if let Err(e) = iolens::frontends::import::from_text(&text, "r.json", "r.json", None) {
            says_what(&e)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..config() })]

    /// fio's JSON with figures and keys changed: imported, or refused in one line; what is
    /// imported survives JSON and the store.
    #[test]
    fn changed_fio_json_imports_whole_or_not_at_all(doc in props::changed_fio_json()) {
        let mut s = store();
        match iolens::frontends::import::from_text(&doc, "fio.json", "fio.json", Some("vm1")) {
            Ok(r) => result_survives(&r, &mut s)?,
            Err(e) => says_what(&e)?,
        }
    }

    /// iolens' own JSON with figures changed likewise.
    #[test]
    fn changed_iolens_json_imports_whole_or_not_at_all(doc in props::changed_iolens_json()) {
        let mut s = store();
        match iolens::frontends::import::from_text(&doc, "r.json", "r.json", None) {
            Ok(r) => result_survives(&r, &mut s)?,
            Err(e) => says_what(&e)?,
        }
    }
}

// What the property tests and the fuzzers found, each kept as the input that showed it.

/// serde_json's default float parsing may miss the nearest double by one bit: fio's figures
/// came back from the store changed (376.92961842128756 read as 376.9296184212875).
#[test]
fn found_figures_come_back_from_the_store_to_the_bit() {
    let text = include_str!("../src/frontends/fio/testdata/fio-3.33-three-groups.json");
    let r = iolens::frontends::import::from_text(text, "fio.json", "fio.json", None).unwrap();
    let mean = r.tests[0].read.lat_us.mean.unwrap();
    assert_eq!(mean.to_string(), "376.92961842128756");
    let back: RunResult = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back.tests[0].read.lat_us.mean.unwrap().to_bits(), mean.to_bits());
    let mut s = store();
    let id = s.save(&r).unwrap();
    assert_eq!(s.load(id).unwrap().unwrap(), r);
}

/// A catalog row with a limit of NaN (TOML's `nan`) made every cap NaN; -1 and inf likewise
/// meant nothing. They are refused, naming the row and the field.
#[test]
fn found_a_catalog_limit_must_be_a_figure() {
    let row =
        |field: &str| format!("disks = [ {{ cloud = \"c\", kind = \"k\", name = \"d0\", source = \"s\", {field} }} ]");
    let parse = |t: &str| iolens::analyze::catalog::parse(t, "--catalog c.toml").map(|c| c.disks.len());
    for (field, shown) in [("iops = nan", "NaN"), ("max_mbps = inf", "inf"), ("iops_per_gib = -1", "-1")] {
        let e = parse(&row(field)).unwrap_err().to_string();
        let name = field.split(' ').next().unwrap();
        assert_eq!(
            e,
            format!("--catalog c.toml: row 'd0': {name} = {shown} is not a limit (a finite figure, 0 or more)")
        );
    }
    assert_eq!(parse(&row("iops = 0, mbps = 1e6")), Ok(1));
    let vm = "vms = [ { cloud = \"c\", name = \"v\", uncached_mbps = -inf, source = \"s\" } ]";
    assert_eq!(
        parse(vm).unwrap_err().to_string(),
        "--catalog c.toml: row 'v': uncached_mbps = -inf is not a limit (a finite figure, 0 or more)"
    );
}

//! The prerequisite checks themselves: strict mode fails naming what is missing, lax mode skips,
//! and the log says which test ran its privileged part.

use crate::testing::{program, strict, Privileged};

fn log_after(strict: bool, body: impl FnOnce(&Privileged)) -> String {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("privileged.log");
    body(&Privileged::with(strict, Some(log.clone())));
    std::fs::read_to_string(&log).unwrap()
}

#[test]
#[should_panic(expected = "needs fio: cannot run `no-such-program-iolens`")]
fn strict_mode_fails_naming_what_is_missing() {
    let p = Privileged::with(true, None);
    p.need("fio", program("no-such-program-iolens"));
}

#[test]
fn lax_mode_skips_with_the_reason_and_logs_it() {
    let name = "testing_tests::lax_mode_skips_with_the_reason_and_logs_it";
    let log = log_after(false, |p| {
        assert_eq!(p.need("root", Err::<(), _>("running as uid 1000")), None);
        // Later prerequisites are still checked, the first missing one is what the log says.
        assert_eq!(p.need("fio", Ok::<_, String>(3)), Some(3));
        assert_eq!(p.need("chromium", Err::<(), _>("not installed")), None);
        assert_eq!(p.missing().as_deref(), Some("needs root: running as uid 1000"));
    });
    assert_eq!(log, format!("skipped\tiolens {name}\tneeds root: running as uid 1000\n"));
}

#[test]
fn a_test_with_everything_it_needs_is_logged_as_ran() {
    let name = "testing_tests::a_test_with_everything_it_needs_is_logged_as_ran";
    let log = log_after(true, |p| {
        assert_eq!(p.need("fio", Ok::<_, String>("fio-3.33")), Some("fio-3.33"));
    });
    assert_eq!(log, format!("ran\tiolens {name}\n"));
}

#[test]
fn a_failing_privileged_part_is_logged_as_failed() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("privileged.log");
    let l = log.clone();
    let joined = std::thread::Builder::new()
        .name("fails".into())
        .spawn(move || {
            let _p = Privileged::with(true, Some(l));
            panic!("losetup failed");
        })
        .unwrap()
        .join();
    assert!(joined.is_err());
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "failed\tiolens fails\n");
}

#[test]
fn only_0_and_1_are_understood() {
    assert_eq!([None, Some(""), Some("0"), Some("1")].map(strict), [false, false, false, true]);
    let e = std::panic::catch_unwind(|| strict(Some("yes"))).unwrap_err();
    assert_eq!(e.downcast_ref::<String>().unwrap(), "IOLENS_REQUIRE_PRIVILEGED: 'yes' is not 0 or 1");
}

use super::*;

fn args(mpi: bool, stonewall: Option<&str>) -> MpiArgs {
    MpiArgs { mpi, stonewall: stonewall.map(|s| super::stonewall(s).unwrap()) }
}

#[test]
fn single_host_without_mpi() {
    assert!(args(false, None).check().unwrap().is_none());
    // fio's front end takes the mode without clap's `requires`.
    let e = args(false, Some("first-done")).check().unwrap_err();
    assert_eq!(e.to_string(), "--mpi-stonewall: applies to --mpi runs only; add --mpi");
}

#[cfg(all(unix, not(feature = "mpi")))]
#[test]
fn refused_by_a_build_without_mpi() {
    let e = args(true, None).check().unwrap_err();
    assert_eq!(e.option, "--mpi");
    assert!(e.message.contains("lacks MPI") && e.message.contains("--features mpi"), "{e}");
}

#[cfg(windows)]
#[test]
fn refused_on_windows() {
    let e = args(true, None).check().unwrap_err();
    assert_eq!(e.to_string(), "--mpi: runs on Linux only (MPI across hosts); on Windows run each host on its own");
}

#[cfg(feature = "mpi")]
#[test]
fn stonewall_modes() {
    assert_eq!(args(true, None).check().unwrap().unwrap(), Stonewall::None);
    assert_eq!(args(true, Some("first-done")).check().unwrap().unwrap(), Stonewall::FirstDone);
    assert_eq!(args(true, Some("wear-out")).check().unwrap().unwrap(), Stonewall::WearOut);
}

#[test]
fn an_unknown_stonewall_mode_is_refused_at_the_door() {
    let e = super::stonewall("last").unwrap_err();
    assert_eq!(e.to_string(), "--stonewall: 'last' is not allowed; use none, first-done or wear-out");
}

//! When io_uring cannot register the I/O buffers (memlock limit, no CAP_IPC_LOCK), the run goes
//! on with unregistered buffers and says so in the result. Needs root (to drop the capability)
//! and setpriv; skipped with the reason elsewhere, failed under IOLENS_REQUIRE_PRIVILEGED=1.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use std::process::Command;

#[test]
fn unregistered_buffers_are_reported() {
    let privileged = Privileged::new();
    if privileged.need("root (to drop CAP_IPC_LOCK)", root()).is_none()
        || privileged.need("setpriv (util-linux)", program("setpriv")).is_none()
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cmd = format!(
        "ulimit -l 64 && exec setpriv --bounding-set=-ipc_lock --inh-caps=-ipc_lock -- {} run -d 0.3 --size 16M \
         --qd 32 --bs 64k --quiet --format json {}",
        env!("CARGO_BIN_EXE_iolens"),
        dir.path().display()
    );
    let out = Command::new("sh").env("IOLENS_STORE", test_store()).arg("-c").arg(cmd).output().unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let t = test0(&v);
    assert_eq!(t["engine"], "io_uring");
    assert!(
        t["notices"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("could not register the I/O buffers")),
        "{}",
        t["notices"]
    );
    assert!(u(&t["total"]["ios"]) > 0);
}

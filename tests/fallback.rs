//! Where io_uring is unavailable, `--engine io_uring` (the default) falls back to psync with a
//! one-line notice. Root switches io_uring off system-wide for a moment with the
//! kernel.io_uring_disabled sysctl (Linux 6.6+); this file holds a single test so that no other
//! test of this binary runs meanwhile.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;

const KNOB: &str = "/proc/sys/kernel/io_uring_disabled";

struct Restore(String);
impl Drop for Restore {
    fn drop(&mut self) {
        let _ = std::fs::write(KNOB, &self.0);
    }
}

#[test]
fn io_uring_unavailable_falls_back_to_psync() {
    let privileged = Privileged::new();
    if privileged.need("root (to switch io_uring off)", root()).is_none() {
        return;
    }
    let sysctl = std::fs::read_to_string(KNOB).map_err(|e| format!("{KNOB}: {e}"));
    let Some(old) = privileged.need("the kernel.io_uring_disabled sysctl (Linux 6.6+)", sysctl) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = {
        let _restore = Restore(old.trim().to_string());
        std::fs::write(KNOB, "2").unwrap();
        bin()
            .args(["run", "--size", "8M", "-d", "0.3", "--qd", "4", "--format", "json", "--quiet"])
            .arg(dir.path())
            .output()
            .unwrap()
    };
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let notices: Vec<&str> = stderr.lines().filter(|l| l.starts_with("notice: io_uring is unavailable")).collect();
    assert_eq!(notices.len(), 1, "{stderr}");
    assert!(notices[0].ends_with("using psync"), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(test0(&v)["engine"], "psync");
    assert!(u(&test0(&v)["total"]["ios"]) > 0);
    assert_eq!(std::fs::read_to_string(KNOB).unwrap().trim(), old.trim(), "sysctl restored");
}

//! A loop device throttled with cgroup v1 blkio: our stand-in for a capped cloud disk. Needs
//! root, losetup and /sys/fs/cgroup/blkio; `new` skips without them (fails under
//! IOLENS_REQUIRE_PRIVILEGED=1), and fails when they are there but setting up does not work.

use super::{program, root, test_store, Privileged};
use std::path::{Path, PathBuf};
use std::process::Command;

const BLKIO: &str = "/sys/fs/cgroup/blkio";

/// A loop device over a file, a cgroup with throttles on it; both removed on drop.
pub struct Throttled {
    pub dev: String,
    majmin: String,
    cgroup: PathBuf,
    _dir: tempfile::TempDir,
    /// Dropped last: the test's privileged part is logged once the device is gone.
    privileged: Privileged,
}

impl Throttled {
    pub fn new(name: &str) -> Option<Throttled> {
        let privileged = Privileged::new();
        privileged.need("root (loop devices and cgroup throttles)", root())?;
        let knob = Path::new(BLKIO).join("blkio.throttle.read_iops_device");
        let blkio = if knob.exists() { Ok(()) } else { Err(format!("no {}", knob.display())) };
        privileged.need("cgroup v1 blkio throttling", blkio)?;
        privileged.need("losetup (util-linux)", program("losetup"))?;
        // As root with every prerequisite there, failing to set up is a failure, with its reason.
        // The backing file lives on disk, not tmpfs.
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a directory for the loop device's file");
        let backing = dir.path().join("loop.img");
        let data: Vec<u8> = (0..(64u32 << 20)).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        std::fs::write(&backing, data).unwrap_or_else(|e| panic!("writing {}: {e}", backing.display()));
        let out = Command::new("losetup").args(["-f", "--show"]).arg(&backing).output().expect("running losetup");
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "losetup -f --show {}: {}", backing.display(), stderr.trim());
        let dev = stdout.trim().to_string();
        let detach_and_fail = |why: String| -> ! {
            let _ = Command::new("losetup").args(["-d", &dev]).status();
            panic!("{why}")
        };
        let sys = format!("/sys/block/{}/dev", dev.trim_start_matches("/dev/"));
        let majmin = match std::fs::read_to_string(&sys) {
            Ok(s) => s.trim().to_string(),
            Err(e) => detach_and_fail(format!("{dev}: reading {sys}: {e}")),
        };
        let cgroup = Path::new(BLKIO).join(format!("iolens-test-{name}-{}", std::process::id()));
        if let Err(e) = std::fs::create_dir(&cgroup) {
            detach_and_fail(format!("creating the cgroup {}: {e}", cgroup.display()));
        }
        Some(Throttled { dev, majmin, cgroup, _dir: dir, privileged })
    }

    /// A prerequisite of one part of the test (fio for a side-by-side check): as `Privileged::need`.
    pub fn need<T, E: std::fmt::Display>(&self, what: &str, have: Result<T, E>) -> Option<T> {
        self.privileged.need(what, have)
    }

    pub fn set(&self, knob: &str, value: u64) {
        let path = self.cgroup.join(format!("blkio.throttle.{knob}"));
        std::fs::write(&path, format!("{} {value}", self.majmin))
            .unwrap_or_else(|e| panic!("writing '{} {value}' to {}: {e}", self.majmin, path.display()));
    }

    /// A throttle on another device, for the processes of this cgroup: one cgroup can cap
    /// several devices, each differently.
    pub fn set_on(&self, other: &Throttled, knob: &str, value: u64) {
        let path = self.cgroup.join(format!("blkio.throttle.{knob}"));
        std::fs::write(&path, format!("{} {value}", other.majmin))
            .unwrap_or_else(|e| panic!("writing '{} {value}' to {}: {e}", other.majmin, path.display()));
    }

    /// Runs a command line inside the cgroup.
    pub fn run(&self, cmd: &str) -> std::process::Output {
        self.command(cmd).output().unwrap()
    }

    /// Starts a command line inside the cgroup, its output piped, for a test to change the
    /// throttle while it runs.
    pub fn spawn(&self, cmd: &str) -> std::process::Child {
        use std::process::Stdio;
        self.command(cmd).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
    }

    fn command(&self, cmd: &str) -> Command {
        let procs = self.cgroup.join("cgroup.procs");
        let mut c = Command::new("sh");
        c.env("IOLENS_STORE", test_store()).arg("-c").arg(format!("echo $$ > {} && exec {cmd}", procs.display()));
        c
    }
}

impl Drop for Throttled {
    fn drop(&mut self) {
        let _ = Command::new("losetup").args(["-d", &self.dev]).status();
        // The cgroup can be removed once its processes (our short-lived children) are gone.
        for _ in 0..50 {
            if std::fs::remove_dir(&self.cgroup).is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

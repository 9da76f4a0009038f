//! A loop device throttled with cgroup v1 blkio: our stand-in for a capped cloud disk. Needs
//! root, losetup and /sys/fs/cgroup/blkio; `new` says why it skips elsewhere.

use super::{is_root, skip, test_store};
use std::path::{Path, PathBuf};
use std::process::Command;

const BLKIO: &str = "/sys/fs/cgroup/blkio";

/// A loop device over a file, a cgroup with throttles on it; both removed on drop.
pub struct Throttled {
    pub dev: String,
    majmin: String,
    cgroup: PathBuf,
    _dir: tempfile::TempDir,
}

impl Throttled {
    pub fn new(name: &str) -> Option<Throttled> {
        if !is_root() {
            skip("not root: loop devices and cgroup throttles need root");
            return None;
        }
        if !Path::new(BLKIO).join("blkio.throttle.read_iops_device").exists() {
            skip("no cgroup v1 blkio throttling at /sys/fs/cgroup/blkio");
            return None;
        }
        // The backing file lives on disk, not tmpfs.
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).ok()?;
        let backing = dir.path().join("loop.img");
        let data: Vec<u8> = (0..(64u32 << 20)).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        std::fs::write(&backing, data).ok()?;
        let out = Command::new("losetup").args(["-f", "--show"]).arg(&backing).output();
        let dev = match out {
            Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
            Ok(o) => {
                skip(&format!("losetup failed: {}", String::from_utf8_lossy(&o.stderr).trim()));
                return None;
            }
            Err(e) => {
                skip(&format!("losetup not available: {e}"));
                return None;
            }
        };
        let base = dev.trim_start_matches("/dev/");
        let majmin = std::fs::read_to_string(format!("/sys/block/{base}/dev")).ok()?.trim().to_string();
        let cgroup = Path::new(BLKIO).join(format!("iolens-test-{name}-{}", std::process::id()));
        std::fs::create_dir(&cgroup).ok()?;
        Some(Throttled { dev, majmin, cgroup, _dir: dir })
    }

    pub fn set(&self, knob: &str, value: u64) {
        std::fs::write(self.cgroup.join(format!("blkio.throttle.{knob}")), format!("{} {value}", self.majmin)).unwrap();
    }

    /// Runs a command line inside the cgroup.
    pub fn run(&self, cmd: &str) -> std::process::Output {
        let procs = self.cgroup.join("cgroup.procs");
        Command::new("sh")
            .env("IOLENS_STORE", test_store())
            .arg("-c")
            .arg(format!("echo $$ > {} && exec {cmd}", procs.display()))
            .output()
            .unwrap()
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

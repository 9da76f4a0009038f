//! Linux's tracefs: an instance of its own (instances/iolens-capture-PID) keeps the global buffer and whatever
//! else traces on the machine untouched; the instance is removed when the capture ends.

use crate::error::UsageError;
use std::fs::File;
use std::io::{ErrorKind, Read};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

const TRACEFS: &str = "/sys/kernel/tracing";
const EVENTS: [&str; 2] = ["block_rq_issue", "block_rq_complete"];
/// Each CPU's buffer in the instance, KiB: seconds of a busy device between two reads.
const BUFFER_KB: u32 = 8192;

/// An instance tracing one device's requests; disabled and removed on drop.
pub struct BlockTrace {
    dir: PathBuf,
    pipe: File,
}

/// The device's number as the tracepoints' `dev` field holds it (MAJOR << 20 | MINOR).
fn device_number(dev: &Path) -> Result<u64, UsageError> {
    let shown = dev.display().to_string();
    let meta = std::fs::metadata(dev).map_err(|e| UsageError::new(&shown, format!("cannot be read: {e}")))?;
    if !meta.file_type().is_block_device() {
        return Err(UsageError::new(shown, "is not a block device; capture records a block device's requests"));
    }
    let rdev = meta.rdev();
    let (major, minor) = (libc::major(rdev) as u64, libc::minor(rdev) as u64);
    Ok(major << 20 | minor)
}

/// tracefs's directory, mounting it when it is not.
fn tracefs() -> Result<PathBuf, UsageError> {
    let root = Path::new(TRACEFS);
    if root.join("instances").is_dir() {
        return Ok(root.to_path_buf());
    }
    let status = std::process::Command::new("mount").args(["-t", "tracefs", "nodev", TRACEFS]).output();
    match status {
        Ok(o) if o.status.success() && root.join("instances").is_dir() => Ok(root.to_path_buf()),
        Ok(o) => Err(UsageError::new(
            "capture",
            format!(
                "tracefs is not mounted at {TRACEFS} and mounting it failed: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            ),
        )),
        Err(e) => {
            Err(UsageError::new("capture", format!("tracefs is not mounted at {TRACEFS} and mount cannot run: {e}")))
        }
    }
}

/// Removes the instances of captures whose process is gone: a second Ctrl-C ends a capture at
/// once, before it removes its own.
fn remove_stale(instances: &Path) {
    let Ok(list) = std::fs::read_dir(instances) else { return };
    for e in list.flatten() {
        let name = e.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix("iolens-capture-")) else { continue };
        if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
            for ev in EVENTS {
                let _ = std::fs::write(e.path().join(format!("events/block/{ev}/enable")), "0");
            }
            let _ = std::fs::remove_dir(e.path());
        }
    }
}

impl BlockTrace {
    /// Starts tracing `dev`'s request issues and completions.
    pub fn start(dev: &Path) -> Result<BlockTrace, UsageError> {
        let number = device_number(dev)?;
        let uid = unsafe { libc::geteuid() };
        if uid != 0 {
            return Err(UsageError::new(
                "capture",
                format!("reading the kernel's block tracepoints needs root (running as uid {uid})"),
            ));
        }
        let root = tracefs()?;
        let events = root.join("events/block");
        if !EVENTS.iter().all(|e| events.join(e).is_dir()) {
            return Err(UsageError::new(
                "capture",
                format!("this kernel has no block_rq_issue/block_rq_complete tracepoints under {}", events.display()),
            ));
        }
        remove_stale(&root.join("instances"));
        let dir = root.join("instances").join(format!("iolens-capture-{}", std::process::id()));
        std::fs::create_dir(&dir).map_err(|e| {
            UsageError::new("capture", format!("cannot create the tracefs instance {}: {e}", dir.display()))
        })?;
        // From here on, dropping the half-made trace removes the instance; the instance's pipe
        // is opened once its events are set.
        let pipe = match File::open("/dev/null") {
            Ok(f) => f,
            Err(e) => {
                let _ = std::fs::remove_dir(&dir);
                return Err(UsageError::new("capture", format!("cannot open /dev/null: {e}")));
            }
        };
        let mut t = BlockTrace { dir, pipe };
        t.setup(number).map_err(|e| UsageError::new("capture", format!("setting up the tracefs instance: {e}")))?;
        Ok(t)
    }

    fn setup(&mut self, number: u64) -> std::io::Result<()> {
        let w = |rel: &str, v: &str| {
            let p = self.dir.join(rel);
            std::fs::write(&p, v)
                .map_err(|e| std::io::Error::new(e.kind(), format!("writing '{v}' to {}: {e}", p.display())))
        };
        w("buffer_size_kb", &BUFFER_KB.to_string())?;
        for e in EVENTS {
            w(&format!("events/block/{e}/filter"), &format!("dev == {number}"))?;
        }
        for e in EVENTS {
            w(&format!("events/block/{e}/enable"), "1")?;
        }
        // The instance's own pipe, without blocking: the caller's clock and Ctrl-C decide when to stop.
        self.pipe =
            std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(self.dir.join("trace_pipe"))?;
        Ok(())
    }

    /// Appends what the kernel has traced to `buf`, waiting `wait_ms` when there was nothing;
    /// the bytes read (0 when nothing came). Not poll(2): tracefs wakes a poller only once the
    /// buffer is `buffer_percent` full, which a quiet device may never reach.
    pub fn read(&mut self, buf: &mut Vec<u8>, wait_ms: u64) -> std::io::Result<usize> {
        let mut chunk = [0u8; 65536];
        let mut total = 0;
        loop {
            match self.pipe.read(&mut chunk) {
                Ok(n) if n > 0 => {
                    buf.extend_from_slice(&chunk[..n]);
                    total += n;
                }
                Ok(_) => break,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted) => break,
                Err(e) => return Err(e),
            }
        }
        if total == 0 {
            std::thread::sleep(std::time::Duration::from_millis(wait_ms));
        }
        Ok(total)
    }

    /// Stops tracing; what was traced stays readable until drop.
    pub fn stop(&mut self) {
        for e in EVENTS {
            let _ = std::fs::write(self.dir.join(format!("events/block/{e}/enable")), "0");
        }
    }
}

impl Drop for BlockTrace {
    fn drop(&mut self) {
        self.stop();
        // The pipe holds the instance busy: close it before removing the instance.
        self.pipe = match File::open("/dev/null") {
            Ok(f) => f,
            Err(_) => return,
        };
        let _ = std::fs::remove_dir(&self.dir);
    }
}

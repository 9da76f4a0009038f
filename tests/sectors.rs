//! Unbuffered I/O moves whole sectors: on a device with 4 KiB sectors (a loop device made with
//! `losetup -b 4096`, as 4Kn disks and many cloud volumes are), a block size or offset that is
//! not a multiple of 4096 is refused in one line naming the sector size, before any I/O; what
//! is aligned runs, and buffered I/O takes any multiple of 512.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;

/// Runs iolens on `dev` with `args`: (exit code, stdout, stderr).
fn run(dev: &str, args: &[&str]) -> (i32, String, String) {
    let out = bin()
        .args(["run", "--rw", "randread", "-d", "0.5", "--size", "8m", "--no-store", "--quiet"])
        .args(args)
        .arg(dev)
        .output()
        .unwrap();
    parts(&out)
}

#[test]
fn misaligned_blocks_and_offsets_are_refused_by_the_sector_size() {
    let privileged = Privileged::new();
    if privileged.need("root (loop devices)", root()).is_none()
        || privileged.need("losetup (util-linux)", program("losetup")).is_none()
    {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let img = d.path().join("disk4k.img");
    std::fs::write(&img, vec![7u8; 16 << 20]).unwrap();
    let out = std::process::Command::new("losetup").args(["-b", "4096", "-f", "--show"]).arg(&img).output().unwrap();
    assert!(out.status.success(), "losetup -b 4096: {}", String::from_utf8_lossy(&out.stderr));
    let dev = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let small = run(&dev, &["--direct", "--bs", "512"]);
    let offset = run(&dev, &["--direct", "--bs", "4k", "--offset", "512"]);
    let aligned = run(&dev, &["--direct", "--bs", "4k", "--format", "json"]);
    let buffered = run(&dev, &["--buffered", "--bs", "512"]);
    let _ = std::process::Command::new("losetup").args(["-d", &dev]).status();

    eprintln!("--bs 512 on {dev}: {}", small.2.trim());
    assert_eq!(small.0, 2, "{}", small.2);
    assert_eq!(
        small.2.trim(),
        format!(
            "error: --bs: 512 bytes is not a multiple of 4096, the sector size of the device under {dev}, which unbuffered I/O needs; use --buffered or a multiple of 4096"
        )
    );
    assert_eq!(offset.0, 2, "{}", offset.2);
    assert_eq!(
        offset.2.trim(),
        format!("error: --offset: 512 is not a multiple of 4096, the sector size of the device under {dev}")
    );
    assert_eq!(aligned.0, 0, "{}", aligned.2);
    let v: serde_json::Value = serde_json::from_str(&aligned.1).unwrap();
    assert!(u(&test0(&v)["total"]["ios"]) > 0, "no I/O on an aligned run: {}", aligned.1);
    assert_eq!(buffered.0, 0, "buffered 512-byte reads: {}", buffered.2);
}

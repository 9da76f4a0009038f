//! Tests of the target rules: what plan() refuses and what it sizes.

use super::*;
#[cfg(unix)]
use std::os::unix::fs::FileTypeExt;

/// `plan` with the size given (or not) by the user.
fn plan_sized(spec: &Spec, size_given: bool) -> Result<Vec<Plan>, UsageError> {
    plan(&Spec { size_given, ..spec.clone() })
}

/// The block device holding the root file system, if it is one we can see.
#[cfg(unix)]
fn root_device() -> Option<String> {
    let text = fs::read_to_string("/proc/self/mountinfo").ok()?;
    text.lines().find_map(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        let sep = f.iter().position(|x| *x == "-")?;
        let src = f.get(sep + 2)?;
        (f.get(4) == Some(&"/") && src.starts_with("/dev/")).then(|| src.to_string())
    })
}

#[cfg(unix)]
#[test]
fn mounted_device_is_never_planned_for_writes() {
    // plan() only looks; it opens nothing for writing, so this is safe on the root disk.
    let privileged = crate::testing::Privileged::new();
    let dev = root_device().filter(|d| fs::metadata(d).is_ok_and(|m| m.file_type().is_block_device()));
    let visible = dev.ok_or("no block device under /dev is mounted on / here");
    let Some(dev) = privileged.need("the root file system on a visible block device", visible) else { return };
    let spec = Spec { targets: vec![dev.clone()], read_pct: 0, force_device: true, ..Spec::default() };
    let e = plan_sized(&spec, false).unwrap_err();
    assert!(e.message.contains("is mounted on /"), "{dev}: {e}");
    let spec = Spec { force_device: false, ..spec };
    assert!(plan_sized(&spec, false).unwrap_err().message.contains("needs --force-device"));
}

#[test]
fn existing_file_size_and_region_rules() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f");
    fs::write(&p, vec![1u8; 1 << 20]).unwrap();
    let spec = Spec { targets: vec![p.display().to_string()], ..Spec::default() };
    let plans = plan_sized(&spec, false).unwrap();
    assert_eq!(plans[0].size, 1 << 20);
    assert_eq!(plans[0].kind, Kind::File { ours: false });
    assert_eq!(plan_sized(&spec, true).unwrap_err().option, "--size");
    let spec = Spec { offset: 1 << 20, ..spec };
    assert_eq!(plan_sized(&spec, false).unwrap_err().option, "--offset");
}

#[cfg(unix)] // /dev/null is Unix's character device; Windows has none to name.
#[test]
fn character_devices_need_a_size_and_force_for_writes() {
    let spec = Spec { targets: vec!["/dev/null".into()], read_pct: 0, size: 1 << 20, ..Spec::default() };
    assert!(plan_sized(&spec, true).unwrap_err().message.contains("writing to it needs --force-device"));
    let spec = Spec { force_device: true, ..spec };
    assert!(plan_sized(&spec, false).unwrap_err().message.contains("has no size"));
    let p = plan_sized(&spec, true).unwrap();
    assert_eq!((p[0].kind, p[0].size), (Kind::Device, 1 << 20));
}

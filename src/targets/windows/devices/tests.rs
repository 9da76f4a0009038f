use super::*;

#[test]
fn disks_and_volumes_are_told_apart_by_name() {
    assert_eq!(device_path(Path::new("#2")), PathBuf::from(r"\\.\PhysicalDrive2"));
    assert_eq!(device_path(Path::new(r"\\.\E:")), PathBuf::from(r"\\.\E:"));
    assert!(matches!(parse(Path::new(r"\\.\PhysicalDrive12")), Some(Device::Disk(12))));
    assert!(matches!(parse(Path::new(r"\\.\physicaldrive0")), Some(Device::Disk(0))));
    assert!(matches!(parse(Path::new(r"\\.\e:")), Some(Device::Volume('E'))));
    assert!(parse(Path::new(r"\\.\PhysicalDriveX")).is_none());
    assert!(parse(Path::new(r"\\.\E:\dir")).is_none());
    assert!(write_refusal(Path::new(r"\\.\COM1")).unwrap().contains("is not a disk"));
}

#[test]
fn the_system_volume_is_never_written() {
    // The volume Windows runs from always has a file system; wine's C: does too.
    let windir = std::env::var("SystemRoot").unwrap_or_else(|_| r"C:\windows".into());
    let letter = windir.chars().next().unwrap();
    let why = write_refusal(Path::new(&format!(r"\\.\{letter}:"))).unwrap();
    assert!(why.contains("mounted"), "{why}");
}

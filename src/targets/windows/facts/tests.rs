use super::*;

#[test]
fn bus_types_by_name() {
    assert_eq!(bus_name(0), None);
    assert_eq!(bus_name(10), Some("SAS"));
    assert_eq!(bus_name(11), Some("SATA"));
    assert_eq!(bus_name(14), Some("Virtual"));
    assert_eq!(bus_name(16), Some("Spaces"));
    assert_eq!(bus_name(17), Some("NVMe"));
    assert_eq!(bus_name(-1), None);
    assert_eq!(bus_name(0x7f), None);
}

#[test]
fn os_names_as_windows_shows_them() {
    let (os, kernel) = os_name(Some("Windows Server 2022 Datacenter"), Some("21H2"), (10, 0, 20348), Some(2340));
    assert_eq!(os, "Windows Server 2022 Datacenter 21H2");
    assert_eq!(kernel, "10.0.20348.2340");
    // Windows 11 still calls itself Windows 10 in the registry.
    let (os, _) = os_name(Some("Windows 10 Pro"), Some("23H2"), (10, 0, 22631), None);
    assert_eq!(os, "Windows 11 Pro 23H2");
    assert_eq!(os_name(None, None, (6, 3, 9600), None), ("Windows 6.3".into(), "6.3.9600".into()));
}

#[test]
fn models_join_vendor_and_product_once() {
    let s = |x: &str| Some(x.to_string());
    assert_eq!(model(s("Msft"), s("Virtual Disk")), s("Msft Virtual Disk"));
    assert_eq!(model(s("Msft"), s("Storage Space")), s("Msft Storage Space"));
    assert_eq!(model(s("NVMe"), s("NVMe Samsung SSD")), s("NVMe Samsung SSD"));
    assert_eq!(model(None, s("Samsung SSD 980 PRO 1TB")), s("Samsung SSD 980 PRO 1TB"));
    assert_eq!(model(s("VMware"), None), s("VMware"));
}

#[test]
fn this_machine_has_facts() {
    let h = host(Vec::new());
    assert!(h.os.contains("Windows"), "{h:?}");
    assert!(h.kernel.split('.').count() >= 3, "{h:?}");
    assert!(h.memory_bytes > 0 && memory_available().is_some_and(|a| a > 0), "{h:?}");
    let dir = std::env::temp_dir();
    let mut t = TargetInfo {
        path: dir.display().to_string(),
        kind: crate::result::host::TargetKind::File,
        size_bytes: 0,
        created: false,
        device: None,
        model: None,
        scheduler: None,
        rotational: None,
        logical_block_size: None,
        filesystem: None,
        mount_point: None,
        cluster_bytes: None,
        bus: None,
    };
    describe(&mut t, &dir);
    assert!(t.mount_point.as_deref().is_some_and(|m| m.ends_with('\\')), "{t:?}");
}

use super::*;

#[test]
fn built_in_rows_convert_and_compute() {
    let c = Catalog::load_with(None, None).unwrap();
    let p30 = c.disk("p30").unwrap();
    assert_eq!(p30.caps(0.0, None), Caps { iops: 5000.0, mbps: 200.0 });
    // gp3: 500 IOPS per GiB, so 16,000 needs 32 GiB; 125 MiB/s free = 131.072 MB/s.
    let gp3 = c.disk("gp3").unwrap();
    assert_eq!(gp3.caps(31.0, Some(16000.0)).iops, 15500.0);
    assert_eq!(gp3.caps(32.0, Some(16000.0)).iops, 16000.0);
    assert!((gp3.caps(100.0, None).mbps - 131.072).abs() < 1e-9);
    // pd-ssd: 6,000 + 30 per GiB.
    assert_eq!(c.disk("pd-ssd").unwrap().caps(1000.0, None).iops, 36000.0);
    // n2 with 4 vCPUs: pd-ssd capped at 15,000 IOPS and 240 MiB/s, reads and writes alike.
    let n2 = c.vm("n2-standard-4", Some("pd-ssd")).unwrap();
    let (caps, burst) = n2.caps_for(c.disk("pd-ssd").unwrap(), None).unwrap();
    assert_eq!((caps.iops, burst), (15000.0, None));
    assert!((caps.mbps - 240.0 * 1.048576).abs() < 1e-9);
    // pd-standard reads less than it writes there: a mixed load gets the lower figure.
    let (caps, _) = n2.caps_for(c.disk("pd-standard").unwrap(), None).unwrap();
    assert_eq!(caps.iops, 3000.0);
    // A Hyperdisk-only question finds no n2 band: none publishes a Hyperdisk cap here.
    assert!(c.vm("n2-standard-4", Some("hyperdisk-balanced")).is_none());
    assert_eq!(c.vm("Standard_D8s_v3", None).unwrap().uncached_iops, Some(12800.0));
    assert!(c.sources.iter().any(|s| s.id == "A36"));
    assert!(c.disks.iter().chain([]).all(|d| !d.source.is_empty()));
}

#[test]
fn a_users_catalog_adds_rows_and_bad_ones_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("san.toml");
    std::fs::write(&f, "disks = [ { cloud = \"onprem\", kind = \"SAN\", name = \"gold-lun\", iops = 20000, mbps = 800, source = \"array spec\" } ]").unwrap();
    let c = Catalog::load_with(None, Some(&f)).unwrap();
    assert_eq!(c.disk("gold-lun").unwrap().iops, Some(20000.0));
    std::fs::write(&f, "disks = [ { cloud = \"x\", kind = \"y\", name = \"z\", iopz = 1, source = \"s\" } ]").unwrap();
    let e = Catalog::load_with(None, Some(&f)).unwrap_err().to_string();
    assert!(e.starts_with(&format!("--catalog {}: is not a catalog: ", f.display())), "{e}");
}

#[test]
fn provisioned_disks_keep_their_rules_at_the_edges() {
    let c = Catalog::built_in();
    let v2 = c.disk("PremiumV2_LRS").unwrap();
    // The free baseline at any size: 3,000 IOPS and 125 MB/s on 1 GiB, asked for or not.
    assert_eq!(v2.caps(1.0, None), Caps { iops: 3000.0, mbps: 125.0 });
    assert_eq!(v2.caps(1.0, Some(100.0)).iops, 3000.0);
    // The per-GiB ceiling: 500 IOPS per GiB, so 8 GiB allow 4,000 (the page's own example)
    // and 80,000 needs 160 GiB.
    assert_eq!(v2.caps(8.0, Some(1e9)).iops, 4000.0);
    assert_eq!(v2.caps(159.0, Some(1e9)).iops, 79500.0);
    assert_eq!(v2.caps(160.0, Some(1e9)).iops, 80000.0);
    assert_eq!(v2.caps(65536.0, Some(1e9)).iops, 80000.0);
    // MB/s up to 0.25 per provisioned IOPS: 8,000 IOPS allow the 2,000 MB/s maximum, 4,000
    // allow 1,000; never below the free 125.
    assert_eq!(v2.caps(16.0, Some(8000.0)).mbps, 2000.0);
    assert_eq!(v2.caps(8.0, Some(4000.0)).mbps, 1000.0);
    assert_eq!(v2.caps(1.0, Some(3000.0)).mbps, 750.0);
    assert_eq!(v2.caps(1000.0, Some(1e9)).mbps, 2000.0);
    // Ultra Disk: 1,000 IOPS per GiB from its 100 minimum, up to 400,000; 0.25 MB/s per IOPS.
    let ultra = c.disk("UltraSSD_LRS").unwrap();
    assert_eq!(ultra.caps(4.0, Some(1e9)), Caps { iops: 4000.0, mbps: 1000.0 });
    assert_eq!(ultra.caps(4.0, Some(50.0)).iops, 100.0);
    assert_eq!(ultra.caps(512.0, Some(1e9)), Caps { iops: 400000.0, mbps: 10000.0 });
    // gp3 today: 3,000 IOPS and 125 MiB/s free; up to 80,000 IOPS and 2,000 MiB/s.
    let gp3 = c.disk("gp3").unwrap();
    assert_eq!(gp3.caps(1.0, None).iops, 3000.0);
    assert_eq!(gp3.max_iops_at(65536.0), 80000.0);
    assert!((gp3.caps(65536.0, Some(1e9)).mbps - 2000.0 * 1.048576).abs() < 1e-9);
    // io2 is Block Express: 1,000 IOPS per GiB up to 256,000.
    let io2 = c.disk("io2").unwrap();
    assert_eq!(
        (io2.max_iops_at(100.0), io2.max_iops_at(256.0), io2.max_iops_at(1000.0)),
        (100000.0, 256000.0, 256000.0)
    );
}

use super::*;
use crate::analyze::catalog::{parse, Catalog, PriceOverride};
use crate::analyze::plan::{plan, Candidate, Target};

const TOY: &str = r#"
disks = [
  { cloud = "toy", kind = "SSD", name = "T1", size_gib = 100, iops = 1000, mbps = 50, source = "S", price_month = 10.0, currency = "USD", region = "r1", price_source = "$1" },
  { cloud = "toy", kind = "SSD", name = "T2", size_gib = 100, iops = 1000, mbps = 50, source = "S" },
  { cloud = "toy", kind = "Flex", name = "F", min_gib = 1, max_gib = 1000, provisioned = true, base_iops = 500, min_iops = 500, iops_per_gib = 100, max_iops = 10000, base_mbps = 20, mbps_per_iops = 0.1, max_mbps = 500, source = "S", price_gib_month = 0.5, price_iops_month = 0.01, price_mbps_month = 0.2, currency = "USD", region = "r1", price_source = "$1" },
]
vms = [
  { cloud = "toy", name = "V", max_disks = 8, uncached_iops = 100000, uncached_mbps = 1000, source = "S", price_hour = 1.0, currency = "USD", region = "r1", price_source = "$1" },
]
sources = [ { id = "S", ref = "limits" }, { id = "$1", ref = "price list", url = "https://example.org/prices", read = "2026-11-26" } ]
"#;

fn target(iops: f64, mbps: f64) -> Target {
    Target { iops, mbps, clouds: vec!["toy".into()], max_disks: 8, size_gib: None, generations_together: false }
}

fn find<'a>(found: &'a [Candidate], disk: &str, count: u32) -> &'a Candidate {
    found.iter().find(|c| c.disk == disk && c.count == count).unwrap_or_else(|| panic!("no {count} × {disk}"))
}

#[test]
fn a_priced_configuration_costs_its_disks_times_count_plus_the_vm() {
    let cat = parse(TOY, "toy").unwrap();
    let found = plan(&cat, &target(2500.0, 100.0));
    let c = find(&found, "T1", 3);
    assert_eq!(c.disk_price_month, Some(10.0));
    assert_eq!(c.vm_price_month, Some(730.0));
    assert_eq!(c.price_month, Some(3.0 * 10.0 + 730.0));
    // The same disk without a price has none, and ranks after every priced one.
    let u = find(&found, "T2", 3);
    assert_eq!((u.disk_price_month, u.price_month), (None, None));
    let pos = |c: &Candidate| found.iter().position(|x| x == c).unwrap();
    assert!(found.iter().filter(|x| x.price_month.is_some()).all(|x| pos(x) < pos(u)));
    let prices: Vec<f64> = found.iter().filter_map(|x| x.price_month).collect();
    assert!(prices.windows(2).all(|w| w[0] <= w[1]), "{prices:?}");
}

#[test]
fn a_formula_disk_pays_per_gib_and_for_iops_and_throughput_above_its_baseline() {
    let cat = parse(TOY, "toy").unwrap();
    let f = cat.disk("F").unwrap();
    // 30 GiB, 3,000 IOPS and 70 MB/s: 30 × 0.5 + 2,500 × 0.01 + 50 × 0.2.
    assert!((disk_month(f, 30.0, Some(3000.0), 70.0).unwrap() - (15.0 + 25.0 + 10.0)).abs() < 1e-9);
    // At the baseline only the capacity costs.
    assert_eq!(disk_month(f, 30.0, Some(500.0), 20.0), Some(15.0));
    let found = plan(&cat, &target(3000.0, 40.0));
    let c = find(&found, "F", 1);
    let expect = c.disk_gib * 0.5 + (c.provisioned_iops.unwrap() - 500.0) * 0.01 + 20.0 * 0.2 + 730.0;
    assert!((c.price_month.unwrap() - expect).abs() < 1e-9, "{c:?}");
}

#[test]
fn a_price_without_its_source_or_currency_is_refused() {
    let no_src = TOY.replace(
        r#", price_source = "$1" },
  { cloud = "toy", kind = "SSD", name = "T2""#,
        r#" },
  { cloud = "toy", kind = "SSD", name = "T2""#,
    );
    assert_eq!(
        parse(&no_src, "c.toml").unwrap_err().to_string(),
        "c.toml: row 'T1': a price needs price_source, the id of the source it was read from"
    );
    let unknown = TOY.replace(
        r#"price_hour = 1.0, currency = "USD", region = "r1", price_source = "$1""#,
        r#"price_hour = 1.0, currency = "USD", price_source = "$9""#,
    );
    assert_eq!(
        parse(&unknown, "c.toml").unwrap_err().to_string(),
        "c.toml: row 'V': price_source '$9' is not in sources"
    );
}

#[test]
fn the_built_in_catalog_prices_what_its_sources_give_and_nothing_else() {
    let cat = Catalog::built_in().priced_in(&[]);
    // No primary source gave Ultra Disk's, Hyperdisk's or pd-ssd's price: none.
    for name in ["UltraSSD_LRS", "hyperdisk-balanced", "pd-ssd"] {
        assert!(disk_month(cat.disk(name).unwrap(), 64.0, Some(3000.0), 100.0).is_none(), "{name}");
    }
    let m5 = cat.vm("m5.large", None).unwrap();
    assert!((vm_month(m5).unwrap() - 0.096 * 730.0).abs() < 1e-9);
    assert_eq!(m5.region.as_deref(), Some("us-east-1"));
    // gp3's throughput price is per MiB/s: per MB/s it is 1.048576 times smaller.
    let gp3 = cat.disk("gp3").unwrap();
    assert!((gp3.price_mbps_month.unwrap() - 0.04 / 1.048576).abs() < 1e-12);
    // Every price names its source, which names the day it was read.
    for p in &cat.prices {
        let s = cat.sources.iter().find(|s| s.id == p.price_source).unwrap();
        assert!(s.read.is_some() && p.region.is_some(), "{}", p.name);
    }
    // In another region, only what is priced there is priced: never a price from elsewhere.
    let mut c = Catalog::built_in();
    let ireland = PriceOverride {
        cloud: "aws".into(),
        name: "m5.large".into(),
        price_hour: Some(0.107),
        currency: "USD".into(),
        region: Some("eu-west-1".into()),
        price_source: "P1".into(),
        ..PriceOverride::default()
    };
    c.prices.push(ireland);
    let elsewhere = c.priced_in(&["eu-west-1".into()]);
    assert_eq!(elsewhere.vm("m5.large", None).unwrap().price_hour, Some(0.107));
    assert!(elsewhere.vms.iter().filter(|v| v.cloud == "aws" && v.name != "m5.large").all(|v| v.price_hour.is_none()));
    assert!(elsewhere.disks.iter().filter(|d| d.cloud == "aws").all(|d| d.price_gib_month.is_none()));
}

#[test]
fn a_user_catalog_prices_rows_by_region_and_names_what_it_cannot_match() {
    let dir = std::env::temp_dir().join(format!("iolens-price-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("mine.toml");
    std::fs::write(&f, "prices = [ { cloud = \"azure\", name = \"P30\", price_month = 120.5, currency = \"EUR\", region = \"westeurope\", price_source = \"C\" }, { cloud = \"azure\", name = \"D2s_v3\", price_hour = 0.1, currency = \"EUR\", price_source = \"C\" } ]\nsources = [ { id = \"C\", ref = \"our contract 2026\" } ]\n").unwrap();
    let loaded = Catalog::load_with(None, Some(&f)).unwrap();
    let cat = loaded.priced_in(&["westeurope".into()]);
    let p30 = cat.disk("P30").unwrap();
    assert_eq!(
        (p30.price_month, p30.currency.as_deref(), p30.region.as_deref()),
        (Some(120.5), Some("EUR"), Some("westeurope"))
    );
    // The regional price holds in its region only; the contract's (no region) everywhere.
    let east = loaded.priced_in(&[]);
    assert_eq!(east.disk("P30").unwrap().price_month, None);
    assert_eq!(east.vm("D2s_v3", None).unwrap().price_hour, Some(0.1));
    let t = Target {
        iops: 3000.0,
        mbps: 40.0,
        clouds: vec!["azure".into()],
        max_disks: 1,
        size_gib: None,
        generations_together: true,
    };
    let found = plan(&cat, &t);
    let c = found.iter().find(|c| c.disk == "P30" && c.vm.as_deref() == Some("D2s_v3")).unwrap();
    assert!((c.price_month.unwrap() - (120.5 + 73.0)).abs() < 1e-9, "{c:?}");
    assert_eq!(found[0], *c, "the only fully priced configuration ranks first");
    std::fs::write(&f, "prices = [ { cloud = \"azure\", name = \"P99\", price_month = 1, currency = \"USD\", price_source = \"x\" } ]\nsources = [ { id = \"x\", ref = \"y\" } ]\n").unwrap();
    let e = Catalog::load_with(None, Some(&f)).unwrap_err().to_string();
    assert_eq!(e, format!("--catalog {}: prices: 'P99' is not a disk or VM of azure in the catalog", f.display()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_gp3_costs_exactly_what_it_is_shown_to_give() {
    // 2,000 IOPS and 140 MB/s on one disk: gp3's free 3,000 IOPS on its 1 GiB minimum for
    // them, and 140 MB/s of throughput provisioned, 125 MiB/s of it free. m5.large's 81.25
    // MB/s is too little; m5.xlarge's 143.75 carries it.
    let t = Target {
        iops: 2000.0,
        mbps: 140.0,
        clouds: vec!["aws".into()],
        max_disks: 1,
        size_gib: None,
        generations_together: false,
    };
    let found = plan(&Catalog::built_in().priced_in(&[]), &t);
    let c = found.iter().find(|c| c.disk == "gp3" && c.vm.as_deref() == Some("m5.xlarge")).expect("gp3 on m5.xlarge");
    assert_eq!((c.disk_gib, c.provisioned_iops, c.provisioned_mbps), (1.0, Some(3000.0), Some(140.0)));
    // The disk gives what it is provisioned for, not the 750 MiB/s its IOPS would allow.
    assert_eq!((c.iops, c.iops_by.as_str(), c.mbps, c.mbps_by.as_str()), (3000.0, "disks", 140.0, "disks"));
    // Nor does the VM's burst lift it: gp3 does not burst.
    assert_eq!((c.burst_iops, c.burst_mbps), (None, None), "{c:?}");
    let mib = 1.048576;
    let disk = 0.08 + (140.0 / mib - 125.0) * 0.04;
    assert!((c.disk_price_month.unwrap() - disk).abs() < 1e-9, "{c:?}");
    assert!((c.price_month.unwrap() - (disk + 0.192 * 730.0)).abs() < 1e-9, "{c:?}");
    assert!((c.price_month.unwrap() - 140.580_576).abs() < 1e-5, "{c:?}");
}

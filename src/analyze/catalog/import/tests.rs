use super::*;

#[test]
fn a_csv_of_ones_own_adds_rows_and_names_a_bad_column() {
    let csv = "row,cloud,kind,name,size_gib,iops,mbps\ndisk,onprem,SAN,gold-lun,2048,20000,800\n";
    let got = parse(csv).unwrap();
    assert_eq!(got.format, "CSV");
    assert_eq!(
        (got.disks[0].name.as_str(), got.disks[0].iops, got.disks[0].mbps),
        ("gold-lun", Some(20000.0), Some(800.0))
    );
    let e = parse("row,cloud,kind,name,iopz\ndisk,onprem,SAN,x,5\n").unwrap_err();
    assert!(e.contains("line 2") && e.contains("iopz"), "{e}");
    let e = parse("hello,world\n1,2\n").unwrap_err();
    assert!(e.contains("header must start with `row`"), "{e}");
}

fn data(name: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cloud").join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn source(id: &str) -> Source {
    Source { id: id.into(), reference: "test".into(), url: None, read: Some("2026-11-27".into()) }
}

#[test]
fn azure_skus_give_sizes_with_their_vcpus_and_disk_counts() {
    // The Azure CLI's 2018 recording of the SKU list, eastus: D*s_v3 and E*s_v3 sizes.
    let got = parse(&data("azure-skus-eastus-2018.json")).unwrap();
    assert_eq!(got.format, "az vm list-skus");
    assert_eq!(got.vms.len(), 11);
    let d8 = got.vms.iter().find(|v| v.name == "D8s_v3").unwrap();
    assert_eq!((d8.vcpus, d8.memory_gib, d8.max_disks), (Some(8), Some(32.0), Some(16)));
    assert_eq!(d8.series.as_deref(), Some("DSv3"));
    // That API version published no disk-throughput capabilities: none are made up.
    assert!(got.vms.iter().all(|v| v.uncached_iops.is_none() && v.cached_iops.is_none()));
    assert!(got.vms.iter().all(|v| v.previous), "v3 sizes are a previous generation");
    // Merged over the shipped rows, every figure it gives agrees with them, and the rest stay.
    let shipped = Catalog::built_in();
    let mut user = Catalog::default();
    let m = merge(&mut user, &shipped, got, source("I1"));
    let d8 = user.vms.iter().find(|v| v.name == "D8s_v3").unwrap();
    assert_eq!((d8.uncached_iops, d8.uncached_mbps), (Some(12800.0), Some(192.0)));
    assert_eq!(d8.source, "A28, A29, A32, A34, I1");
    assert!(m.report.iter().any(|l| l.contains("azure VM E20s_v3: new")), "{:?}", m.report);
    // Its figures for the shipped sizes are theirs ("DSv3" is how the API spells "Dsv3").
    assert!(!m.report.iter().any(|l| l.contains("D8s_v3")), "{:?}", m.report);
    assert_eq!(m.report.last().unwrap(), "4 rows or prices added or changed, 7 as before");
}

#[test]
fn azure_retail_prices_give_vm_and_disk_prices_per_region() {
    let d2 = parse(&data("azure-prices-eastus-d2s-v3.json")).unwrap();
    assert_eq!(d2.format, "Azure Retail Prices API");
    // Linux pay-as-you-go only: Windows, Spot and Low Priority rows are left out.
    assert_eq!(d2.prices.len(), 1, "{:?}", d2.prices);
    let p = &d2.prices[0];
    assert_eq!((p.name.as_str(), p.region.as_deref(), p.price_hour), ("D2s_v3", Some("eastus"), Some(0.096)));
    assert_eq!(p.effective.as_deref(), Some("2017-12-15"));
    let p15 = parse(&data("azure-prices-eastus-p15.json")).unwrap();
    assert_eq!(p15.prices.len(), 1, "the disk's mount meter is no price of the disk");
    assert_eq!((p15.prices[0].name.as_str(), p15.prices[0].price_month), ("P15", Some(38.012142)));
    let s10 = parse(&data("azure-prices-eastus-s10.json")).unwrap();
    assert_eq!((s10.prices[0].name.as_str(), s10.prices[0].price_month), ("S10", Some(5.888)));
    // Kept, a plan in eastus prices the D2s_v3 and the P15 from them.
    let shipped = Catalog::built_in();
    let mut user = Catalog::default();
    for (i, got) in [d2, p15].into_iter().enumerate() {
        merge(&mut user, &shipped, got, source(&format!("I{}", i + 1)));
    }
    let mut c = Catalog::built_in();
    c.add(user, "test").unwrap();
    let east = c.priced_in(&[]);
    assert_eq!(east.vm("D2s_v3", None).unwrap().price_hour, Some(0.096));
    assert_eq!(east.disk("P15").unwrap().price_month, Some(38.012142));
    // Another region that some price names prices the P15 only from a price of its own.
    let d2_east = c.prices.iter().find(|p| p.name == "D2s_v3").unwrap().clone();
    c.prices.push(Price { region: Some("westeurope".into()), ..d2_east });
    let west = c.priced_in(&["westeurope".into()]);
    assert_eq!(west.disk("P15").unwrap().price_month, None);
    assert_eq!(west.disk("P15").unwrap().region.as_deref(), Some("westeurope"));
}

#[test]
fn aws_instance_types_give_ebs_baseline_and_daily_maximum() {
    let got = parse(&data("aws-instance-types-moto.json")).unwrap();
    assert_eq!((got.format, got.vms.len()), ("aws ec2 describe-instance-types", 24));
    let m7i = got.vms.iter().find(|v| v.name == "m7i.large").unwrap();
    assert_eq!((m7i.uncached_iops, m7i.uncached_mbps), (Some(3600.0), Some(81.25)));
    assert_eq!((m7i.burst_iops, m7i.burst_mbps, m7i.burst_daily_min), (Some(40000.0), Some(1250.0), Some(30.0)));
    assert_eq!((m7i.vcpus, m7i.memory_gib, m7i.previous), (Some(2), Some(8.0), false));
    // A size whose maximum is its baseline does not burst; m5 is an older generation.
    let m5 = got.vms.iter().find(|v| v.name == "m5.4xlarge").unwrap();
    assert_eq!((m5.burst_iops, m5.burst.as_deref(), m5.previous), (None, None, true));
    // The shipped rows hold the same figures.
    let shipped = Catalog::built_in();
    let mut user = Catalog::default();
    let m = merge(&mut user, &shipped, got, source("I1"));
    let changed: Vec<&String> = m.report.iter().filter(|l| l.contains("uncached") || l.contains("burst_")).collect();
    assert!(changed.is_empty(), "{changed:?}");
    // AWS's own test data of older families parses too: six of its seven types have EBS figures.
    let older = parse(&data("aws-instance-types-selector.json")).unwrap();
    assert_eq!(older.vms.len(), 6);
    assert!(older.vms.iter().all(|v| v.previous), "c3 to c5d are before the sixth generation");
}

#[test]
fn aws_price_lists_give_instance_and_volume_prices() {
    let m5 = parse(&data("aws-product-m5-large.json")).unwrap();
    assert_eq!(m5.format, "aws pricing get-products");
    let p = &m5.prices[0];
    assert_eq!((p.name.as_str(), p.region.as_deref(), p.price_hour), ("m5.large", Some("us-east-1"), Some(0.096)));
    assert_eq!(p.effective.as_deref(), Some("2021-02-01"));
    // 2018: no volumeApiName nor regionCode; the usage type and the location say them.
    let io1 = parse(&data("aws-products-io1-awscli.json")).unwrap();
    let p = &io1.prices[0];
    assert_eq!((p.name.as_str(), p.region.as_deref(), p.price_gib_month), ("io1", Some("ap-southeast-1"), Some(0.138)));
    let gp3 = parse(&data("aws-products-gp3-af-south-1.json")).unwrap();
    let p = &gp3.prices[0];
    assert_eq!((p.name.as_str(), p.region.as_deref(), p.price_gib_month), ("gp3", Some("af-south-1"), Some(0.1047)));
    assert_eq!(p.effective.as_deref(), Some("2024-07-01"));
}

#[test]
fn a_foreign_or_broken_file_is_named_for_what_was_expected() {
    let e = parse("{\"hello\": 1}").unwrap_err();
    assert!(e.starts_with("is JSON of no known export; expected `az vm list-skus"), "{e}");
    let e = parse("{\"Items\": [{\"retailPrice\": \"x\"}]}").unwrap_err();
    assert!(e.starts_with("looks like an Azure Retail Prices page but does not parse"), "{e}");
    let e = parse("\u{0}\u{1}binary").unwrap_err();
    assert!(e.contains("expected `az vm list-skus"), "{e}");
}

#[test]
fn a_figure_that_is_no_limit_is_refused_by_row() {
    let e = parse("row,cloud,kind,name,iops,mbps\ndisk,onprem,SAN,bad-lun,-5,100\n").unwrap_err();
    assert_eq!(e, "row 'bad-lun': iops = -5 is not a limit (a finite figure, 0 or more)");
}

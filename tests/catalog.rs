//! `iolens catalog import` and the plans it feeds, through the command line: the clouds' own
//! exports (tests/data/cloud) land in the user's catalog beside the store with each change
//! listed; a bad file changes nothing; plans for 2026 put a current VM and a provisioned disk
//! first, and the field notes' P30 cases are predicted as before.
#![cfg(unix)]

mod common;
use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn cloud(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cloud").join(name).display().to_string()
}

/// `iolens ARGS` with its own store (and so its own catalog) in `dir`.
fn iolens(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_iolens"));
    c.env("IOLENS_STORE", dir.join("iolens.db")).args(args);
    parts(&c.output().unwrap())
}

fn user_catalog(dir: &Path) -> PathBuf {
    dir.join("catalog.toml")
}

#[test]
fn an_import_lands_beside_the_store_and_says_what_it_changed() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = iolens(dir.path(), &["catalog", "import", &cloud("aws-instance-types-moto.json")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("aws-instance-types-moto.json (aws ec2 describe-instance-types), as source I1:\n"),
        "{out}"
    );
    // The shipped rows already hold DescribeInstanceTypes' figures: only what they lacked changes.
    assert!(out.contains("  aws VM m6i.large: max_disks - → 27"), "{out}");
    assert!(!out.contains("uncached_iops"), "{out}");
    assert!(out.contains(&format!("kept in {}", user_catalog(dir.path()).display())), "{out}");
    let (code, json, err) = iolens(dir.path(), &["catalog", "--search", "m7i.large", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&json).unwrap();
    let row = &v["vms"][0];
    assert_eq!((row["name"].as_str(), row["max_disks"].as_u64()), (Some("m7i.large"), Some(32)));
    assert_eq!(row["source"], "M1, K2, I1");
    let src = v["sources"].as_array().unwrap().iter().find(|s| s["id"] == "I1").unwrap().clone();
    assert_eq!(src["ref"], "aws ec2 describe-instance-types export aws-instance-types-moto.json");
    assert_eq!(src["read"].as_str().map(str::len), Some(10), "the file's day: {src}");
}

#[test]
fn a_bad_file_among_good_ones_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("notes.json");
    std::fs::write(&bad, "{\"hello\": 1}").unwrap();
    let good = cloud("azure-prices-eastus-p15.json");
    let (code, out, err) = iolens(dir.path(), &["catalog", "import", &good, bad.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(
        err,
        format!(
            "error: {}: is JSON of no known export; expected `az vm list-skus --output json`, the Azure Retail Prices API's JSON, `aws ec2 describe-instance-types --output json`, `aws pricing get-products` JSON, or a CSV with a header of row,cloud,name,… (docs/catalog.md)\n",
            bad.display()
        )
    );
    assert!(!user_catalog(dir.path()).exists(), "nothing kept");
    // A file with nothing iolens uses is refused the same way.
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, "{\"Items\": [], \"retailPrice\": 0}").unwrap();
    let (code, _, err) = iolens(dir.path(), &["catalog", "import", empty.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("holds no VM size, disk or price iolens uses (read as Azure Retail Prices API)"), "{err}");
    assert!(!user_catalog(dir.path()).exists());
}

#[test]
fn plans_for_2026_put_a_current_vm_and_a_provisioned_disk_first() {
    let dir = tempfile::tempdir().unwrap();
    let plan = |args: &[&str]| {
        let mut all = vec!["plan", "--format", "json"];
        all.extend_from_slice(args);
        let (code, out, err) = iolens(dir.path(), &all);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<Vec<Value>>(&out).unwrap()
    };
    // Azure, shipped catalog: Premium SSD v2 provisioned at the target, on a current VM.
    let p = plan(&["--iops", "5000", "--mbps", "200", "--cloud", "azure"]);
    let first = &p[0];
    assert_eq!((first["disk"].as_str(), first["count"].as_u64()), (Some("PremiumV2_LRS"), Some(1)));
    assert_eq!((first["provisioned_iops"].as_f64(), first["provisioned_mbps"].as_f64()), (Some(5000.0), Some(200.0)));
    assert_eq!(first["disk_gib"].as_f64(), Some(10.0), "500 IOPS per GiB: 10 GiB carry 5,000");
    assert_eq!(first["price_month"], Value::Null, "no price for it is shipped");
    assert!(first["previous"].is_null(), "{first}");
    assert!(p.iter().all(|c| c["previous"].is_null()), "the ten shown are all current");
    // Priced by a list of one's own (CSV): the cheapest current configuration leads.
    let prices = dir.path().join("ours.csv");
    std::fs::write(
        &prices,
        "row,cloud,name,region,price_hour,price_gib_month,price_iops_month,price_mbps_month,currency\n\
         price,azure,PremiumV2_LRS,eastus,,0.1,0.005,0.04,USD\n\
         price,azure,D4s_v6,eastus,0.2,,,,USD\n\
         price,azure,D8s_v5,eastus,0.4,,,,USD\n",
    )
    .unwrap();
    let (code, out, err) = iolens(dir.path(), &["catalog", "import", prices.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("azure price PremiumV2_LRS eastus: 0.10000 USD per GiB-month"), "{out}");
    let p = plan(&["--iops", "5000", "--mbps", "200", "--cloud", "azure"]);
    let first = &p[0];
    assert_eq!((first["disk"].as_str(), first["vm"].as_str()), (Some("PremiumV2_LRS"), Some("D4s_v6")));
    // Each disk's GiB, its IOPS and MB/s above the free 3,000 and 125, and the VM's 730 hours:
    // at these prices two disks at their free baseline cost less than one provisioned above it.
    let (n, gib) = (first["count"].as_f64().unwrap(), first["disk_gib"].as_f64().unwrap());
    let (i, m) = (first["provisioned_iops"].as_f64().unwrap(), first["provisioned_mbps"].as_f64().unwrap());
    assert_eq!((n, gib, i, m), (2.0, 1.0, 3000.0, 125.0), "{first}");
    let want = n * (gib * 0.1 + (i - 3000.0) * 0.005 + (m - 125.0) * 0.04) + 0.2 * 730.0;
    assert!((first["price_month"].as_f64().unwrap() - want).abs() < 1e-9, "{first}");
    let one = p.iter().find(|c| c["count"] == 1 && c["vm"] == "D4s_v6").expect("one disk on the D4s_v6");
    let one_price = 10.0 * 0.1 + 2000.0 * 0.005 + 75.0 * 0.04 + 0.2 * 730.0;
    assert!((one["price_month"].as_f64().unwrap() - one_price).abs() < 1e-9, "{one}");
    assert_eq!(first["region"], "eastus");
    assert!(first["sources"].as_array().unwrap().iter().any(|s| s == "I1"), "{first}");
    // AWS, shipped prices (us-east-1): gp3 at its free baseline on a current instance.
    let p = plan(&["--iops", "5000", "--mbps", "200", "--cloud", "aws"]);
    let first = &p[0];
    assert_eq!(first["disk"], "gp3");
    assert!(first["previous"].is_null() && first["price_month"].is_f64(), "{first}");
    assert!(["m6i", "m7i", "r6i", "r7i"].iter().any(|f| first["vm"].as_str().unwrap().starts_with(f)), "{first}");
    // A region nothing is priced in is refused by name.
    let (code, _, err) = iolens(dir.path(), &["plan", "--iops", "5000", "--region", "mars-1"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: --region: no prices for 'mars-1' in the catalog; regions with prices: "), "{err}");
}

#[test]
fn the_field_notes_three_p30s_are_predicted_as_before() {
    let dir = tempfile::tempdir().unwrap();
    // DiskSpd on 3 × P30: ~4,000 IOPS on a D2s_v4 for its first 30 minutes (the VM's burst),
    // the VM's 6,400 then 8,000 on a D4s_v4, the disks' 15,000 burst on a D8s_v4.
    for (vm, iops, burst) in [("D2s_v4", 3200.0, 4000.0), ("D4s_v4", 6400.0, 8000.0), ("D8s_v4", 12800.0, 15000.0)] {
        let (code, out, err) =
            iolens(dir.path(), &["plan", "--vm", vm, "--disk", "P30", "--count", "3", "--format", "json"]);
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            (v["expected"]["iops"].as_f64(), v["expected"]["burst_iops"].as_f64()),
            (Some(iops), Some(burst)),
            "{vm}"
        );
    }
}

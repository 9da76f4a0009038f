use super::*;
use clap::Parser as _;

/// A command with typed options, as the real ones declare them.
#[derive(clap::Parser, Debug)]
#[command(no_binary_name = true)]
struct Probe {
    #[arg(long, default_value = "8", value_parser = whole("--max-disks", 1, 64))]
    max_disks: u32,
    #[arg(long, value_parser = positive("--iops"))]
    iops: Option<f64>,
    #[arg(long, default_value = "none", value_parser = cached("--cache"), action = clap::ArgAction::Set)]
    cache: bool,
    #[arg(long, default_value = "10", value_parser = tolerance("--tolerance"))]
    tolerance: f64,
    #[arg(long, default_value = "60s", value_parser = seconds("--budget"))]
    budget: f64,
}

/// The error `main` gives for a refused value: the parser's own, as it is.
fn refused(args: &[&str]) -> String {
    let e = Probe::try_parse_from(args).unwrap_err();
    let u = std::error::Error::source(&e).and_then(|s| s.downcast_ref::<UsageError>()).expect("iolens's error");
    u.to_string()
}

#[test]
fn typed_values_and_defaults_come_through_the_parsers() {
    let p = Probe::try_parse_from(["--iops", "20,000", "--cache", "ReadOnly", "--tolerance", "5%"]).unwrap();
    assert_eq!((p.max_disks, p.iops, p.cache, p.tolerance, p.budget), (8, Some(20_000.0), true, 0.05, 60.0));
    let p = Probe::try_parse_from(["--budget", "2m", "--max-disks", "64"]).unwrap();
    assert_eq!((p.budget, p.max_disks, p.cache), (120.0, 64, false));
}

#[test]
fn a_bad_value_is_iolens_one_line_naming_the_option_and_what_it_accepts() {
    assert_eq!(refused(&["--max-disks", "65"]), "--max-disks: '65' is not allowed; use 1-64");
    assert_eq!(refused(&["--iops=-3"]), "--iops: '-3' is not a positive number");
    assert_eq!(
        refused(&["--cache", "Sometimes"]),
        "--cache: 'sometimes' is not a cache mode; use none, readonly or readwrite"
    );
    assert_eq!(
        refused(&["--tolerance", "100"]),
        "--tolerance: '100' is not allowed; use a percentage above 0 and below 100"
    );
    assert!(refused(&["--budget", "soon"]).starts_with("--budget: "));
    assert_eq!(count("--top")("0").unwrap_err().to_string(), "--top: '0' is not a number above 0");
    assert_eq!(
        percent_to("--headroom", 1000.0)("1001").unwrap_err().to_string(),
        "--headroom: '1001' is not a percentage from 0 to 1000"
    );
    assert_eq!(gib("--disk-size")("0").unwrap_err().to_string(), "--disk-size: '0' is not a size in GiB");
}

#[test]
fn a_list_reads_every_item_and_names_the_first_bad_one() {
    let blocks = list("--bs", block("--bs"));
    assert_eq!(blocks("8k, 64k,512k").unwrap(), List(vec![8192, 65536, 524_288]));
    let threads = list("--threads", whole("--threads", 1, 4096));
    assert_eq!(threads("1,5000").unwrap_err().to_string(), "--threads: '5000' is not allowed; use 1-4096");
    assert!(blocks("4k,,8k").unwrap_err().to_string().starts_with("--bs: "));
}

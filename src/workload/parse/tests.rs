use super::*;

#[test]
fn bssplit_shares() {
    let b = bssplit("4k/50:64k/50").unwrap();
    assert_eq!(b, vec![BlockShare { size: 4096, pct: 50 }, BlockShare { size: 65536, pct: 50 }]);
    let b = bssplit("4k/30:8k").unwrap();
    assert_eq!(b[1].pct, 70);
    assert!(bssplit("4k/60:8k/60").unwrap_err().to_string().contains("add up to 120%"));
    assert!(bssplit("3x/100").unwrap_err().to_string().starts_with("--bssplit: '3x'"));
}

#[test]
fn rw_words() {
    assert_eq!(rw("randrw").unwrap(), (Pattern::Random, 50));
    assert_eq!(rw("write").unwrap(), (Pattern::Sequential, 0));
    let e = rw("randomread").unwrap_err().to_string();
    assert!(e.starts_with("--rw: 'randomread' is not a pattern"), "{e}");
}

#[test]
fn distributions_and_data() {
    assert_eq!(random_dist("zipf:1.2").unwrap(), RandomDist::Zipf { theta: 1.2 });
    assert_eq!(random_dist("pareto:0.9").unwrap(), RandomDist::Pareto { h: 0.9 });
    assert!(random_dist("zipf:1").is_err());
    assert!(random_dist("pareto:1.5").is_err());
    assert_eq!(data("compress:50").unwrap(), DataPattern::Compress { pct: 50 });
    assert!(data("compress:150").is_err());
}

#[test]
fn seconds_units() {
    assert_eq!(seconds("--duration", "500ms").unwrap(), 0.5);
    assert_eq!(seconds("--duration", "2m").unwrap(), 120.0);
    assert!(seconds("--duration", "ten").is_err());
}

#[test]
fn validate_catches_each_bad_field() {
    let ok = Spec { targets: vec!["f".into()], ..Spec::default() };
    assert!(ok.validate().is_ok());
    let cases: Vec<(Spec, &str)> = vec![
        (Spec { qd: 0, ..ok.clone() }, "--qd"),
        (Spec { threads: 0, ..ok.clone() }, "--threads"),
        (Spec { read_pct: 120, ..ok.clone() }, "--read-pct"),
        (Spec { blocks: vec![BlockShare { size: 1000, pct: 100 }], ..ok.clone() }, "--bs"),
        (Spec { offset: 1000, ..ok.clone() }, "--offset"),
        (Spec { rate_iops: Some(0.0), ..ok.clone() }, "--rate-iops"),
    ];
    for (s, opt) in cases {
        assert_eq!(s.validate().unwrap_err().option, opt);
    }
}

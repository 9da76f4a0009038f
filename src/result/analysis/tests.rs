use super::*;

/// The enums read and write the strings stored before they were enums.
#[test]
fn enums_keep_the_stored_strings() {
    let stored = r#"{"iops_cap":5000.0,"throttle":{"iops":5000.0,"mbps":20.5,"on":"iops"},
        "binding":{"4K":"iops","1M":"mbps","8K":"latency","16K":"throttle"},
        "matches":[{"name":"Azure Premium SSD P30","iops":5000.0,"mbps":200.0,"on":"iops and mbps"},
                   {"name":"Azure VM D2s_v4","iops":4000.0,"mbps":200.0,"on":"VM burst iops"},
                   {"name":"Azure Premium SSD P10","iops":3500.0,"mbps":170.0,"on":"burst mbps"},
                   {"name":"Azure VM D8s_v3","iops":12800.0,"mbps":192.0,"on":"VM uncached mbps"}],
        "tolerance_pct":10.0,"advice":[]}"#;
    let e: Explanation = serde_json::from_str(stored).unwrap();
    assert_eq!(e.walls.binding["1M"], Wall::Mbps);
    assert_eq!(e.walls.throttle.as_ref().unwrap().on, Flat::Iops);
    let ons: Vec<MatchOn> = e.matches.iter().map(|m| m.on).collect();
    assert_eq!(ons[0], MatchOn { limit: Limit::Disk, axes: Axes::IopsAndMbps });
    assert_eq!(ons[1], MatchOn { limit: Limit::VmBurst, axes: Axes::Iops });
    assert_eq!(ons[2], MatchOn { limit: Limit::DiskBurst, axes: Axes::Mbps });
    assert_eq!(ons[3], MatchOn { limit: Limit::VmUncached, axes: Axes::Mbps });
    let again: serde_json::Value = serde_json::to_value(&e).unwrap();
    let before: serde_json::Value = serde_json::from_str(stored).unwrap();
    assert_eq!(again, before);
}

#[test]
fn an_unknown_match_kind_is_refused() {
    let bad = r#"{"name":"x","iops":1.0,"mbps":null,"on":"VM sideways iops"}"#;
    let err = serde_json::from_str::<Match>(bad).unwrap_err().to_string();
    assert!(err.contains("'VM sideways iops' is not a match kind"), "{err}");
}

use super::*;

#[test]
fn axes_label_nines_decades_and_round_steps() {
    let n = Scale::Nines.ticks(0.0, 4.0);
    assert_eq!(n.iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["0", "90", "99", "99.9", "99.99"]);
    assert!((Scale::Nines.to_axis(99.9) - 3.0).abs() < 1e-9);
    let l = Scale::Log.ticks(1.0, 5.0);
    assert_eq!(l.iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["10", "100", "1k", "10k", "100k"]);
    let l = Scale::Log.ticks(0.0, 2.0);
    assert_eq!(l.iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["1", "2", "5", "10", "20", "50", "100"]);
    let lin = Scale::Linear.ticks(0.0, 23_000.0);
    assert_eq!(lin.iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["0", "5k", "10k", "15k", "20k"]);
    assert_eq!(short(1_500_000.0), "1.5M");
    assert_eq!(short(0.25), "0.25");
}

#[test]
fn text_is_escaped_and_the_svg_scales() {
    let s = bars(&Bars {
        x_desc: "IOPS",
        categories: &["a<b".into()],
        series: &[("x".into(), vec![Some(5.0)])],
        notes: None,
    });
    assert!(s.contains("a&lt;b") && !s.contains("a<b"));
    assert!(s.starts_with("<svg role=\"img\""), "{}", &s[..80]);
}

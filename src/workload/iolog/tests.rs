use super::{IoLogs, LogKind};

#[test]
fn names_follow_fios_gen_log_name() {
    let l = IoLogs { bw: Some("t".into()), lat: Some("x".into()), first_thread: 3, ..IoLogs::default() };
    assert_eq!(l.file_name(LogKind::Bw, "t", 0), "t_bw.3.log");
    assert_eq!(l.file_name(LogKind::Clat, "x", 2), "x_clat.5.log");
    let shared = IoLogs { per_job: false, ..l.clone() };
    assert_eq!(shared.file_name(LogKind::Bw, "t", 1), "t_bw.log");
    let kinds: Vec<_> = l.kinds().into_iter().map(|(k, p)| (k.suffix(), p)).collect();
    assert_eq!(kinds, [("lat", "x"), ("slat", "x"), ("clat", "x"), ("bw", "t")]);
    assert!(!IoLogs::default().any());
}

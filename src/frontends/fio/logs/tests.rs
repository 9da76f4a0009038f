use crate::frontends::fio::{parse_args, parse_job_text};
use crate::workload::iolog::IoLogs;
use std::path::Path;

fn logs_of(text: &str) -> Vec<Option<IoLogs>> {
    let jobs = parse_job_text(text, Path::new("."), &|_| None).unwrap();
    jobs.into_iter().map(|j| j.spec.logs).collect()
}

#[test]
fn a_bare_write_log_takes_the_job_name_and_threads_are_numbered_over_jobs() {
    let l = logs_of(
        "[global]\nioengine=null\nsize=1m\n[a]\nnumjobs=2\n[b]\nwrite_bw_log\nwrite_lat_log=lat\nname=bee\n\
         log_offset=1\nper_job_logs=0\nlog_avg_msec=500\nlog_prio\n[c]\n",
    );
    // [a]'s clones are two jobs.
    assert_eq!((&l[0], &l[1], &l[3]), (&None, &None, &None));
    let b = l[2].clone().unwrap();
    assert_eq!((b.bw.as_deref(), b.lat.as_deref(), b.iops), (Some("bee"), Some("lat"), None));
    assert_eq!((b.offset, b.per_job, b.avg_msec, b.prio, b.max_value), (true, false, 500, true, false));
    // [a]'s two threads are fio's threads 1 and 2: [b]'s is number 3.
    assert_eq!(b.first_thread, 3);
}

#[test]
fn command_line_log_options_and_bad_values() {
    let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    let jobs = parse_args(&args("--name=j --write_iops_log --log_compression=10K --write_bw_log=t --size=1m")).unwrap();
    let l = jobs[0].spec.logs.clone().unwrap();
    assert_eq!((l.iops.as_deref(), l.bw.as_deref(), l.per_job, l.first_thread), (Some("j"), Some("t"), true, 1));
    let e = parse_args(&args("--name=j --size=1m --write_bw_log --log_avg_msec=soon")).unwrap_err().to_string();
    assert!(e.contains("log_avg_msec") && e.contains("milliseconds"), "{e}");
    let e = parse_args(&args("--name=j --size=1m --log_offset=maybe")).unwrap_err().to_string();
    assert!(e.contains("log_offset") && e.contains("0 or 1"), "{e}");
}

#[test]
fn log_window_value_and_log_issue_time_as_fio_takes_them() {
    let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    let logs = |s: &str| {
        parse_args(&args(&format!("--name=j --size=1m --write_lat_log=l {s}"))).map(|j| j[0].spec.logs.clone().unwrap())
    };
    let both = |l: IoLogs| (l.max_value, l.avg_and_max);
    assert_eq!(both(logs("--log_window_value=both").unwrap()), (false, true));
    assert_eq!(both(logs("--log_window_value=max").unwrap()), (true, false));
    // fio 3.33's boolean spelling, alone or 0/1.
    assert_eq!(both(logs("--log_max_value").unwrap()), (true, false));
    assert_eq!(both(logs("--log_max_value=0").unwrap()), (false, false));
    assert!(logs("--log_offset=1 --log_issue_time=1").unwrap().issue_time);
    let e = logs("--log_window_value=median").unwrap_err().to_string();
    assert!(e.contains("log_window_value") && e.contains("avg, max, both"), "{e}");
    let e = logs("--log_issue_time=1").unwrap_err().to_string();
    assert!(e.contains("log_issue_time") && e.contains("log_offset"), "{e}");
    let e = logs("--log_offset=1 --log_issue_time=1 --log_store_compressed=1").unwrap_err().to_string();
    assert!(e.contains("log_store_compressed: fio 3.33"), "{e}");
}

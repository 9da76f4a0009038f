//! Numbers as fio reads them.

use super::int;

#[test]
fn numbers_end_where_fio_stops_reading_them() {
    assert_eq!(int("65536)", 1024), Ok(65536));
    assert_eq!(int("4k", 1024), Ok(4096));
    assert_eq!(int("2mib", 1024), Ok(2_000_000));
    assert!(int("4q", 1024).unwrap_err().contains("'4q' is not a number"));
    assert!(int(")", 1024).is_err());
    assert!(int("1.5k", 1024).is_err(), "fio's 1, not 1536: refused");
}

#[test]
fn a_sequence_distribution_takes_its_stride_from_either_side() {
    use crate::workload::RandomDist;
    let job = |text: &str| super::super::parse_job_text(text, std::path::Path::new("."), &|_| None).unwrap();
    let j =
        &job("[j]\nfilename=f\nsize=48k\nrw=randread\nrandom_sequence_stride=1\nrandom_distribution=sequence:2,0,1\n")
            [0];
    assert_eq!(j.spec.random_dist, RandomDist::Sequence { blocks: vec![2, 0, 1], stride: true });
    let j = &job("[j]\nfilename=f\nsize=48k\nrw=randread\nrandom_distribution=sequence:3\n")[0];
    assert_eq!(j.spec.random_dist, RandomDist::Sequence { blocks: vec![3], stride: false });
    let e = super::distribution("sequence:1,x").unwrap_err();
    assert_eq!(e, "sequence:1,x: 'x' is not a block index (0 or more)");
    let many = vec!["1"; 65].join(",");
    assert!(super::distribution(&format!("sequence:{many}")).unwrap_err().contains("up to 64 block indices, not 65"));
}

#[test]
fn json_options_say_what_ran_in_place_of_what_was_written() {
    let args: Vec<String> = [
        "--name=j",
        "--filename=f",
        "--size=1m",
        "--ioengine=libaio",
        "--verify=md5",
        "--sqthread_poll=1",
        "--iodepth=4",
    ]
    .map(String::from)
    .to_vec();
    let j = &super::super::parse_args(&args).unwrap()[0];
    let o = j.options_as_run("io_uring");
    let get = |k: &str| o.iter().find(|(o, _)| o == k).map(|(_, v)| v.as_str());
    assert_eq!(get("ioengine"), Some("io_uring"));
    assert_eq!(get("verify"), Some("iolens-crc32c-stamps"));
    assert_eq!(get("sqthread_poll"), None, "not applied, so left out");
    assert_eq!(get("iodepth"), Some("4"));
    // An engine that fell back at run time is the one named.
    assert_eq!(j.options_as_run("psync").iter().find(|(k, _)| k == "ioengine").unwrap().1, "psync");
    // As written, for --showcmd.
    assert!(j.options.contains(&("ioengine".into(), "libaio".into())));
}

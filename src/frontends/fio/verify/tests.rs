//! fio's verify options mapped onto iolens' one checker.

use super::super::{parse_job_text, FioJob, R};
use std::path::Path;

fn parse(text: &str) -> R<Vec<FioJob>> {
    parse_job_text(text, Path::new("."), &|_| None)
}

#[test]
fn verify_options_map_to_the_one_checker() {
    use crate::workload::verify::{AsFio, VerifySpec};
    let j = &parse(
        "[j]\nfilename=f\nsize=1m\nrw=randwrite\nverify=md5\nverify_backlog=16\nverify_fatal\ndo_verify=0\n\
         verify_interval=1024\nverify_async=2\nverify_backlog_batch=4\nverify_dump=1\n",
    )
    .unwrap()[0];
    let fio = AsFio {
        method: "md5".into(),
        backlog_batch: 4,
        sequence: true,
        dump: true,
        state_save: true,
        interval: 1024,
        ..AsFio::default()
    };
    let want = VerifySpec {
        backlog: 16,
        fatal: true,
        read_back: false,
        count_read_backs: true,
        fio: Some(fio),
        ..VerifySpec::default()
    };
    assert_eq!(j.spec.verify, Some(want));
    assert!(j.notes.iter().any(|n| n.starts_with("verify=md5: iolens checks its own CRC-32C")), "{:?}", j.notes);
    for off in ["verify=0", "verify=none", "verify_backlog=4"] {
        let j = &parse(&format!("[j]\nfilename=f\nsize=1m\n{off}\n")).unwrap()[0];
        assert_eq!(j.spec.verify, None, "{off}");
    }
    // A read job saves no state; an interval that does not divide the block is the block, as
    // fio's; one below the stamp's smallest unit is said.
    let on = &parse("[j]\nfilename=f\nsize=1m\nverify=crc32c-intel\nverify_interval=3000\n").unwrap()[0];
    let f = on.spec.verify.as_ref().unwrap().fio.as_ref().unwrap();
    assert_eq!((f.state_save, f.interval, f.sequence), (false, 4096, true));
    let on = &parse("[j]\nfilename=f\nsize=1m\nverify=md5\nverify_interval=256\n").unwrap()[0];
    assert!(on.notes.iter().any(|n| n.starts_with("verify_interval=256: ")), "{:?}", on.notes);
    // verify_only: the write job reads, checks without the write sequence, and saves nothing.
    let vo = &parse("[j]\nfilename=f\nsize=1m\nrw=randwrite\nverify=sha256\nverify_only\n").unwrap()[0];
    let f = vo.spec.verify.as_ref().unwrap().fio.as_ref().unwrap();
    assert_eq!(vo.spec.read_pct, 100);
    assert_eq!((f.only, f.walked_writes, f.sequence, f.state_save), (true, true, false, false));
    let e = parse("[j]\nfilename=f\nsize=1m\nverify=crc99\n").unwrap_err().to_string();
    assert!(e.contains("verify: 'crc99' is not a verify method"), "{e}");
    let p = &parse("[j]\nfilename=f\nsize=1m\nrw=write\nverify=md5\nverify_policy=fsynced\n").unwrap()[0];
    assert!(p.spec.verify.as_ref().unwrap().fio.as_ref().unwrap().fsynced);
    let e = parse("[j]\nfilename=f\nsize=1m\nverify=md5\nverify_policy=later\n").unwrap_err().to_string();
    assert!(e.contains("verify_policy: 'later' is not a verify policy (completed or fsynced)"), "{e}");
}

#[test]
fn verify_backlog_takes_a_size_suffix_as_fio_does() {
    let j = &parse("[j]\nfilename=f\nsize=1m\nrw=randwrite\nverify=md5\nverify_backlog=1m\n").unwrap()[0];
    assert_eq!(j.spec.verify.as_ref().map(|v| v.backlog), Some(1 << 20));
    let e = parse("[j]\nfilename=f\nsize=1m\nrw=randwrite\nverify=md5\nverify_backlog=8g\n").unwrap_err();
    assert!(e.to_string().contains("'8g' is more blocks than 4294967295"), "{e}");
}

#[test]
fn the_interval_follows_the_block_sizes_as_in_fio() {
    const NONE: u64 = u64::MAX;
    // Unset: the block; with sizes that vary, the smallest write (a divisor of the largest).
    assert_eq!(super::fio_interval(0, (4096, 4096, NONE)), 4096);
    assert_eq!(super::fio_interval(0, (512, 1 << 20, 512)), 512);
    assert_eq!(super::fio_interval(0, (8192, 12288, NONE)), 4096);
    // Set: never above the smallest write, or read in a job that reads.
    assert_eq!(super::fio_interval(8192, (4096, 4096, NONE)), 4096);
    assert_eq!(super::fio_interval(1024, (4096, 4096, NONE)), 1024);
    assert_eq!(super::fio_interval(4096, (8192, 8192, 2048)), 2048);
}

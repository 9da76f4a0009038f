//! fio's sprandom through the binary: one pass over the physical size (the file and its
//! over-provisioning), every logical block written, the rest rewrites that leave the regions
//! as invalid as the steady-state model says.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;

#[test]
fn a_sprandom_job_writes_the_physical_size_once_over_every_block() {
    let dir = tempfile::tempdir().unwrap();
    let job = "[j]\nioengine=null\nfilename=x\nsize=32m\nbs=4k\nrw=randwrite\nsprandom=1\nspr_op=0.1\n\
               spr_num_regions=50\nwrite_iolog=IOLOG\n";
    std::fs::write(dir.path().join("j.fio"), job).unwrap();
    let out = bin().current_dir(dir.path()).args(["fio", "--no-store", "j.fio", "--output-format=json"]).output();
    let (code, stdout, stderr) = parts(&out.unwrap());
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // 32 MiB and 10 % more, in whole blocks: 36,909,056 bytes, 9,011 writes.
    assert_eq!(u(&v["jobs"][0]["write"]["io_bytes"]), 36_909_056);
    let log = std::fs::read_to_string(dir.path().join("IOLOG")).unwrap();
    let mut offsets: Vec<u64> = log
        .lines()
        .filter(|l| l.contains(" write "))
        .map(|l| l.split_whitespace().nth(3).unwrap().parse().unwrap())
        .collect();
    assert_eq!(offsets.len(), 9011);
    assert!(offsets.iter().all(|o| o % 4096 == 0 && *o < 32 << 20));
    offsets.sort_unstable();
    offsets.dedup();
    assert_eq!(offsets.len(), 8192, "every logical block written at least once");
}

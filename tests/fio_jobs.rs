//! fio's job semantics checked through the binary with job files and fio's own iolog: the
//! random seed (randrepeat, allrandrepeat, randseed), a job spread over several files (nrfiles,
//! filename lists, file_service_type) and the data patterns of written blocks.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use std::path::Path;

/// Runs `iolens fio` on `job` in `dir`: (exit code, stderr).
fn fio(dir: &Path, job: &str) -> (i32, String) {
    std::fs::write(dir.join("job.fio"), job).unwrap();
    let (code, _, err) = parts(&bin().current_dir(dir).args(["fio", "--no-store", "job.fio"]).output().unwrap());
    (code, err)
}

/// fio's iolog lines of I/O in `dir/IOLOG` (file, action, offset, length), the file removed.
fn iolog(dir: &Path) -> Vec<(String, String, u64, u64)> {
    let text = std::fs::read_to_string(dir.join("IOLOG")).unwrap();
    std::fs::remove_file(dir.join("IOLOG")).unwrap();
    text.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 5).then(|| (f[1].to_string(), f[2].to_string(), f[3].parse().unwrap(), f[4].parse().unwrap()))
        })
        .collect()
}

#[test]
fn randrepeat_0_draws_a_new_sequence_each_run_unless_a_seed_pins_it() {
    let dir = tempfile::tempdir().unwrap();
    let runs = |opts: &str| -> Vec<Vec<u64>> {
        let job =
            format!("[j]\nioengine=null\nfilename=x\nsize=1g\nrw=randread\nnumber_ios=64\nwrite_iolog=IOLOG\n{opts}\n");
        (0..2)
            .map(|_| {
                let (code, err) = fio(dir.path(), &job);
                assert_eq!(code, 0, "{err}");
                iolog(dir.path()).into_iter().map(|l| l.2).collect()
            })
            .collect()
    };
    let a = runs("randrepeat=0");
    assert_eq!((a[0].len(), a[1].len()), (64, 64));
    assert_ne!(a[0], a[1], "randrepeat=0 repeated its offsets");
    for pinned in ["", "randrepeat=1", "randrepeat=0\nrandseed=1234", "randrepeat=0\nallrandrepeat=1"] {
        let b = runs(pinned);
        assert_eq!(b[0], b[1], "{pinned:?} did not repeat");
    }
}

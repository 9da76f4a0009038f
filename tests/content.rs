//! Existing test files that would inflate reads (sparse, zero or pattern-filled, as DiskSpd's
//! `-c` leaves them) are named on stderr by every front end; random-filled ones are not.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use rand::{rngs::SmallRng, RngCore, SeedableRng};
use std::path::Path;

const MIB: usize = 1 << 20;

fn write(path: &Path, fill: impl Fn(&mut [u8])) {
    let mut buf = vec![0u8; 16 * MIB];
    fill(&mut buf);
    std::fs::write(path, buf).unwrap();
}

/// Runs a short read-only test on `file` with `front` ("diskspd" or "run"); returns stderr.
fn read_test(front: &str, file: &Path) -> String {
    let f = file.to_str().unwrap();
    let args: Vec<&str> = match front {
        "diskspd" => vec!["diskspd", "-d1", "-W0", "-b64k", "--quiet", "--no-store", f],
        _ => vec!["run", "-d", "0.5", "--quiet", "--no-store", f],
    };
    let out = bin().args(args).output().unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 0, "{front} {f}: {stderr}");
    stderr
}

#[test]
fn inflating_files_are_named_and_random_ones_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // DiskSpd's -c fill: each byte is its offset & 0xff.
    write(&d.join("diskspd.dat"), |b| b.iter_mut().enumerate().for_each(|(i, x)| *x = i as u8));
    write(&d.join("zero.dat"), |b| b.fill(0));
    write(&d.join("random.dat"), |b| SmallRng::seed_from_u64(11).fill_bytes(b));
    let sparse = std::fs::File::create(d.join("sparse.dat")).unwrap();
    sparse.set_len(64 * MIB as u64).unwrap();
    for (front, file, want) in [
        ("diskspd", "diskspd.dat", Some("inflated by compression/dedup")),
        ("run", "zero.dat", Some("inflated by compression/dedup")),
        ("diskspd", "sparse.dat", Some("only 0 % of the tested region is written")),
        ("run", "sparse.dat", Some("inflated by sparseness")),
        ("diskspd", "random.dat", None),
        ("run", "random.dat", None),
    ] {
        let path = d.join(file);
        let stderr = read_test(front, &path);
        let warnings: Vec<&str> = stderr.lines().filter(|l| l.starts_with("warning: ")).collect();
        match want {
            Some(w) => {
                assert_eq!(warnings.len(), 1, "{front} {file}: {stderr}");
                assert!(warnings[0].contains(w) && warnings[0].contains(path.to_str().unwrap()), "{stderr}");
                assert!(warnings[0].contains("give a path that does not exist"), "{stderr}");
            }
            None => assert!(warnings.is_empty(), "{front} {file}: {stderr}"),
        }
    }
    // Read-only runs leave the files as they were.
    let mut left = entries(d);
    left.sort();
    assert_eq!(left, ["diskspd.dat", "random.dat", "sparse.dat", "zero.dat"]);
    assert_eq!(std::fs::metadata(d.join("sparse.dat")).unwrap().len(), 64 * MIB as u64);
}

#[test]
fn files_iolens_fills_get_no_warning() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("kept.dat");
    let out = bin()
        .args(["run", "--size", "8M", "-d", "0.3", "--keep", "--quiet", "--no-store", f.to_str().unwrap()])
        .output()
        .unwrap();
    let (code, _, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("warning:"), "{stderr}");
    // Run again on the kept file, which iolens made and filled with random data.
    assert!(!read_test("run", &f).contains("warning:"));
}

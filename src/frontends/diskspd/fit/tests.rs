//! DiskSpd's size checks of -B and -f against the target.

use super::*;

fn line(s: &str) -> Spec {
    super::super::parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap().spec
}

#[test]
fn end_past_the_file_is_cut_back_with_diskspds_warning() {
    let mut s = line("-B512K -f2M -c1M t.dat");
    assert_eq!(fit(&mut s, "t.dat", 1 << 20).unwrap(), ["WARNING: file size 1048576 is less than MaxFileSize 2097152"]);
    assert_eq!((s.offset, s.range, s.end_asked), (512 << 10, Some(512 << 10), Some(2 << 20)));
    let mut s = line("-B512K -f768K -c1M t.dat");
    assert!(fit(&mut s, "t.dat", 1 << 20).unwrap().is_empty());
    assert_eq!((s.range, s.end_asked), (Some(256 << 10), None));
}

#[test]
fn a_base_past_the_end_is_refused_naming_b() {
    let mut s = line("-B1G -f2G -c1G t.dat");
    let e = fit(&mut s, "t.dat", 1 << 30).unwrap_err();
    assert_eq!(e.option, "-B");
    assert_eq!(
        e.to_string(),
        "ERROR: The file is too small. File: 't.dat' relative thread 0: file size: 1073741824, base offset: \
         1073741824, thread stride: 0, block size: 65536; the base offset (-B) plus the thread stride (-T) and \
         one block (-b) must end within the file and below its maximum offset (-f)"
    );
    // One block short of the end still fits; a byte less does not.
    let mut s = line("-b64K -B960K -c1M t.dat");
    assert!(fit(&mut s, "t.dat", 1 << 20).is_ok());
    let mut s = line("-b64K -B960K -f1048575 -c1M t.dat");
    assert!(fit(&mut s, "t.dat", 1 << 20).is_err());
}

//! fio's verify_dump: a bad block's contents as read and as they should be, in two files named
//! as fio names them, `FILE.OFFSET.received` and `FILE.OFFSET.expected` (FILE without its
//! directories, OFFSET the block's byte offset), in fio's --aux-path or the current directory.
//! Only a bad block gets here: the clean path never allocates.

use crate::verify::check::expected_generation;
use crate::verify::stamp::{informational, write_unit};
use crate::verify::{Expect, Stamp};
use crate::workload::verify::PatternFill;
use std::path::{Path, PathBuf};

/// fio's name for a dump of `file` at `offset`.
pub(super) fn name(dir: Option<&str>, file: &str, offset: u64, kind: &str) -> PathBuf {
    let base = Path::new(file).file_name().map_or_else(|| file.into(), |n| n.to_string_lossy().into_owned());
    let f = format!("{base}.{offset}.{kind}");
    dir.map_or_else(|| PathBuf::from(&f), |d| Path::new(d).join(&f))
}

/// Writes unit `i` of a bad page as received and as expected, and says where, as fio does.
pub(super) fn bad_unit(dir: Option<&str>, file: &str, page: &[u8], unit: usize, e: &Expect, i: usize) {
    let Some(got) = page.chunks(unit).nth(i) else { return };
    let address = e.address + (i * unit) as u64;
    let generation = expected_generation(got, e);
    let (writer, time_ns) = informational(got);
    let mut want = vec![0u8; got.len()];
    write_unit(&mut want, &Stamp { run_id: e.run_id, file_id: e.file_id, writer, address, generation, time_ns });
    write_pair(dir, file, address, got, &want);
}

/// Writes a bad block of verify=pattern whole, as received and as the pattern fills it.
pub(super) fn bad_block(dir: Option<&str>, file: &str, got: &[u8], p: &PatternFill, address: u64) {
    let mut want = vec![0u8; got.len()];
    crate::verify::pattern::fill(&mut want, p, address);
    write_pair(dir, file, address, got, &want);
}

fn write_pair(dir: Option<&str>, file: &str, address: u64, got: &[u8], want: &[u8]) {
    for (kind, data) in [("received", got), ("expected", want)] {
        let p = name(dir, file, address, kind);
        match std::fs::write(&p, data) {
            Ok(()) => eprintln!("       {kind} data dumped as {}", p.display()),
            Err(err) => eprintln!("fio: cannot write {}: {err}", p.display()),
        }
    }
}

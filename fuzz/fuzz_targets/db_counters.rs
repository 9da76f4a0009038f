//! Two snapshots of a database's I/O counters (SQL Server's sys.dm_io_virtual_file_stats as
//! sqlcmd or SSMS export it, PostgreSQL's pg_stat_io as psql --csv writes it), separated by a
//! NUL byte → the workload between them and the paced streams `pattern --from-stats` runs, or a
//! one-line error.
#![no_main]

use iolens::frontends::counters::streams::streams;
use iolens::frontends::counters::{between, parse};
use iolens::workload::Spec;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (before, after) = text.split_once('\0').unwrap_or((text, text));
    let (Ok(b), Ok(a)) = (parse(before, "BEFORE.csv"), parse(after, "AFTER.csv")) else { return };
    let Ok(observed) = between(&b, &a) else { return };
    for o in &observed {
        let _ = (o.reads_per_s(), o.writes_per_s(), o.read_size(), o.write_size(), o.mbps());
        let _ = (o.read_latency_ms(), o.write_latency_ms());
    }
    let _ = streams(&observed, &Spec::default(), &|k| format!("f{k}"));
});

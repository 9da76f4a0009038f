use super::*;

const BEFORE: &str = include_str!("../../../tests/data/counters/sqlserver-before.csv");
const AFTER: &str = include_str!("../../../tests/data/counters/sqlserver-after.csv");

fn observed(before: &str, after: &str) -> Result<Vec<Observed>, UsageError> {
    between(&parse(before, "BEFORE.csv")?, &parse(after, "AFTER.csv")?)
}

fn err(before: &str, after: &str) -> String {
    observed(before, after).unwrap_err().to_string()
}

#[test]
fn sqlcmd_export_gives_the_rates_sizes_and_waits_per_file() {
    let o = observed(BEFORE, AFTER).unwrap();
    // tempdb did nothing in the interval: not a stream.
    assert_eq!(o.len(), 2);
    let (data, log) = (&o[0], &o[1]);
    assert_eq!(data.name, r"sales file 1 (data) D:\data\sales.mdf");
    assert_eq!((data.role, data.seconds), (Role::Data, 60.0));
    assert_eq!((data.reads_per_s(), data.read_size(), data.read_latency_ms()), (2000.0, 8192.0, Some(2.0)));
    assert_eq!((data.writes_per_s(), data.write_latency_ms()), (0.0, None));
    assert_eq!(log.role, Role::Log);
    assert_eq!((log.writes_per_s(), log.write_size(), log.write_latency_ms()), (300.0, 61440.0, Some(0.5)));
    assert!((log.mbps() - 18.432).abs() < 1e-9, "{}", log.mbps());
}

const SSMS_HEAD: &str = "database_id,file_id,sample_ms,num_of_reads,num_of_bytes_read,io_stall_read_ms,num_of_writes,num_of_bytes_written,io_stall_write_ms,size_on_disk_bytes,file_handle";

#[test]
fn ssms_export_with_its_header_quotes_and_crlf() {
    let b = format!("{SSMS_HEAD}\r\n7,1,1000,10,81920,5,0,0,0,1048576,0x0000000000000B48\r\n7,2,1000,0,0,0,0,0,0,1048576,0x0000000000000B4C\r\n");
    let a = format!("{SSMS_HEAD}\r\n7,1,11000,1010,8273920,2005,0,0,0,1048576,0x0000000000000B48\r\n7,2,11000,0,0,0,500,2048000,250,1048576,0x0000000000000B4C\r\n");
    let o = observed(&b, &a).unwrap();
    assert_eq!(o[0].name, "database 7 file 1 (data)");
    assert_eq!((o[0].reads_per_s(), o[0].read_size(), o[0].read_latency_ms()), (100.0, 8192.0, Some(2.0)));
    // Without type_desc, file 2 is the log, as SQL Server numbers the first log file.
    assert_eq!((o[1].role, o[1].writes_per_s(), o[1].write_size()), (Role::Log, 50.0, 4096.0));
}

#[test]
fn a_comma_in_the_path_is_kept_quoted_or_not() {
    let head = "database_id,file_id,sample_ms,num_of_reads,num_of_bytes_read,io_stall_read_ms,num_of_writes,num_of_bytes_written,io_stall_write_ms,database_name,type_desc,physical_name";
    let row = |ms: u64, reads: u64, path: &str| {
        format!("{head}\n9,1,{ms},{reads},{},0,0,0,0,\"a,b\",ROWS,{path}\n", reads * 8192)
    };
    let o = observed(&row(0, 0, "D:\\x,y.mdf"), &row(1000, 10, "\"D:\\x,y.mdf\"")).unwrap();
    assert_eq!(o[0].name, r"a,b file 1 (data) D:\x,y.mdf");
    assert_eq!(o[0].reads, 10.0);
}

#[test]
fn an_export_without_its_header_is_refused_saying_how_to_get_one() {
    let e = parse("5,1,1000,1,8192,0,0,0,0\n", "BEFORE.csv").unwrap_err().to_string();
    assert_eq!(
        e,
        "BEFORE.csv: line 1: expected a header naming sys.dm_io_virtual_file_stats' columns (num_of_reads, …) or pg_stat_io's (backend_type, …); take the snapshot with the query in docs/database-counters.md"
    );
    let e = sqlserver("5,1,1000,1,8192,0,0,0,0\n", "BEFORE.csv").unwrap_err().to_string();
    assert!(e.starts_with("BEFORE.csv: line 1: expected the header (database_id, file_id, sample_ms, …), found numbers: in SSMS turn on"), "{e}");
}

#[test]
fn a_restart_between_the_snapshots_is_named_with_file_and_line() {
    let after = AFTER.replace("5,1,86460000,1120000", "5,1,86460000,120");
    assert_eq!(
        err(BEFORE, &after),
        "AFTER.csv: line 5: reads of database 5 file 1 went from 1000000 to 120: counters only grow, so the server restarted (or they were reset) between the snapshots; take both since then"
    );
}

#[test]
fn snapshots_of_different_files_or_out_of_order_are_refused() {
    let after = AFTER.replace("5,2,86460000", "6,2,86460000");
    assert_eq!(
        err(BEFORE, &after),
        "BEFORE.csv: line 6: database 5 file 2 is not in AFTER.csv: take both snapshots of the same server"
    );
    assert_eq!(
        err(AFTER, BEFORE),
        "AFTER.csv: line 3: taken at 86400000 ms, not after BEFORE.csv (86460000 ms): give the earlier snapshot first"
    );
    assert_eq!(
        err(BEFORE, BEFORE),
        "AFTER.csv: line 3: taken at 86400000 ms, not after BEFORE.csv (86400000 ms): give the earlier snapshot first"
    );
    let twice = format!("{}5,1,86400000,0,0,0,0,0,0,sales,ROWS,x\n", BEFORE.replace("\n(4 rows affected)\n", ""));
    assert_eq!(err(&twice, AFTER), "BEFORE.csv: line 7: database 5 file 1 appears twice; expected one row per file");
    let junk = BEFORE.replace("5,1,86400000,1000000", "5,1,86400000,many");
    assert_eq!(err(&junk, AFTER), "BEFORE.csv: line 5: num_of_reads 'many' is not a number (0 or more)");
}

const PG16: &str = "sample_epoch,backend_type,object,context,reads,read_time,writes,write_time,writebacks,writeback_time,extends,extend_time,op_bytes,hits,evictions,reuses,fsyncs,fsync_time,stats_reset";

fn pg16(epoch: f64, client_reads: u64, bulk_reads: u64, extends: u64) -> String {
    format!(
        "{PG16}\n\
         {epoch},client backend,relation,bulkread,{bulk_reads},0,0,0,0,0,,,8192,5,0,0,,,2026-11-01 10:00:00+00\n\
         {epoch},client backend,relation,normal,{client_reads},0,100,0,0,0,{extends},0,8192,900,10,,0,0,2026-11-01 10:00:00+00\n\
         {epoch},checkpointer,relation,normal,,,500,0,500,0,,,8192,,,,20,0,2026-11-01 10:00:00+00\n\
         {epoch},autovacuum worker,relation,normal,{client_reads},0,0,0,0,0,0,0,8192,0,0,,0,0,2026-11-01 10:00:00+00\n"
    )
}

#[test]
fn postgres_16_groups_by_object_and_context_and_says_timing_was_off() {
    let o = observed(&pg16(1000.0, 1000, 0, 0), &pg16(1010.0, 3000, 640, 50)).unwrap();
    let names: Vec<&str> = o.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["relation (bulkread)", "relation"]);
    let (bulk, rel) = (&o[0], &o[1]);
    assert_eq!((bulk.role, bulk.reads_per_s(), bulk.read_size()), (Role::Bulk, 64.0, 8192.0));
    // Two backends' reads add up; the extends are writes of new blocks.
    assert_eq!(
        (rel.reads_per_s(), rel.read_size(), rel.writes_per_s(), rel.write_size()),
        (400.0, 8192.0, 5.0, 8192.0)
    );
    // track_io_timing off: 0 ms over real I/O is not a latency.
    assert_eq!((rel.read_latency_ms(), rel.write_latency_ms()), (None, None));
}

const PG18: &str = "sample_epoch,backend_type,object,context,reads,read_bytes,read_time,writes,write_bytes,write_time,writebacks,writeback_time,extends,extend_bytes,extend_time,hits,evictions,reuses,fsyncs,fsync_time,stats_reset";

fn pg18(epoch: f64, reads: u64, wal_writes: u64, reset: &str) -> String {
    format!(
        "{PG18}\n\
         {epoch},client backend,relation,normal,{reads},{},{}.5,0,0,0,0,0,0,0,0,10,0,,0,0,{reset}\n\
         {epoch},client backend,wal,normal,0,0,0,{wal_writes},{},{},,,,,,,,,{wal_writes},0,{reset}\n\
         {epoch},walwriter,wal,init,,,,0,0,0,,,,,,,,,0,0,{reset}\n",
        reads * 8192,
        reads * 3,
        wal_writes * 16384,
        wal_writes / 4
    )
}

#[test]
fn postgres_18_reads_its_byte_columns_and_wal() {
    let o = observed(&pg18(5.0, 0, 0, ""), &pg18(7.0, 200, 400, "")).unwrap();
    assert_eq!(o.len(), 2);
    let (rel, wal) = (&o[0], &o[1]);
    assert_eq!((rel.reads_per_s(), rel.read_size(), rel.read_latency_ms()), (100.0, 8192.0, Some(3.0)));
    assert_eq!((wal.name.as_str(), wal.role), ("wal", Role::Log));
    assert_eq!((wal.writes_per_s(), wal.write_size(), wal.write_latency_ms()), (200.0, 16384.0, Some(0.25)));
}

#[test]
fn postgres_counters_reset_or_missing_the_clock_are_refused() {
    let e = err(&pg18(5.0, 0, 0, "2026-11-01 10:00:00+00"), &pg18(7.0, 200, 400, "2026-11-26 01:00:00+00"));
    assert_eq!(
        e,
        "AFTER.csv: line 2: the counters of client backend / relation / normal were reset between the snapshots (stats_reset 2026-11-01 10:00:00+00 in BEFORE.csv): take both after the reset"
    );
    let no_clock = pg18(5.0, 0, 0, "").replace("sample_epoch,", "x,");
    assert_eq!(
        postgres(&no_clock, "B.csv").unwrap_err().to_string(),
        "B.csv: line 1: the header has no sample_epoch column; take the snapshot with the query in docs/database-counters.md, which adds it"
    );
    let short = pg18(5.0, 0, 0, "").replace(",client backend,wal,normal,0,0,0,", ",client backend,wal,normal,0,0,");
    assert_eq!(
        postgres(&short, "B.csv").unwrap_err().to_string(),
        "B.csv: line 3: 20 fields, expected 21 as in the header"
    );
    let mixed = err(BEFORE, &pg18(7.0, 200, 400, ""));
    assert_eq!(
        mixed,
        "AFTER.csv: line 1: is a PostgreSQL snapshot but BEFORE.csv is a SQL Server one; give two of the same"
    );
}

#[test]
fn a_real_postgres_18_pair_around_pgbench_is_read() {
    // PostgreSQL 18.6, shared_buffers 2MB, track_io_timing and track_wal_io_timing on; snapshots
    // taken with the query in docs/database-counters.md around `pgbench -T 10 -c 4`.
    let b = include_str!("../../../tests/data/counters/pg18-before.csv");
    let a = include_str!("../../../tests/data/counters/pg18-after.csv");
    let o = observed(b, a).unwrap();
    let get = |n: &str| o.iter().find(|x| x.name == n).unwrap_or_else(|| panic!("no {n}"));
    let (rel, wal) = (get("relation"), get("wal"));
    assert!((rel.seconds - 10.096817970275879).abs() < 1e-6, "{}", rel.seconds);
    assert_eq!((rel.reads, rel.read_bytes, rel.writes, rel.write_bytes), (11695.0, 95805440.0, 10096.0, 82706432.0));
    assert!((rel.read_latency_ms().unwrap() - 91.865 / 11695.0).abs() < 1e-9);
    assert_eq!((wal.role, wal.reads, wal.writes, wal.write_bytes), (Role::Log, 0.0, 5919.0, 90243072.0));
    assert!((wal.write_latency_ms().unwrap() - 123.258 / 5919.0).abs() < 1e-9);
    assert_eq!(rel.read_size(), 8192.0);
}

#[test]
fn an_average_size_becomes_one_or_two_neighbouring_block_sizes_with_its_mean() {
    use crate::workload::BlockShare;
    let b = |size, pct| BlockShare { size, pct };
    assert_eq!(streams::sizes(8192.0, 4096), [b(8192, 100)]);
    assert_eq!(streams::sizes(10240.0, 4096), [b(8192, 50), b(12288, 50)]);
    assert_eq!(streams::sizes(61440.0, 4096), [b(61440, 100)]);
    // Below the unit: the unit (O_DIRECT cannot do less).
    assert_eq!(streams::sizes(512.0, 4096), [b(4096, 100)]);
    let s = streams::sizes(23456.7, 512);
    let mean: f64 = s.iter().map(|x| x.size as f64 * x.pct as f64 / 100.0).sum();
    assert!((mean - 23456.7).abs() <= 512.0 / 100.0, "{s:?} {mean}");
}

#[test]
fn each_file_and_direction_is_a_paced_stream_shaped_as_the_database_uses_it() {
    use crate::workload::{Pattern, Spec};
    let o = observed(BEFORE, AFTER).unwrap();
    let base = Spec { targets: vec!["d".into()], direct: true, ..Spec::default() };
    let s = streams::streams(&o, &base, &|k| format!("d/f{k}"));
    assert_eq!(s.len(), 2);
    let (data, log) = (&s[0], &s[1]);
    assert_eq!((data.read, data.rate, data.spec.read_pct, data.spec.pattern), (true, 2000.0, 100, Pattern::Random));
    assert_eq!(
        (data.spec.rate_iops, data.spec.targets.as_slice(), data.spec.write_through),
        (Some(2000.0), &["d/f0".to_string()][..], false)
    );
    assert_eq!(
        (log.read, log.spec.read_pct, log.spec.pattern, log.spec.write_through),
        (false, 0, Pattern::Sequential, true)
    );
    assert_eq!((log.spec.targets[0].as_str(), log.spec.blocks[0].size, log.db_latency_ms), ("d/f1", 61440, Some(0.5)));
    // Enough slots that 10 ms of latency does not hold 2,000/s back.
    assert_eq!((data.spec.qd, log.spec.qd), (20, 4));
}

use super::lines::{Lines, Sample};
use crate::engine::OpKind;
use crate::workload::iolog::{IoLogs, LogKind};

const MS: u64 = 1_000_000;

fn io(op: OpKind, offset: u64, len: u32, at_ms: u64, lat_ns: u64) -> Sample {
    let completed = at_ms * MS + lat_ns;
    let queued = completed - lat_ns;
    Sample { op, offset, len, queued, due: queued, submitted: completed - lat_ns / 2, completed, ioprio: 0 }
}

#[test]
fn per_io_lines_carry_value_direction_size_offset_and_priority() {
    let logs = IoLogs { offset: true, ..IoLogs::default() };
    let mut bw = Lines::new(LogKind::Bw, &logs);
    let mut lat = Lines::new(LogKind::Lat, &logs);
    let mut iops = Lines::new(LogKind::Iops, &IoLogs::default());
    for s in [
        io(OpKind::Read, 8192, 4096, 3, 2000),
        io(OpKind::Write, 0, 512, 7, 1000),
        io(OpKind::Trim, 4096, 4096, 9, 1000),
    ] {
        bw.add(&s);
        lat.add(&s);
        iops.add(&s);
    }
    // bw: bytes per ms of service time (4096 B in 1 µs of clat = 4096000).
    assert_eq!(bw.text, "3, 4096000, 0, 4096, 8192, 0\n7, 1024000, 1, 512, 0, 0\n9, 8192000, 2, 4096, 4096, 0\n");
    assert_eq!(lat.text.lines().next(), Some("3, 2000, 0, 4096, 8192, 0"));
    // Without log_offset the offset column is left out.
    assert_eq!(iops.text, "3, 1, 0, 4096, 0\n7, 1, 1, 512, 0\n9, 1, 2, 4096, 0\n");
}

#[test]
fn fsyncs_are_not_logged_and_log_prio_prints_the_priority() {
    let logs = IoLogs { prio: true, ..IoLogs::default() };
    let mut l = Lines::new(LogKind::Clat, &logs);
    l.add(&io(OpKind::Flush, 0, 0, 1, 10));
    l.add(&io(OpKind::Read, 0, 4096, 1, 10));
    assert_eq!(l.text, "1, 5, 0, 4096, 0x0000\n");
}

#[test]
fn averaged_windows_give_one_line_per_direction_and_skip_empty_windows() {
    let logs = IoLogs { avg_msec: 1000, offset: true, ..IoLogs::default() };
    let mut iops = Lines::new(LogKind::Iops, &logs);
    let mut bw = Lines::new(LogKind::Bw, &logs);
    let mut lat = Lines::new(LogKind::Lat, &logs);
    let mut all = vec![];
    // First second: 10 reads and 2 writes; the second second none; the third 4 reads.
    all.extend((0..10).map(|i| io(OpKind::Read, 0, 4096, i * 90, 1000 + i * 100)));
    all.extend((0..2).map(|i| io(OpKind::Write, 0, 8192, 500 + i, 3000)));
    all.sort_by_key(|s| s.completed);
    all.extend((0..4).map(|i| io(OpKind::Read, 0, 4096, 2100 + i * 100, 500)));
    for s in &all {
        iops.add(s);
        bw.add(s);
        lat.add(s);
    }
    iops.finish(2600 * MS);
    bw.finish(2600 * MS);
    lat.finish(2600 * MS);
    // The last window ran 600 ms: 4 I/Os in it are 6 per second.
    assert_eq!(iops.text, "1000, 10, 0, 0, 0, 0\n1000, 2, 1, 0, 0, 0\n2600, 6, 0, 0, 0, 0\n");
    assert_eq!(bw.text.lines().next(), Some("1000, 40, 0, 0, 0, 0"));
    // Mean latency of the first second's reads: 1000 + 100 × 4.5.
    assert_eq!(lat.text.lines().next(), Some("1000, 1450, 0, 0, 0, 0"));
}

#[test]
fn log_max_value_takes_the_window_maximum() {
    let logs = IoLogs { avg_msec: 100, max_value: true, ..IoLogs::default() };
    let mut l = Lines::new(LogKind::Lat, &logs);
    for ns in [100, 900, 300] {
        l.add(&io(OpKind::Read, 0, 4096, 10, ns));
    }
    l.finish(150 * MS);
    assert_eq!(l.text, "100, 900, 0, 0, 0\n");
}

#[test]
fn stored_compressed_samples_inflate_to_the_same_text() {
    let logs = IoLogs { offset: true, ..IoLogs::default() };
    let mut text = Lines::new(LogKind::Bw, &logs);
    let mut bin = Lines::new(LogKind::Bw, &IoLogs { store_compressed: true, ..logs });
    let mut packed = Vec::new();
    for i in 0..100u64 {
        let s = io(OpKind::Write, i * 4096, 4096, i, 1000);
        text.add(&s);
        bin.add(&s);
        if i % 40 == 39 {
            // Chunks are zlib streams one after another, as fio stores them.
            packed.extend(super::fz::deflate(std::mem::take(bin.bin.as_mut().unwrap())));
        }
    }
    packed.extend(super::fz::deflate(std::mem::take(bin.bin.as_mut().unwrap())));
    assert_eq!(super::inflate(&packed).unwrap(), text.text);
    assert!(super::inflate(b"not zlib").is_err());
}

#[test]
fn a_stream_larger_than_the_inflate_buffer_prints_every_sample_once_and_in_order() {
    // 40-byte samples (with offsets) across 64 KiB reads: some straddle two reads.
    let mut raw = Vec::new();
    for i in 0..5000u64 {
        super::fz::encode(&mut raw, i, i * 3, 1, 4096, Some(i * 4096), (false, 0));
    }
    let mut out = Vec::new();
    super::inflate_to(&super::fz::deflate(raw), &mut out).unwrap().unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5000);
    assert_eq!(lines[1638], "1638, 4914, 1, 4096, 6709248, 0");
    assert_eq!(lines[4999], "4999, 14997, 1, 4096, 20475904, 0");
    // A writer that fails is reported, not passed over.
    let mut small = [0u8; 16];
    let packed = super::fz::deflate({
        let mut r = Vec::new();
        super::fz::encode(&mut r, 1, 2, 0, 4096, None, (false, 0));
        r
    });
    let e = super::inflate_to(&packed, &mut &mut small[..]).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::WriteZero);
}

#[test]
fn log_window_value_both_gives_mean_then_max_and_issue_times_end_clat_and_slat_lines() {
    let logs = IoLogs { avg_msec: 100, avg_and_max: true, ..IoLogs::default() };
    let mut l = Lines::new(LogKind::Lat, &logs);
    for ns in [100, 900, 300] {
        l.add(&io(OpKind::Read, 0, 4096, 10, ns));
    }
    l.finish(150 * MS);
    assert_eq!(l.text, "100, 433, 900, 0, 0, 0\n");
    let logs = IoLogs { offset: true, issue_time: true, ..IoLogs::default() };
    let (mut clat, mut lat) = (Lines::new(LogKind::Clat, &logs), Lines::new(LogKind::Lat, &logs));
    let s = io(OpKind::Write, 8192, 4096, 3, 2000);
    clat.add(&s);
    lat.add(&s);
    // Issued 1 µs before it completed at 3 ms + 2 µs: ns since the start.
    assert_eq!(clat.text, "3, 1000, 1, 4096, 8192, 0, 3001000\n");
    assert_eq!(lat.text, "3, 2000, 1, 4096, 8192, 0, 0\n");
}

use super::*;

#[test]
fn fio_v3_times_files_and_ops() {
    let text =
        "fio version 3 iolog\n0 /a add\n5 /a open\n100 /a read 4096 512\n1100 /b write 0 8192\n900 /a sync 0 0\n";
    let Parsed { format: f, files, ios, .. } = parse(text, "t.log").unwrap();
    assert_eq!(f, Format::FioV3);
    assert_eq!(files, ["/a", "/b"]);
    let got: Vec<_> = ios.iter().map(|i| (i.at_ns, i.file, i.op, i.offset, i.len)).collect();
    // Times count from the first stamp; one going backwards waits for nothing.
    assert_eq!(
        got,
        [
            (100_000, 0, TraceOp::Read, 4096, 512),
            (1_100_000, 1, TraceOp::Write, 0, 8192),
            (1_100_000, 0, TraceOp::Flush, 0, 0)
        ]
    );
}

#[test]
fn fio_v2_waits_add_up_and_small_ones_are_dropped() {
    let text = "fio version 2 iolog\n/a add\n/a read 0 4096\n/a wait 2000 0\n/a write 4096 4096\n/a wait 50 0\n/a wait 1000 0\n/a trim 0 4096\n";
    let ios = parse(text, "t.log").unwrap().ios;
    let at: Vec<u64> = ios.iter().map(|i| i.at_ns).collect();
    assert_eq!(at, [0, 2_000_000, 3_000_000]);
    assert_eq!(ios[2].op, TraceOp::Trim);
}

#[test]
fn iolens_csv_pairs_worker_and_file() {
    let text = "worker,file,op,offset,length\n0,0,read,0,4096\n1,0,write,8192,4096\n0,0,fsync,0,0\n";
    let Parsed { format: f, files, ios, .. } = parse(text, "t.csv").unwrap();
    assert_eq!(f, Format::Iolens);
    assert_eq!(files, ["worker 0 file 0", "worker 1 file 0"]);
    assert_eq!(ios.iter().map(|i| i.file).collect::<Vec<_>>(), [0, 1, 0]);
}

#[test]
fn bad_lines_name_file_line_and_what_was_expected() {
    let e = parse("fio version 2 iolog\n/a add\n/a read x 4096\n", "t.log").unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.log: line 3: expected 'FILE add|open|close' or 'FILE read|write|trim|sync|datasync|wait OFFSET LENGTH'"
    );
    let e = parse("\nnot a trace\n", "t.log").unwrap_err();
    assert!(e.to_string().starts_with("t.log: line 2: expected 'fio version 2 iolog'"), "{e}");
    // A wait has no place in version 3; a zero-length read is no I/O.
    assert!(parse("fio version 3 iolog\n0 /a wait 10 0\n", "t").is_err());
    assert!(parse("fio version 2 iolog\n/a read 0 0\n", "t").is_err());
}

#[test]
fn shape_scales_aligns_redirects_and_rescales_time() {
    let Parsed { files, ios, .. } =
        parse("fio version 3 iolog\n0 /a read 10000 512\n2000 /b read 8191 512\n", "t").unwrap();
    let mut r = Replay {
        trace: "t".into(),
        format: "fio iolog v3".into(),
        files,
        no_stall: false,
        time_scale: 200,
        scale: 2,
        align: 4096,
        redirect: Some("/dev/x".into()),
        ios: Arc::new(ios),
        capture_ns: Arc::default(),
        redirect_name: "--redirect".into(),
    };
    r.shape();
    let got: Vec<_> = r.ios.iter().map(|i| (i.at_ns, i.file, i.offset)).collect();
    // 10000/2 = 5000 → 4096; 8191/2 = 4095 → 0; 2 ms at twice the rate is 1 ms.
    assert_eq!(got, [(0, 0, 4096), (1_000_000, 0, 0)]);
    assert_eq!(r.target_count(), 1);
}

#[test]
fn files_and_offsets_past_what_a_replay_can_open_are_refused_by_line() {
    let mut many = String::from("fio version 2 iolog\n");
    for i in 0..1025 {
        many.push_str(&format!("f{i} add\n"));
    }
    let e = parse(&many, "t.log").unwrap_err();
    assert_eq!(e.to_string(), "t.log: line 1026: more than 1024 files in one trace");
    let far = format!("fio version 2 iolog\nf add\nf write {} 4096\n", u64::MAX - 10);
    let e = parse(&far, "t.log").unwrap_err();
    assert_eq!(e.to_string(), "t.log: line 3: the I/O ends past 2^63 - 1, the largest offset a file has");
    let csv = format!("{}\n0,0,read,{},512\n", super::parse::IOLENS_HEADER, i64::MAX as u64 - 512);
    assert_eq!(parse(&csv, "t.csv").unwrap().ios[0].offset, i64::MAX as u64 - 512);
}

#[test]
fn timed_iolens_csv_keeps_times_and_latencies_and_round_trips() {
    let rows = [
        timed_row(TraceOp::Read, 4096, 4096, 0, Some(80_000)),
        timed_row(TraceOp::Write, 0, 8192, 2_500_000, None),
        timed_row(TraceOp::Flush, 0, 0, 3_000_000, Some(1_000_000)),
    ];
    let text = format!("{TIMED_HEADER}\n{}", rows.concat());
    let p = parse(&text, "c.csv").unwrap();
    assert_eq!(p.format, Format::Iolens);
    let got: Vec<_> = p.ios.iter().map(|i| (i.at_ns, i.op, i.offset, i.len)).collect();
    assert_eq!(
        got,
        [(0, TraceOp::Read, 4096, 4096), (2_500_000, TraceOp::Write, 0, 8192), (3_000_000, TraceOp::Flush, 0, 0)]
    );
    // The write completed after the capture ended: no latency for it.
    assert_eq!(p.capture_ns, [80_000, 1_000_000]);
    let e = parse(&format!("{TIMED_HEADER}\n0,0,read,0,512,5,\n0,0,read,0,512,4,\n"), "c.csv").unwrap_err();
    assert_eq!(
        e.to_string(),
        "c.csv: line 3: expected worker,file,op,offset,length,time_ns,latency_ns (op read, write, fsync or trim; time_ns not going back)"
    );
}

#[test]
fn blktrace_records_are_bounded_by_what_the_file_holds() {
    // The magic in either byte order tells a capture from text.
    assert!(is_blktrace(&[0x07, 0x74, 0x61, 0x65]) && is_blktrace(&[0x65, 0x61, 0x74, 0x07]));
    assert!(!is_blktrace(b"fio version 3 iolog"));
    let e = parse_blktrace(&[("c.0", b"xyz")]).unwrap_err();
    assert_eq!(e.to_string(), "c.0: byte 0: expected a blk_io_trace record (magic 0x65617400)");
    // A CPU that saw nothing leaves an empty file, which holds no I/O.
    let p = parse_blktrace(&[("c.0", b"")]).unwrap();
    assert!(p.ios.is_empty() && p.capture_ns.is_empty());
}

#[test]
fn tracepoint_lines_become_requests_with_their_latency() {
    // As this kernel (6.18) prints them, and a lost-events notice.
    let lines = "\
             fio-30644   [000] ..... 24752.786539: block_rq_issue: 7,0 RS 4096 () 7904 + 8 be,0,4 [fio]
     ksoftirqd/0-14      [000] ..s.. 24752.787950: block_rq_complete: 7,0 RS () 7904 + 8 be,0,4 [0]
             fio-30644   [001] ..... 24752.788484: block_rq_issue: 7,0 WS 8192 () 97024 + 16 be,0,4 [fio]
    kworker/1:1H-77      [001] ..... 24752.788490: block_rq_issue: 7,0 FF 0 () 0 + 0 be,0,4 [kworker/1:1H]
             fio-30644   [001] ..... 24752.788500: block_rq_issue: 7,0 DS 1048576 () 2048 + 2048 be,0,4 [fio]
CPU:1 [LOST 3 EVENTS]
     ksoftirqd/0-14      [000] ..s.. 24752.788511: block_rq_complete: 7,0 WS () 97024 + 16 be,0,4 [0]
     ksoftirqd/0-14      [000] ..s.. 24752.788600: block_rq_complete: 7,0 FF () 0 + 0 be,0,4 [0]
             fio-30644   [000] ..... 24752.788700: block_rq_issue: 7,0 N 0 () 0 + 0 be,0,4 [fio]
";
    let mut c = Capture::default();
    for l in lines.lines() {
        assert!(c.line(l, 10));
    }
    let got: Vec<_> = c.requests.iter().map(|r| (r.at_ns, r.op, r.offset, r.len, r.latency_ns)).collect();
    assert_eq!(
        got,
        [
            (0, TraceOp::Read, 7904 * 512, 4096, Some(1_411_000)),
            (1_945_000, TraceOp::Write, 97024 * 512, 8192, Some(27_000)),
            (1_951_000, TraceOp::Flush, 0, 0, Some(110_000)),
            (1_961_000, TraceOp::Trim, 2048 * 512, 1 << 20, None),
        ]
    );
    assert_eq!(c.lost, 3);
    // Its CSV reads back as the same I/Os with the latencies it had.
    let p = parse(&c.csv(), "cap.csv").unwrap();
    assert_eq!(
        p.ios.iter().map(|i| (i.at_ns, i.op, i.offset, i.len)).collect::<Vec<_>>(),
        got.iter().map(|g| (g.0, g.1, g.2, g.3)).collect::<Vec<_>>()
    );
    assert_eq!(p.capture_ns, [1_411_000, 27_000, 110_000]);
    // At its limit the capture keeps no more.
    let mut c = Capture::default();
    assert!(!c.line(lines.lines().next().unwrap(), 0));
    assert!(c.requests.is_empty());
}

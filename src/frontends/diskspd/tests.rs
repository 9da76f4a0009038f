//! Tests of the DiskSpd parser, against DiskSpd's own rules.

use super::*;
use rand::{rngs::SmallRng, Rng, SeedableRng};

fn p(line: &str) -> R<DiskspdJob> {
    parse(&line.split_whitespace().map(String::from).collect::<Vec<_>>())
}

fn opt_of(line: &str) -> String {
    p(line).expect_err(line).option
}

#[test]
fn seed_line() {
    let j = p(r"-t2 -o32 -b4k -r4k -w25 -d120 -Sh -D -L -c1G F:\IO.dat").unwrap();
    let s = &j.spec;
    assert_eq!((s.threads, s.qd, s.read_pct, s.pattern), (2, 32, 75, Pattern::Random));
    assert_eq!(s.blocks, vec![BlockShare { size: 4096, pct: 100 }]);
    assert_eq!((s.align, s.duration, s.warmup, s.cooldown), (Some(4096), 120.0, 5.0, 0.0));
    assert!(s.direct && s.write_through && j.latency && j.iops_stddev);
    assert_eq!((s.size, j.create_size), (1 << 30, Some(1 << 30)));
    // Windows keeps the drive; Linux has none and keeps the name.
    assert_eq!(s.targets, vec![if cfg!(windows) { r"F:\IO.dat" } else { "IO.dat" }]);
    let noted = j.notes.iter().filter(|n| n.contains(r"F:\IO.dat")).count();
    assert_eq!(noted, usize::from(!cfg!(windows)), "{:?}", j.notes);
}

#[test]
fn diskspd_defaults() {
    let j = p("IO.dat").unwrap();
    let s = &j.spec;
    assert_eq!((s.min_block(), s.qd, s.threads, s.read_pct), (64 << 10, 2, 1, 100));
    assert_eq!((s.duration, s.warmup, s.cooldown, s.pattern), (10.0, 5.0, 0.0, Pattern::Sequential));
    assert!(!s.direct && !s.write_through && !j.latency && !j.iops_stddev);
    assert_eq!((j.create_size, s.offset, s.range, s.rate_mbps), (None, 0, None, None));
    assert!(j.notes.is_empty(), "{:?}", j.notes);
}

#[test]
fn caching_flags() {
    // Each option → (direct, write_through), as "DW" digits.
    for (o, want) in [("-Su", "10"), ("-S", "10"), ("-Sw", "01"), ("-Sh", "11"), ("-h", "11"), ("-Sb", "00")] {
        let s = p(&format!("{o} f")).unwrap().spec;
        assert_eq!(format!("{}{}", s.direct as u8, s.write_through as u8), want, "{o}");
    }
    assert_eq!(opt_of("-Su -Sb f"), "-Sb");
    assert_eq!(opt_of("-Sw -h f"), "-h");
    assert_eq!(opt_of("-Sx f"), "-Sx");
    assert_eq!(opt_of("-Su -b1000 f"), "-b");
}

#[test]
fn sequential_variants() {
    let j = p("-t4 -si f").unwrap();
    assert_eq!(j.spec.pattern, Pattern::Sequential);
    assert!(j.spec.shared_seq && j.notes.iter().all(|n| !n.contains("sequential")), "{:?}", j.notes);
    let one = p("-t1 -si f").unwrap();
    assert_eq!(one.notes.iter().filter(|n| *n == "WARNING: single-threaded test, -si ignored").count(), 1);
    assert!(!p("-t4 -s f").unwrap().spec.shared_seq);
    assert!(p("-b8k -s8k f").is_ok() && p("-s1b f").is_ok());
    assert_eq!(opt_of("-r -si f"), "-si");
    assert_eq!(opt_of("-s -r4k f"), "-r4k");
    assert_eq!(opt_of("-r -r f"), "-r");
    assert_eq!(p("-b8k -r f").unwrap().spec.align, Some(8192));
}

#[test]
fn throttle_is_per_thread_per_target() {
    let j = p("-t2 -g500 a b").unwrap();
    assert_eq!(j.spec.rate_mbps, Some(2.0));
    assert!(j.notes.iter().any(|n| n.starts_with("-g:")));
    assert_eq!(p("-t2 -g100i f").unwrap().spec.rate_iops, Some(200.0));
    assert_eq!(opt_of("-g0 f"), "-g0");
}

#[test]
fn sizes_offsets_and_data() {
    let s = p("-b8K -c8b -B1M -f1G -Z f").unwrap().spec;
    assert_eq!((s.size, s.offset, s.range), (65536, 1 << 20, Some((1 << 30) - (1 << 20))));
    assert_eq!(s.data, DataPattern::Zero);
    assert_eq!(p("-B4k:8k f").unwrap().spec.range, Some(8192));
    assert_eq!(p("-z42 f").unwrap().spec.seed, 42);
    let j = p("-w100 -Z1M -D500 -a0,1 f").unwrap();
    assert_eq!((j.spec.read_pct, j.spec.data, j.notes.len()), (0, DataPattern::Random, 2), "{:?}", j.notes);
    assert_eq!(j.extras.affinity.cpus, [0, 1], "-a0,1: the threads go to CPUs 0 and 1 in turn");
    assert_eq!((opt_of("-B8k -f4k f"), opt_of("-B8k:0 f")), ("-f".into(), "-B".into()));
    assert_eq!(opt_of("-Z1k f"), "-Z");
}

#[test]
fn targets() {
    let j = p(r"\\srv\share\dir\a.dat /tmp/b.dat C:c.dat").unwrap();
    if cfg!(windows) {
        assert_eq!(j.spec.targets, vec![r"\\srv\share\dir\a.dat", "/tmp/b.dat", "C:c.dat"]);
        assert!(j.notes.is_empty(), "{:?}", j.notes);
        assert!(p(r"C:\a\x.dat D:\x.dat").is_ok());
    } else {
        assert_eq!(j.spec.targets, vec!["a.dat", "/tmp/b.dat", "c.dat"]);
        assert_eq!(j.notes.len(), 2);
        assert_eq!(opt_of(r"C:\dir\"), r"C:\dir\");
        assert_eq!(opt_of(r"C:\a\x.dat D:\x.dat"), r"D:\x.dat");
    }
    for bad in ["#1", "E:", r"\\.\PhysicalDrive0"] {
        assert_eq!(opt_of(bad), bad);
    }
    assert!(p(r"C:\x.dat C:\x.dat").is_ok());
    assert_eq!(opt_of("f -t2"), "-t2");
    assert_eq!(opt_of("-t2"), "TARGET");
    assert!(parse(&["-t2".into(), String::new()]).unwrap_err().to_string().starts_with("ERROR: an empty argument"));
}

#[test]
fn unsupported_options_name_themselves() {
    let refused = "-x -Sm -Sr -rs50 -rdpct90/10 -T4k -p -l -Nv -i4 -j10 -O4 -ysEvt \
                   -eDISK_IO -:1 -I1 -s8k -Z1M,src.bin -? -q";
    for o in refused.split_whitespace() {
        let e = p(&format!("{o} f")).expect_err(o);
        assert_eq!(e.option, o, "{e}");
        assert!(!e.message.is_empty());
    }
    assert_eq!(opt_of("-F2 a b"), "-F");
    assert_eq!(opt_of("-n -a0 f"), "-n");
}

#[test]
fn garbage_names_the_option() {
    let bad = "-b3x -b64KiB -t0 -o -w150 -w -d1.5 -d0 -t5000 -B4k: -a1,g -R -vx -T0 -z99999999999 -".split(' ');
    for arg in bad {
        let flag = arg.get(..2).unwrap_or(arg);
        let e = p(&format!("{arg} f")).expect_err(arg);
        assert!(e.option.starts_with(flag), "{arg}: {e:?}");
        // The line shown is DiskSpd's "ERROR: …", alone on its line, naming the option.
        let shown = e.to_string();
        assert!(e.worded && shown.starts_with("ERROR: ") && !shown.contains('\n'), "{shown}");
        assert!(shown.contains(flag), "{arg}: {shown}");
    }
}

/// DiskSpd 2.2's stderr for each line (run under wine), its lines joined into one by "; " under
/// a single "ERROR: ". Lines DiskSpd accepts and iolens refuses are in `iolens_only_refusals`.
const DISKSPD_SAYS: &[(&str, &str)] = &[
    ("-Q5 f", "ERROR: invalid option: '-Q5'"),
    ("- f", "ERROR: invalid option: '-'"),
    ("-c1M -d1", "ERROR: need to provide at least one filename"),
    ("f -t2", "ERROR: parameters (-t2) must come before targets on the command line"),
    ("-t0 f", "ERROR: incorrectly provided option: '-t0'"),
    ("-t f", "ERROR: incorrectly provided option: '-t'"),
    ("-o0 f", "ERROR: incorrectly provided option: '-o0'"),
    ("-oX f", "ERROR: incorrectly provided option: '-oX'"),
    ("-F0 f", "ERROR: incorrectly provided option: '-F0'"),
    ("-g0 f", "ERROR: incorrectly provided option: '-g0'"),
    ("-gX f", "ERROR: incorrectly provided option: '-gX'"),
    ("-I4 f", "ERROR: incorrectly provided option: '-I4'"),
    ("-c f", "ERROR: incorrectly provided option: '-c'"),
    ("-f f", "ERROR: incorrectly provided option: '-f'"),
    ("-fx f", "ERROR: incorrectly provided option: '-fx'"),
    ("-B f", "ERROR: incorrectly provided option: '-B'"),
    (
        "-w200 f",
        "ERROR: write ratio passed to -w must be between 0 and 100 (percent); incorrectly provided option: '-w200'",
    ),
    ("-w f", "ERROR: no write ratio passed to -w; incorrectly provided option: '-w'"),
    ("-d-1 f", "ERROR: invalid measured duration time (-d): '-1'"),
    ("-W-2 f", "ERROR: invalid warmup time (-W): '-2'"),
    ("-C-2 f", "ERROR: invalid cooldown time (-C): '-2'"),
    ("-bX f", "ERROR: Invalid integer; invalid block size passed to -b"),
    (
        "-b3x f",
        "ERROR: Invalid size 'x'. Valid: K - KiB, M - MiB, G - GiB, T - TiB, B - block; invalid block size passed to -b",
    ),
    ("-b64KiB f", "ERROR: Unrecognized characters after size specification; invalid block size passed to -b"),
    (
        "-r3X f",
        "ERROR: Invalid size 'X'. Valid: K - KiB, M - MiB, G - GiB, T - TiB, B - block; \
         invalid alignment passed to -r; incorrectly provided option: '-r3X'",
    ),
    ("-r0 f", "ERROR: invalid alignment passed to -r; incorrectly provided option: '-r0'"),
    ("-cX f", "ERROR: Invalid integer; invalid target size passed to -c; incorrectly provided option: '-cX'"),
    ("-Bx f", "ERROR: Invalid integer; invalid base target offset passed to -B; incorrectly provided option: '-Bx'"),
    ("-B4k: f", "ERROR: -Bbase:length - no length provided; incorrectly provided option: '-B4k:'"),
    ("-B4k:0 f", "ERROR: maximum (-f) target offset must be greater than base (-B)"),
    ("-B8k -f4k f", "ERROR: maximum (-f) target offset must be greater than base (-B)"),
    ("-sX f", "ERROR: Invalid integer; invalid stride size passed to -s; incorrectly provided option: '-sX'"),
    ("-ZX f", "ERROR: Invalid integer; invalid size passed to -Z; incorrectly provided option: '-ZX'"),
    ("-T0 f", "ERROR: invalid offset passed to -T; incorrectly provided option: '-T0'"),
    ("-Sx f", "ERROR: unrecognized option provided to -S; incorrectly provided option: '-Sx'"),
    ("-Su -Sb f", "ERROR: -Sb conflicts with earlier specification of cache mode; incorrectly provided option: '-Sb'"),
    (
        "-Sw -h f",
        "ERROR: -h conflicts with earlier specification of cache/writethrough; incorrectly provided option: '-h'",
    ),
    ("-s -r4k f", "ERROR: sequential IO (-s) conflicts with random IO (-r/-rs); incorrectly provided option: '-r4k'"),
    ("-r -si f", "ERROR: sequential IO (-s) conflicts with random IO (-r/-rs); incorrectly provided option: '-si'"),
    ("-r -r f", "ERROR: random IO (-r) specified multiple times; incorrectly provided option: '-r'"),
    ("-s -s f", "ERROR: sequential IO (-s) specified multiple times; incorrectly provided option: '-s'"),
    ("-a1,g f", "ERROR: incomplete affinity specification; incorrectly provided option: '-a1,g'"),
    ("-n -a0 f", "ERROR: -n and -a parameters cannot be used together"),
    ("-F2 -t2 f", "ERROR: -F and -t parameters cannot be used together"),
    // DiskSpd's line names only the value; its own phrase for the option is added.
    (
        "-zX f",
        "ERROR: invalid random seed value 'X' specified - must be a valid 32 bit integer; \
         incorrectly provided option: '-zX'",
    ),
    ("-R f", "ERROR: unspecified results format -R: use [p]<text|xml>"),
    ("-Rfoo f", "ERROR: invalid results format (-R): 'foo'"),
    ("-vx f", "ERROR: invalid verbose mode (-v): 'x'"),
    (
        "-Z1k f",
        "ERROR: custom write buffer (-Z) is smaller than the block size. Write buffer size: 1024 block size: 65536",
    ),
];

#[test]
fn bad_lines_are_refused_in_diskspds_words() {
    for (line, want) in DISKSPD_SAYS {
        let e = p(line).expect_err(line);
        assert!(e.worded, "{line}: {e:?}");
        assert_eq!(e.to_string(), *want, "{line}");
    }
}

#[test]
fn iolens_only_refusals() {
    // DiskSpd runs these (atoi reads "1.5" as 1, strtoul saturates the seed, -x is its own
    // completion mode); iolens refuses them on one line in DiskSpd's form, naming the option.
    let cases = [
        ("-d1.5 f", "ERROR: invalid measured duration time (-d): '1.5'"),
        ("-t1.5 f", "ERROR: incorrectly provided option: '-t1.5'"),
        ("-z99999999999 f", "ERROR: invalid random seed value '99999999999' specified"),
        ("-x f", "ERROR: completion routines are not supported: '-x'"),
        ("-t5000 f", "ERROR: 5000 is out of range; use 1-4096: '-t'"),
        // The thread count is refused by the switch that set it.
        ("-F5000 f", "ERROR: 5000 is out of range; use 1-4096: '-F'"),
        ("-b0 f", "ERROR: invalid block size passed to -b; iolens takes block sizes from 1 byte to 64M: '-b0'"),
    ];
    for (line, want) in cases {
        let shown = p(line).expect_err(line).to_string();
        assert!(shown.starts_with(want), "{line}: {shown}");
    }
    // DiskSpd has no thread limit of its own; iolens runs up to 4096 threads (about 0.5 MB each).
    assert_eq!(p("-F2000 f").unwrap().spec.threads, 2000);
}

#[test]
fn random_lines_never_panic() {
    // "|" separates the fragments; "||" is the empty one.
    let frags: Vec<&str> = "-|-b|-t|-o|-w|-r|-s|-si|-S|-Su|-Shw|-h|-g|-Z|-Zr|-D|-B|-f|-c|-a|-z|-T|-F|-R|-é|4|4k|0|b|G|\
                            :|,|i|x|99999999999999|F:\\a|\\\\|#|#2|C:|é||/dev/sdb|\\\\?\\|g1,2"
        .split('|')
        .collect();
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..500 {
        let args: Vec<String> = (0..rng.random_range(0..6))
            .map(|_| (0..rng.random_range(1..4)).map(|_| frags[rng.random_range(0..frags.len())]).collect())
            .collect();
        let _ = parse(&args);
    }
}

#[test]
fn access_hints() {
    use crate::workload::AccessHint;
    for (o, want) in [("-fr", AccessHint::Random), ("-fs", AccessHint::Sequential), ("-frs", AccessHint::Random)] {
        assert_eq!(p(&format!("{o} f")).unwrap().spec.hint, want, "{o}");
    }
    let j = p("-ft f").unwrap();
    assert_eq!(j.spec.hint, AccessHint::None);
    assert_eq!(j.notes, ["-ft: the temporary-file hint (-ft) is not applied"]);
    assert_eq!(opt_of("-fx f"), "-fx");
}

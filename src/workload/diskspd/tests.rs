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
    assert_eq!(s.targets, vec!["IO.dat"]);
    assert_eq!(j.notes.iter().filter(|n| n.contains(r"F:\IO.dat")).count(), 1, "{:?}", j.notes);
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
    assert_eq!(opt_of("-Sx f"), "-S");
    assert_eq!(opt_of("-Su -b1000 f"), "-b");
}

#[test]
fn sequential_variants() {
    let j = p("-t4 -si f").unwrap();
    assert_eq!(j.spec.pattern, Pattern::Sequential);
    assert!(j.notes.iter().any(|n| n.starts_with("-si:") && n.contains("4 threads")), "{:?}", j.notes);
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
    assert_eq!(opt_of("-g0 f"), "-g");
}

#[test]
fn sizes_offsets_and_data() {
    let s = p("-b8K -c8b -B1M -f1G -Z f").unwrap().spec;
    assert_eq!((s.size, s.offset, s.range), (65536, 1 << 20, Some((1 << 30) - (1 << 20))));
    assert_eq!(s.data, DataPattern::Zero);
    assert_eq!(p("-B4k:8k f").unwrap().spec.range, Some(8192));
    assert_eq!(p("-z42 f").unwrap().spec.seed, 42);
    let j = p("-w100 -Z1M -D500 -a0,1 f").unwrap();
    assert_eq!((j.spec.read_pct, j.spec.data, j.notes.len()), (0, DataPattern::Random, 3), "{:?}", j.notes);
    assert_eq!((opt_of("-B8k -f4k f"), opt_of("-B8k:0 f")), ("-f".into(), "-B".into()));
    assert_eq!(opt_of("-Z1k f"), "-Z");
}

#[test]
fn targets() {
    let j = p(r"\\srv\share\dir\a.dat /tmp/b.dat C:c.dat").unwrap();
    assert_eq!(j.spec.targets, vec!["a.dat", "/tmp/b.dat", "c.dat"]);
    assert_eq!(j.notes.len(), 2);
    for bad in ["#1", "E:", r"\\.\PhysicalDrive0", r"C:\dir\"] {
        assert_eq!(opt_of(bad), bad);
    }
    assert_eq!(opt_of(r"C:\a\x.dat D:\x.dat"), r"D:\x.dat");
    assert!(p(r"C:\x.dat C:\x.dat").is_ok());
    assert_eq!(opt_of("f -t2"), "-t2");
    assert_eq!(opt_of("-t2"), "TARGET");
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
        assert_eq!(opt_of(&format!("{arg} f")), arg.get(..2).unwrap_or(arg), "{arg}");
    }
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
    assert_eq!(opt_of("-fx f"), "-f");
}

//! Tests of the fio reader: sections, includes, groups, refusals, and fio's own examples.

use super::values::{eval, keyword_value};
use super::*;
use crate::workload::{BlockShare, DataPattern, EngineKind, Pattern, RandomDist, RateProcess, ThinkTime};

fn parse(text: &str) -> R<Vec<FioJob>> {
    parse_job_text(text, Path::new("."), &|v| (v == "SIZE").then(|| "64m".to_string()))
}

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn globals_merge_and_stonewalls_make_groups() {
    let jobs = parse(
        "; ssd test\n[global]\nbs=4k\nioengine=libaio\niodepth=4\nsize=10g # comment\ndirect=1\nruntime=60\n\
         filename=/tmp/ssd.test\n\n[seq-read]\nrw=read\n\n[rand-write]\nrw=randwrite\nstonewall\niodepth=8\n",
    )
    .unwrap();
    assert_eq!((jobs.len(), jobs[0].group, jobs[1].group), (2, 0, 1));
    let (a, b) = (&jobs[0].spec, &jobs[1].spec);
    assert_eq!((a.pattern, a.read_pct, a.qd, a.size, a.duration), (Pattern::Sequential, 100, 4, 10 << 30, 60.0));
    assert_eq!((b.pattern, b.read_pct, b.qd, b.engine, b.direct), (Pattern::Random, 0, 8, EngineKind::IoUring, true));
    assert_eq!(b.targets, vec!["/tmp/ssd.test"]);
    let opt = |j: &FioJob, k: &str| j.options.iter().find(|(o, _)| o == k).map(|(_, v)| v.clone());
    assert_eq!(opt(&jobs[1], "iodepth").as_deref(), Some("8"));
    assert_eq!(opt(&jobs[1], "stonewall").as_deref(), Some(""));
    assert_eq!(jobs[1].options.iter().filter(|(k, _)| k == "iodepth").count(), 1);
    // Not time_based: the job ends at its runtime or when its size is done, whichever is first.
    assert_eq!((a.io_limit, jobs[0].size_passes), (None, Some(1)));
    assert!(jobs[0].notes.iter().any(|n| n.contains("libaio")));
    // fio's defaults where iolens' differ, a global after a job, and new_group.
    let jobs = parse("[a]\nfilename=f\n[global]\nrw=randrw\n[b]\nfilename=f\nnew_group\n[c]\nfilename=f\n").unwrap();
    let a = &jobs[0].spec;
    assert_eq!(
        (a.pattern, a.blocks[0].size, a.direct, a.engine, a.duration),
        (Pattern::Sequential, 4096, false, EngineKind::Psync, 30.0 * 86400.0)
    );
    assert!(!jobs[0].size_given());
    assert_eq!(jobs.iter().map(|j| (j.spec.read_pct, j.group)).collect::<Vec<_>>(), [(100, 0), (50, 1), (50, 1)]);
}

#[test]
fn include_env_and_keywords() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("inc")).unwrap();
    std::fs::write(dir.path().join("inc/common.fio"), "numjobs=2\ninclude deeper.fio\n").unwrap();
    std::fs::write(dir.path().join("inc/deeper.fio"), "group_reporting\n").unwrap();
    let text =
        "[job]\nfilename=f${NOPE}\nsize=${SIZE}\ninclude inc/common.fio\nbs=$pagesize\niodepth=$ncpus*2-$ncpus\n";
    let jobs = parse_job_text(text, dir.path(), &|v| (v == "SIZE").then(|| "64m".to_string())).unwrap();
    let j = &jobs[0];
    assert_eq!((j.spec.size, j.spec.threads, j.group_reporting), (64 << 20, 2, true));
    assert_eq!(j.spec.targets, vec!["f"]);
    assert_eq!(j.spec.qd as i64, keyword_value(2));
    assert_eq!(j.spec.blocks[0].size as i64, keyword_value(0));
    assert!(j.options.contains(&("size".into(), "64m".into())));
    std::fs::write(dir.path().join("inc/main.fio"), "[m]\nfilename=g\nsize=1m\ninclude deeper.fio\n").unwrap();
    assert!(parse_job_file(&dir.path().join("inc/main.fio")).unwrap()[0].group_reporting);
    assert!(parse_job_text("[j]\ninclude missing.fio\n", dir.path(), &|_| None)
        .unwrap_err()
        .to_string()
        .contains("missing.fio"));
    std::fs::write(dir.path().join("bad.fio"), "[x]\n").unwrap();
    let e = parse_job_text("[j]\ninclude bad.fio\n", dir.path(), &|_| None).unwrap_err();
    assert!(e.to_string().contains("may not open sections"), "{e}");
    assert!(parse("rw=read\n[j]\n").unwrap_err().to_string().contains("outside any [section]"));
    assert_eq!(eval("(8*1024)/3-1"), Some(2729));
    assert_eq!(eval("4k*2"), None);
}

#[test]
fn command_line_and_job_files() {
    let jobs = parse_args(&args(
        "--direct=1 --size 1g --filename=/tmp/x --name=a --rw=randread --bs=8k --iodepth=32 --time_based \
         --runtime=2m --name=b --rw=write --stonewall --rate=10m --numjobs=2",
    ))
    .unwrap();
    // b's two clones are reported apart, so they are two jobs of one group.
    let names = jobs.iter().map(|j| (j.name.as_str(), j.group)).collect::<Vec<_>>();
    assert_eq!(names, [("a", 0), ("b", 1), ("b", 1)]);
    let (a, b) = (&jobs[0].spec, &jobs[1].spec);
    assert_eq!((a.blocks[0].size, a.qd, a.duration, a.size, a.direct), (8192, 32, 120.0, 1 << 30, true));
    assert!(!jobs[0].notes.iter().any(|n| n.contains("runtime")));
    assert_eq!(b.rate_mbps, Some(10.0 * 1048576.0 / 1e6), "each clone its own rate");
    assert_eq!(jobs[0].options[0], ("direct".into(), "1".into()));
    assert!(jobs[1].options.contains(&("name".into(), "b".into())));
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("j.fio");
    std::fs::write(&f, "[c]\nrw=randwrite\n").unwrap();
    let mut a = args("--size=1m --filename=/tmp/y --name=d");
    a.extend([f.display().to_string(), f.display().to_string()]);
    let jobs = parse_args(&a).unwrap();
    assert_eq!(jobs.iter().map(|j| (j.name.as_str(), j.group)).collect::<Vec<_>>(), [("d", 0), ("c", 0), ("c", 1)]);
    assert_eq!((jobs[1].spec.size, jobs[1].spec.pattern), (1 << 20, Pattern::Random));
}

#[test]
fn bssplit_rwmix_and_values() {
    let j = &parse("[j]\nfilename=f\nrw=randrw\nrwmixread=70\nbssplit=4k/50:1k/:32k/\n").unwrap()[0];
    assert_eq!(j.spec.read_pct, 70);
    let b = |size, pct| BlockShare { size, pct };
    assert_eq!(j.spec.blocks, vec![b(1024, 25), b(32768, 25), b(4096, 50)]);
    let j = &parse("[j]\nfilename=f\nrw=rw\nrwmixwrite=10\nbssplit=4k/30:8k/30:64k\n").unwrap()[0];
    assert_eq!((j.spec.read_pct, j.spec.blocks.len()), (90, 3));
    // bsrange: every multiple of the low end up to the high end, evenly.
    let j = &parse("[j]\nfilename=f\nsize=1m\nbsrange=1k-4k\n").unwrap()[0];
    assert_eq!(j.spec.blocks, vec![b(1024, 25), b(2048, 25), b(3072, 25), b(4096, 25)]);
    let j = &parse("[j]\nfilename=f\nbsrange=4k-4k\n").unwrap()[0];
    assert_eq!(j.spec.blocks, vec![b(4096, 100)]);
    // More sizes than whole percents: drawn between the ends, in steps of the low one.
    let j = &parse("[j]\nfilename=f\nbsrange=512:1m\n").unwrap()[0];
    assert_eq!((&j.spec.blocks, j.spec.ranged, j.spec.unaligned), (&vec![b(512, 50), b(1 << 20, 50)], true, false));
    let j = &parse("[j]\nfilename=f\nbssplit=4k:8k:16k\n").unwrap()[0];
    assert_eq!(j.spec.blocks, vec![b(4096, 33), b(8192, 33), b(16384, 34)]);
    assert!(j.notes.iter().any(|n| n.contains("add up to 99%")));
    let j =
        &parse("[j]\nfilename=f\nrw=write\nbs=8k,64k\nsync=dsync\nfsync=4\nrandom_distribution=zipf:1.2\n").unwrap()[0];
    assert_eq!((j.spec.blocks[0].size, j.spec.write_through, j.spec.fsync_every), (65536, true, 4));
    assert_eq!(j.spec.random_dist, RandomDist::Zipf { theta: 1.2 });
    let text = "[j]\nfilename=a:b\\:c\nsize=2m\noffset=1m\nrate_iops=500\nnumjobs=3\nramp_time=500ms\nzero_buffers\nkb_base=1000\n";
    let j = &parse(text).unwrap()[2];
    assert_eq!(j.spec.targets, vec!["a", "b:c"]);
    assert_eq!((j.spec.size, j.spec.range, j.spec.offset), (2_000_000, Some(1_000_000), 1_000_000));
    assert_eq!((j.spec.rate_iops, j.spec.warmup, &j.spec.data), (Some(500.0), 0.5, &DataPattern::Zero));
    // With group_reporting the clones are one job's threads, and its rate theirs together.
    let j = &parse(&format!("{text}group_reporting\n")).unwrap()[0];
    assert_eq!((j.spec.threads, j.spec.rate_iops), (3, Some(1500.0)));
    let jobs = parse("[j]\ndirectory=/a:/b\nnumjobs=4\nsize=1g\nbuffer_compress_percentage=60\n").unwrap();
    let dirs: Vec<_> = jobs.iter().map(|j| (j.spec.targets[0].as_str(), j.spec.threads)).collect();
    assert_eq!(dirs, [("/a/j.0.0", 1), ("/b/j.1.0", 1), ("/a/j.2.0", 1), ("/b/j.3.0", 1)]);
    assert_eq!(jobs[0].spec.data, DataPattern::Compress { pct: 60 });
}

#[test]
fn unsupported_options_and_values_are_named() {
    let cases = [
        ("verify_bogus=md5", "'verify_bogus'"),
        ("rw=randwalk", "rw: 'randwalk' is not one of fio's read, write, rw, trim, trimwrite and their rand forms"),
        ("flow=1001", "flow: '1001' is not a weight from 0 to 1000"),
        ("rw=randread:8", "rw: 'randread:8'"),
        ("ioengine=rbd", "ioengine=rbd: iolens has no rbd engine"),
        ("ioengine=external:/x.so", "iolens has no external:/x.so engine"),
        ("buffer_pattern=0xZZ", "buffer_pattern: '0xZZ'"),
        ("exit_what=some", "exit_what: 'some'"),
        ("wait_for=nobody", "wait_for: no job named 'nobody'"),
        ("random_distribution=normal:5", "random_distribution: 'normal:5'"),
        ("bs=1.5k", "bs: '1.5k'"),
        ("runtime=10sec", "runtime: '10sec'"),
        ("rw=randrw\nba=4k,8k", "ba: reads use 4096 and writes 8192"),
        ("rw=rw\nrate=1m,", "rate: capping only reads"),
        ("filename=-", "filename: '-'"),
        ("direct", "direct: needs a value"),
        ("iodepth=0", "iodepth: 0 is out of range"),
    ];
    for (opt, want) in cases {
        let text = format!("[global]\nsize=1m\n[j]\nfilename=f\n{opt}\n");
        let e = parse(&text).unwrap_err();
        assert!(e.to_string().contains(want), "{opt}: {e}");
        assert_eq!(e.option, "[j]", "{opt}");
    }
    let e = parse("[j]\nrw=read\n").unwrap_err().to_string();
    assert_eq!(e, "[j]: size: fio needs size= (or filesize=) when it creates the files");
    assert!(parse_args(&args("--name=j --size=1m --verifyx=crc32")).unwrap_err().to_string().contains("'verifyx'"));
    assert!(parse_args(&args("-v")).is_err());
}

#[test]
fn workload_shaping_options_reach_the_spec() {
    let j = &parse(
        "[j]\nfilename=f\nsize=1m\nnumjobs=4\nthinktime=2ms\nthinktime_blocks=8\nthinktime_spin=500\n\
         startdelay=2-5\noffset_increment=1m\nio_limit=64m\nnumber_ios=100\nrate_iops=100\n\
         rate_process=poisson\ncontinue_on_error=io\nignore_error=EIO:ENODATA,ENOSPC:122\n",
    )
    .unwrap()[3];
    let s = &j.spec;
    assert_eq!(s.think, Some(ThinkTime { us: 2000, spin_us: 500, blocks: 8, iotime_us: 0, on_issue: false }));
    assert_eq!((s.start_delay.min, s.start_delay.max), (2.0, 5.0));
    // Clone 3 starts 3 MiB in, so the file holds it and its 1 MiB.
    assert_eq!((s.offset, s.size, s.range), (3 << 20, 4 << 20, Some(1 << 20)));
    assert_eq!((s.io_limit, s.number_ios, s.rate_process), (Some(64 << 20), Some(100), RateProcess::Poisson));
    assert_eq!(s.on_error.go_on, [true, true]);
    assert_eq!(s.on_error.errors, [vec!["EIO".to_string(), "ENODATA".into()], vec!["ENOSPC".into(), "122".into()]]);
    assert!(
        !j.notes.iter().any(|n| [
            "thinktime",
            "startdelay",
            "offset_increment",
            "io_size",
            "number_ios",
            "rate_process",
            "continue_on_error",
            "ignore_error"
        ]
        .iter()
        .any(|o| n.starts_with(o))),
        "{:?}",
        j.notes
    );
    // thinktime_iotime alone: time decides; time_based: the runtime decides, not the limits.
    let j = &parse("[j]\nfilename=f\nsize=1m\nthinktime=1s\nthinktime_iotime=2\nruntime=5\ntime_based\nnumber_ios=9\n")
        .unwrap()[0];
    assert_eq!(
        j.spec.think,
        Some(ThinkTime { us: 1_000_000, spin_us: 0, blocks: 0, iotime_us: 2_000_000, on_issue: false })
    );
    assert_eq!((j.spec.number_ios, j.spec.io_limit), (None, None));
    let j = &parse("[j]\nfilename=f\nsize=1m\nthinktime=5\nthinktime_blocks_type=issue\n").unwrap()[0];
    assert!(j.spec.think.unwrap().on_issue);
    let j = &parse("[j]\nfilename=f\nsize=1m\nrate_min=1m\nrate_cycle=1500\n").unwrap()[0];
    assert_eq!(j.spec.min_rate.unwrap().cycle_ms, 2000);
    assert!(j.notes.iter().any(|n| n.starts_with("rate_cycle=1500: iolens checks rate_min over whole seconds")));
    for (opt, want) in [
        ("continue_on_error=sometimes", "continue_on_error: 'sometimes' is not none, read, write, io, verify or all"),
        ("ignore_error=EWHAT", "ignore_error: 'EWHAT' is not an error number or one of EPERM"),
        ("rate_process=bursty", "rate_process: 'bursty' is not linear or poisson"),
        ("startdelay=5-2", "startdelay: '5-2': the range must go from low to high"),
        ("thinktime=10\nthinktime_spin=20", "thinktime_spin: 20 µs is longer than the thinktime (10 µs)"),
        ("rate_process=poisson", "rate_process: poisson spaces paced I/Os"),
        ("number_ios=0", "number_ios: must be at least 1"),
    ] {
        let e = parse(&format!("[j]\nfilename=f\nsize=1m\n{opt}\n")).unwrap_err().to_string();
        assert!(e.starts_with(&format!("[j]: {want}")), "{opt}: {e}");
    }
}

#[test]
fn options_that_change_the_run_are_applied() {
    // rate_min / ratemin: a minimum per worker and direction, checked against what it did.
    let j = &parse("[j]\nfilename=f\nsize=1m\nrw=randrw\nratemin=1m,2k\nrate_iops_min=100\n").unwrap()[0];
    let m = j.spec.min_rate.unwrap();
    assert_eq!((m.bytes, m.iops, m.cycle_ms), ([1 << 20, 2048], [100, 100], 1000));
    assert_eq!(m.shortfall([2 << 20, 4096], [200, 200], 1.0, 50), None);
    let why = m.shortfall([1 << 19, 4096], [200, 200], 1.0, 50).unwrap();
    assert_eq!(why, "read rate_min=1048576B/s not met, only 524288B/s");
    assert!(m.shortfall([2 << 20, 4096], [200, 50], 1.0, 50).unwrap().contains("write rate_iops_min=100"));
    assert_eq!(m.shortfall([0, 4096], [0, 200], 1.0, 0), None, "reads are not checked in a write job");
    // Reads and writes with their own block sizes.
    let j = &parse("[j]\nfilename=f\nsize=1m\nrw=randrw\nbssplit=64k/40:1m/60,1m/100\n").unwrap()[0];
    let b = |size, pct| BlockShare { size, pct };
    assert_eq!(
        (j.spec.blocks.clone(), j.spec.write_blocks.clone()),
        (vec![b(65536, 40), b(1 << 20, 60)], Some(vec![b(1 << 20, 100)]))
    );
    assert_eq!(j.spec.mean_block(), 0.5 * (0.4 * 65536.0 + 0.6 * 1048576.0) + 0.5 * 1048576.0);
    let j = &parse("[j]\nfilename=f\nsize=1m\nrw=randwrite\nbs=4k,8k\n").unwrap()[0];
    assert_eq!((j.spec.blocks.clone(), j.spec.write_blocks.clone()), (vec![b(8192, 100)], None));
    // buffer_pattern: what written buffers hold.
    let j = &parse("[j]\nfilename=f\nsize=1m\nbuffer_pattern=0xdeadbeef|\"ab\"|7\n").unwrap()[0];
    let DataPattern::Repeat { bytes, len } = &j.spec.data else { panic!("{:?}", j.spec.data) };
    assert_eq!(&bytes[..*len as usize], &[0xde, 0xad, 0xbe, 0xef, b'a', b'b', 7]);
    // exitall: the group stops when its job with exitall ends; later groups keep their runtime.
    let jobs =
        parse("[global]\nfilename=f\nsize=1m\n[a]\nruntime=3\nexitall\n[b]\nruntime=9\n[c]\nstonewall\nruntime=7\n")
            .unwrap();
    assert_eq!(jobs.iter().map(|j| j.spec.duration).collect::<Vec<_>>(), [3.0, 3.0, 7.0]);
    assert!(jobs[1].notes.iter().any(|n| n.starts_with("exitall: stopped after 3 s")));
    // filename_format: each clone its own file; a name without $jobnum is shared.
    let jobs = parse("[w]\ndirectory=/d\nfilename_format=$jobname.$jobnum.$filenum\nnumjobs=3\nsize=4m\n").unwrap();
    let files: Vec<_> = jobs.iter().map(|j| (j.spec.targets.clone(), j.spec.threads, j.spec.size)).collect();
    assert_eq!(files, (0..3).map(|k| (vec![format!("/d/w.{k}.0")], 1, 4 << 20)).collect::<Vec<_>>());
    let jobs = parse("[w]\nfilename_format=shared.$filenum\nnumjobs=2\nsize=4m\n").unwrap();
    assert!(jobs.iter().all(|j| j.spec.targets == ["shared.0"] && j.spec.threads == 1) && jobs.len() == 2);
    // No filename: fio's names, JOBNAME.0.N, nrfiles of them sharing the job's size.
    let j = &parse("[v]\ndirectory=/d/\nnrfiles=3\nsize=3m\n").unwrap()[0];
    assert_eq!(
        (j.spec.targets.clone(), j.spec.size),
        (vec!["/d/v.0.0".into(), "/d/v.0.1".into(), "/d/v.0.2".into()], 1 << 20)
    );
    assert_eq!(parse("[v]\nfilesize=1m\n").unwrap()[0].spec.targets, vec!["./v.0.0"]);
    // allow_file_create, wait_for, rw offset modifiers, zoned, engines and notes.
    let jobs = parse(
        "[global]\nfilename=f\nsize=1m\n[a]\nallow_file_create=0\nrw=read:-8k\n[b]\nwait_for=a\n\
         rw=randread\nrandom_distribution=zoned:60/10:40/\nioengine=posixaio\ncontinue_on_error=all\n\
         random_generator=lfsr\ncreate_on_open=1\nverify=crc32c\nio_submit_mode=offload\n",
    )
    .unwrap();
    assert_eq!((jobs[0].allow_file_create, jobs[1].allow_file_create), (false, true));
    assert_eq!((jobs[0].spec.seq_skip, jobs[0].spec.pattern), (-8192, Pattern::Sequential));
    assert_eq!((jobs[0].group, jobs[1].group), (0, 1), "wait_for a running job starts after it");
    let mut io = [0u8; 16];
    io[..2].copy_from_slice(&[60, 40]);
    let mut range = [0u8; 16];
    range[..2].copy_from_slice(&[10, 90]);
    assert_eq!(jobs[1].spec.random_dist, RandomDist::Zoned { io, range, n: 2 });
    assert_eq!(jobs[1].spec.engine, EngineKind::IoUring);
    assert_eq!(jobs[1].spec.on_error.go_on, [true, true]);
    assert!(jobs[1].spec.random_map && !jobs[0].spec.random_map, "random map for randread, none for read");
    for word in [
        "ioengine=posixaio",
        "create_on_open=1",
        "verify=crc32c: iolens checks its own CRC-32C stamps",
        "io_submit_mode=offload",
    ] {
        assert!(jobs[1].notes.iter().any(|n| n.starts_with(word)), "{word}: {:?}", jobs[1].notes);
    }
    let quiet =
        parse("[j]\nfilename=f\nsize=1m\nverify=0\nrandom_generator=tausworthe\ndescription=x y\nunlink=1\n").unwrap();
    assert!(!quiet[0]
        .notes
        .iter()
        .any(|n| n.contains("verify") || n.contains("random_generator") || n.contains("unlink")));
    // size=N%: a share of existing targets, worked out once their sizes are known.
    assert_eq!(parse("[j]\nfilename=f\nsize=50%\n").unwrap()[0].size_pct, Some(50));
    let e = parse("[j]\nsize=50%\n").unwrap_err();
    assert!(e.to_string().contains("a percentage is a share of existing files or devices"), "{e}");
    let e = parse("[j]\nfilename=f\nsize=1m\nrandom_distribution=zoned:50/5:30/15\n").unwrap_err();
    assert!(e.to_string().contains("the I/O shares add up to 80% and the ranges to 20%"), "{e}");
}

/// Local-storage examples iolens cannot run, each with the reason.
#[cfg(unix)]
const CANNOT: &[(&str, &str)] = &[
    // Its punch_hole job issues trims (rw=randtrim); iolens reads and writes only.
    ("enospc-pressure.fio", "trims"),
    ("filecreate-ioengine.fio", "31,250 files a job: iolens opens a handle per file, 1,024 at most"),
];

/// fio's own examples (Debian's fio-examples package, or $FIO_EXAMPLES): each local-storage
/// example parses; each one for an engine iolens lacks is refused in one line naming it.
#[cfg(unix)]
#[test]
fn fio_examples_parse_or_name_the_engine() {
    let dir =
        std::env::var_os("FIO_EXAMPLES").map_or_else(|| "/usr/share/doc/fio/examples".into(), std::path::PathBuf::from);
    let privileged = crate::testing::Privileged::new();
    let found = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()));
    let Some(entries) = privileged.need("fio's examples (fio-examples, or FIO_EXAMPLES)", found) else { return };
    let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "fio"));
    files.sort();
    // The xnvme examples take their pattern from the environment (fio refuses them without it).
    let env = |v: &str| match v {
        "FIO_RW" => Some("randread".to_string()),
        "FIO_IODEPTH" => Some("4".to_string()),
        "FIO_BS" => Some("4k".to_string()),
        v => std::env::var(v).ok(),
    };
    let (mut parsed, mut engines, mut other) = (Vec::new(), Vec::new(), Vec::new());
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(f).unwrap();
        match parse_job_text(&text, &dir, &env) {
            Ok(jobs) => {
                assert!(!jobs.is_empty(), "{name}");
                parsed.push(name);
            }
            Err(e) => {
                let msg = e.message.clone();
                assert!(!msg.contains('\n') && !msg.is_empty(), "{name}: {e}");
                // The engine named is one the file asks for.
                let named = msg.strip_prefix("ioengine=").and_then(|m| m.split(':').next());
                match named.filter(|n| text.contains(&format!("ioengine={n}"))) {
                    Some(n) if msg.contains(&format!("iolens has no {n} engine")) => {
                        engines.push((name, n.to_string()))
                    }
                    _ => other.push((name, e.to_string())),
                }
            }
        }
    }
    assert!(files.len() >= 50, "only {} example files in {}", files.len(), dir.display());
    eprintln!("fio examples: {} of {} parsed, {} refused for their engine", parsed.len(), files.len(), engines.len());
    let mut by_engine = std::collections::BTreeMap::<&str, Vec<&str>>::new();
    for (f, e) in &engines {
        by_engine.entry(e).or_default().push(f);
    }
    for (e, fs) in &by_engine {
        eprintln!("  engine {e}: {}", fs.join(", "));
    }
    for (f, e) in &other {
        eprintln!("  other: {f}: {e}");
    }
    let unexpected: Vec<_> = other.iter().filter(|(f, _)| !CANNOT.iter().any(|(c, _)| c == f)).collect();
    assert!(unexpected.is_empty(), "local-storage examples that do not parse: {unexpected:?}");
}

#[test]
fn engines_and_hints_of_windows_jobs() {
    use crate::workload::{AccessHint, EngineKind};
    let j = &parse("[j]\nfilename=f\nioengine=windowsaio\nfadvise_hint=sequential\n").unwrap()[0];
    assert_eq!((j.spec.engine, j.spec.hint), (EngineKind::Iocp, AccessHint::Sequential));
    let j = &parse("[j]\nfilename=f\nfadvise_hint=random\n").unwrap()[0];
    assert_eq!(j.spec.hint, AccessHint::Random);
    let e = parse("[j]\nfilename=f\nfadvise_hint=later\n").unwrap_err();
    assert!(e.to_string().contains("fadvise_hint=later: use 0, 1, normal, random or sequential"), "{e}");
}

#[test]
fn strided_zones_reach_the_spec() {
    let j = &parse("[j]\nfilename=f\nsize=1m\nzonemode=strided\nzonesize=64k\nzoneskip=4k\n").unwrap()[0];
    assert_eq!(j.spec.strided, Some(crate::workload::Strided { range: 64 << 10, size: 64 << 10, skip: 4 << 10 }));
    let e = parse("[j]\nfilename=f\nsize=1m\nzonemode=zones\n").unwrap_err().to_string();
    assert!(e.contains("zonemode") && e.contains("'zones'"), "{e}");
    let zbd = &parse("[j]\nfilename=f\nsize=1m\nzonemode=zbd\n").unwrap()[0];
    assert!(zbd.spec.strided.is_none() && zbd.notes.iter().any(|n| n.contains("zbd")), "{:?}", zbd.notes);
    assert!(parse("[j]\nfilename=f\nsize=1m\nzonemode=strided\n").unwrap_err().to_string().contains("zonesize"));
}

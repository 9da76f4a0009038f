//! fio's job semantics checked through the binary with job files and fio's own iolog: the
//! random seed (randrepeat, allrandrepeat, randseed), a job spread over several files (nrfiles,
//! filename lists, file_service_type) and the data patterns of written blocks.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use std::path::Path;

/// Runs `iolens fio` on `job` in `dir`: (exit code, stderr).
fn fio(dir: &Path, job: &str) -> (i32, String) {
    std::fs::write(dir.join("job.fio"), job).unwrap();
    let (code, _, err) = parts(&bin().current_dir(dir).args(["fio", "--no-store", "job.fio"]).output().unwrap());
    (code, err)
}

/// fio's iolog lines of I/O in `dir/IOLOG` (file, action, offset, length), the file removed.
fn iolog(dir: &Path) -> Vec<(String, String, u64, u64)> {
    let text = std::fs::read_to_string(dir.join("IOLOG")).unwrap();
    std::fs::remove_file(dir.join("IOLOG")).unwrap();
    text.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 5).then(|| (f[1].to_string(), f[2].to_string(), f[3].parse().unwrap(), f[4].parse().unwrap()))
        })
        .collect()
}

#[test]
fn randrepeat_0_draws_a_new_sequence_each_run_unless_a_seed_pins_it() {
    let dir = tempfile::tempdir().unwrap();
    let runs = |opts: &str| -> Vec<Vec<u64>> {
        let job =
            format!("[j]\nioengine=null\nfilename=x\nsize=1g\nrw=randread\nnumber_ios=64\nwrite_iolog=IOLOG\n{opts}\n");
        (0..2)
            .map(|_| {
                let (code, err) = fio(dir.path(), &job);
                assert_eq!(code, 0, "{err}");
                iolog(dir.path()).into_iter().map(|l| l.2).collect()
            })
            .collect()
    };
    // allrandrepeat is randrepeat's alias (fio's options.c): the last one written counts.
    for free in ["randrepeat=0", "allrandrepeat=0", "randrepeat=1\nallrandrepeat=0"] {
        let a = runs(free);
        assert_eq!((a[0].len(), a[1].len()), (64, 64));
        assert_ne!(a[0], a[1], "{free:?} repeated its offsets");
    }
    for pinned in ["", "randrepeat=1", "randrepeat=0\nrandseed=1234", "randrepeat=0\nallrandrepeat=1"] {
        let b = runs(pinned);
        assert_eq!(b[0], b[1], "{pinned:?} did not repeat");
    }
}

#[test]
fn debug_random_names_each_threads_seed_ahead_of_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The seeds fio's t/random_seed.py collects: the same for the same randseed, run after run,
    // others for another randseed or none, fresh each run under randrepeat=0.
    let seeds = |opts: &[&str]| -> Vec<u64> {
        let args = ["fio", "--no-store", "--debug=random", "--name=r", "--ioengine=null", "--filesize=32k"];
        let mut cmd = bin();
        cmd.current_dir(d).args(args).args(["--rw=randread", "--numjobs=2", "--output=o"]).args(opts);
        let (code, _, err) = parts(&cmd.output().unwrap());
        assert_eq!(code, 0, "{err}");
        let text = std::fs::read_to_string(d.join("o")).unwrap();
        assert!(text.contains("== r =="), "the report follows the debug lines: {text}");
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("random ")).collect();
        assert_eq!(lines.iter().filter(|l| l.ends_with("FIO_RAND_NR_OFFS=1")).count(), 2, "{lines:?}");
        lines
            .iter()
            .filter(|l| l.contains("rand_seeds[0]="))
            .map(|l| l.rsplit('=').next().unwrap().parse().unwrap())
            .collect()
    };
    // The first clone's seed is randseed; the second's is set apart from it (as fio's, by its
    // thread number), so the two do not draw the same offsets.
    let a = seeds(&["--randseed=12345"]);
    assert_eq!((a[0], a.len()), (12345, 2));
    assert_ne!(a[1], a[0]);
    assert_eq!(seeds(&["--randseed=12345"]), a);
    assert_eq!(seeds(&["--randseed=67890"])[0], 67890);
    let default = seeds(&[]);
    assert_eq!(seeds(&[]), default);
    assert!(!default.contains(&12345) && !default.contains(&67890));
    assert_ne!(seeds(&["--randrepeat=0"]), seeds(&["--randrepeat=0"]));
}

/// The file and offset of each read or write in an iolog.
fn walk(log: &[(String, String, u64, u64)]) -> Vec<(String, u64)> {
    log.iter().filter(|l| l.1 == "read" || l.1 == "write").map(|l| (l.0.clone(), l.2)).collect()
}

#[test]
fn nrfiles_makes_files_of_size_over_nrfiles_served_in_turn() {
    let dir = tempfile::tempdir().unwrap();
    let at = |f: &str, k: u64| (f.to_string(), k << 18);
    // fio 3.33: j.0.0, j.0.1 and j.0.2 of 1 MiB, four 256k writes each, one file after the other.
    let job = "[j]\nnrfiles=3\nsize=3m\nrw=write\nbs=256k\nwrite_iolog=IOLOG\n";
    let (code, err) = fio(dir.path(), job);
    assert_eq!(code, 0, "{err}");
    for f in ["j.0.0", "j.0.1", "j.0.2"] {
        assert_eq!(std::fs::metadata(dir.path().join(f)).unwrap().len(), 1 << 20, "{f}");
    }
    let log = walk(&iolog(dir.path()));
    let rr: Vec<_> = (0..4).flat_map(|k| ["j.0.0", "j.0.1", "j.0.2"].map(|f| at(f, k))).collect();
    assert_eq!(log, rr);
    // file_service_type=sequential: each file to its end, then the next; roundrobin:2 takes two
    // I/Os per turn.
    let (code, err) = fio(dir.path(), &format!("{job}file_service_type=sequential\n"));
    assert_eq!(code, 0, "{err}");
    let seq: Vec<_> = ["j.0.0", "j.0.1", "j.0.2"].iter().flat_map(|f| (0..4).map(|k| at(f, k))).collect();
    assert_eq!(walk(&iolog(dir.path())), seq);
    let (code, err) = fio(dir.path(), &format!("{job}file_service_type=roundrobin:2\n"));
    assert_eq!(code, 0, "{err}");
    let pairs: Vec<_> =
        (0..2).flat_map(|p| ["j.0.0", "j.0.1", "j.0.2"].map(|f| [at(f, 2 * p), at(f, 2 * p + 1)])).flatten().collect();
    assert_eq!(walk(&iolog(dir.path())), pairs);
}

#[test]
fn random_file_service_and_filename_lists_share_a_clones_io_over_its_files() {
    let dir = tempfile::tempdir().unwrap();
    // Random files, random offsets, the random map: every block of every file once.
    let job = "[j]\nnrfiles=3\nsize=3m\nrw=randwrite\nbs=64k\nfile_service_type=random\nwrite_iolog=IOLOG\n";
    let (code, err) = fio(dir.path(), job);
    assert_eq!(code, 0, "{err}");
    let mut log = walk(&iolog(dir.path()));
    assert_ne!(log[..3].iter().map(|l| &l.0).collect::<Vec<_>>(), ["j.0.0", "j.0.1", "j.0.2"], "not drawn: {log:?}");
    log.sort();
    let all: Vec<_> =
        ["j.0.0", "j.0.1", "j.0.2"].iter().flat_map(|f| (0..16).map(|k| (f.to_string(), k << 16))).collect();
    assert_eq!(log, all);
    // A list of names with numjobs=2: both clones read both files, 2 MiB over 2 files each.
    let job = "[j]\nfilename=a:b\nsize=2m\nrw=read\nbs=256k\nnumjobs=2\nwrite_iolog=IOLOG\n";
    let (code, err) = fio(dir.path(), job);
    assert_eq!(code, 0, "{err}");
    let log = walk(&iolog(dir.path()));
    let count = |f: &str| log.iter().filter(|l| l.0 == f).count();
    assert_eq!((count("a"), count("b"), log.len()), (8, 8, 16), "{log:?}");
    assert_eq!(std::fs::metadata(dir.path().join("a")).unwrap().len(), 1 << 20);
    // What cannot be done is said in one line naming the option.
    let (code, err) = fio(dir.path(), "[j]\nnrfiles=2\nsize=2m\nfilename_format=f.$jobnum\n");
    assert_eq!((code, err.trim()), (2, "error: job.fio:2: [j] nrfiles: 2 files need $filenum in filename_format"));
    let (code, err) = fio(dir.path(), "[j]\nnrfiles=2\nsize=2m\nfile_service_type=next\n");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("file_service_type: 'next' is not roundrobin, sequential, random"), "{err}");
}

#[test]
fn buffer_pattern_in_fios_syntax_fills_each_block_as_fio_does() {
    let dir = tempfile::tempdir().unwrap();
    // fio writes these very bytes: each 4k block starts the pattern afresh; a pattern file gives
    // its bytes (fio 3.33 took the first 512, later fios take up to 128 MiB, iolens 1 MiB).
    let pat: Vec<u8> = (0..600u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(dir.path().join("pat"), &pat).unwrap();
    let cases: [(&str, Vec<u8>); 3] = [
        ("\"abcd\"-120xdeadface", vec![0x61, 0x62, 0x63, 0x64, 0xf4, 0xff, 0xff, 0xff, 0xde, 0xad, 0xfa, 0xce]),
        ("0x01\"xy\"300", vec![0x01, b'x', b'y', 0x2c, 0x01]),
        ("'pat'", pat.clone()),
    ];
    for (p, unit) in cases {
        let (code, err) =
            fio(dir.path(), &format!("[w]\nfilename=tf\nsize=16k\nbs=4k\nrw=write\nbuffer_pattern={p}\n"));
        assert_eq!(code, 0, "{p}: {err}");
        let data = std::fs::read(dir.path().join("tf")).unwrap();
        std::fs::remove_file(dir.path().join("tf")).unwrap();
        let block: Vec<u8> = unit.iter().copied().cycle().take(4096).collect();
        assert_eq!(data, block.repeat(4), "{p}");
    }
    // fio's buffer_pattern has no %o (verify_pattern has): one line, exit 2, no file.
    let (code, err) = fio(dir.path(), "[w]\nfilename=tf\nsize=16k\nrw=write\nbuffer_pattern=%o\n");
    assert_eq!(
        (code, err.trim()),
        (2, "error: job.fio:5: [w] buffer_pattern: '%o' is not \"text\", 0xHEX, a number or 'file'")
    );
    assert!(!dir.path().join("tf").exists());
}

#[test]
fn bandwidth_log_writes_fios_aggregate_logs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("job.fio"), "[t]\nioengine=null\nfilesize=1T\nrw=read\ntime_based\nruntime=3s\n")
        .unwrap();
    let run = |extra: &[&str]| {
        let mut cmd = bin();
        cmd.current_dir(dir.path()).args(["fio", "--no-store", "--bandwidth-log"]).args(extra).arg("job.fio");
        let (code, _, err) = parts(&cmd.output().unwrap());
        assert_eq!(code, 0, "{err}");
        ["read", "write", "trim"].map(|d| std::fs::read_to_string(dir.path().join(format!("agg-{d}_bw.log"))).unwrap())
    };
    // As fio 3.33 with stdout no terminal: the files are made, and empty (fio's t0030).
    assert_eq!(run(&[]), ["", "", ""]);
    // With the ETA shown, a line a second per direction: msec, KiB/s, direction, 0, 0.
    let logs = run(&["--eta=always"]);
    for (d, log) in logs.iter().enumerate() {
        let lines: Vec<Vec<u64>> = log.lines().map(|l| l.split(", ").map(|f| f.parse().unwrap()).collect()).collect();
        assert!((2..=3).contains(&lines.len()), "{log}");
        assert!(lines.windows(2).all(|w| w[0][0] < w[1][0]), "{log}");
        for l in &lines {
            assert_eq!((l.len(), l[2], l[3], l[4]), (5, d as u64, 0, 0), "{log}");
            assert_eq!(l[1] > 0, d == 0, "{log}");
        }
    }
}

#[test]
fn job_file_errors_name_the_file_and_line_of_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bad_bs = "error: job.fio:6: [j] bs: '4x' is not a number iolens reads (whole numbers with k/m/g/t/p, e.g. 4k, 10g, 0x1000)";
    // A global option is placed at its own line; a job's at its line; comments and blank lines
    // count as fio counts them.
    let cases = [
        ("[global]\nsize=1m\n; a comment\n\n[j]\nbs=4x\nfilename=f\n", bad_bs.to_string()),
        ("[global]\nkb_base=999\n[j]\nfilename=f\n", "error: job.fio:2: [j] kb_base: '999' is not 1000 or 1024".into()),
        (
            "[j]\nfilename=f\nsize=1m\nfoo=1\n",
            "error: job.fio:4: [j]: fio option 'foo' is not supported by iolens".into(),
        ),
        (
            "[a]\nfilename=f\nsize=1m\n[b]\nfilename=g\nsize=1m\nwait_for=c\n",
            "error: job.fio:7: [b] wait_for: no job named 'c' comes before this one".into(),
        ),
        // An error of the job as a whole that no option of it names: the [section] line.
        (
            "# size is missing\n[j]\nrw=read\n",
            "error: job.fio:2: [j]: size: fio needs size= (or filesize=) when it creates the files".into(),
        ),
        ("rw=read\n[j]\n", "error: job.fio:1: job file: 'rw=read' is outside any [section]".into()),
    ];
    for (job, want) in cases {
        let (code, err) = fio(d, job);
        assert_eq!((code, err.trim()), (2, want.as_str()), "{job}");
    }
    // An include is named with its own line; the include line itself when it cannot be read.
    std::fs::write(d.join("inc.fio"), "rw=read\n\nbs=4x\n").unwrap();
    let (code, err) = fio(d, "[j]\nfilename=f\nsize=1m\ninclude inc.fio\n");
    let want = "error: inc.fio:3: [j] bs: '4x' is not a number iolens reads (whole numbers with k/m/g/t/p, e.g. 4k, 10g, 0x1000)";
    assert_eq!((code, err.trim()), (2, want));
    let (code, err) = fio(d, "[j]\nfilename=f\nsize=1m\ninclude nope.fio\n");
    assert_eq!(code, 2);
    assert!(err.trim().starts_with("error: job.fio:4: include: nope.fio: cannot be read:"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // The command line has no lines: the job and the option as before.
    let (code, _, err) = parts(
        &bin().current_dir(d).args(["fio", "--no-store", "--name=j", "--filename=f", "--bs=4x"]).output().unwrap(),
    );
    assert_eq!(
        (code, err.trim()),
        (2, "error: [j]: bs: '4x' is not a number iolens reads (whole numbers with k/m/g/t/p, e.g. 4k, 10g, 0x1000)")
    );
    // No error touched a file.
    assert!(!d.join("f").exists() && !d.join("g").exists());
}

/// The lines of a fio log in `dir`, split at its commas.
fn log_rows(dir: &Path, name: &str) -> Vec<Vec<u64>> {
    let text = std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    text.lines().map(|l| l.split(',').map(|v| v.trim().parse().unwrap()).collect()).collect()
}

#[test]
fn write_hist_log_bins_each_windows_completions_in_fios_layout() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let job = "[h]\nfilename=f\nsize=4m\nrw=randread\nrate_iops=1000\nruntime=1\ntime_based\n\
               write_hist_log=h\nlog_hist_msec=100\nlog_hist_coarseness=2\n";
    // With a lat log of its own the histogram is binned from the same samples, and it stays.
    let (code, err) = fio(d, &format!("{job}write_lat_log=l\n"));
    assert_eq!(code, 0, "{err}");
    let (hist, clat) = (log_rows(d, "h_clat_hist.1.log"), log_rows(d, "l_clat.1.log"));
    assert!(hist.len() >= 5, "a line per 100 ms of a 1 s run: {}", hist.len());
    // time, direction (read), block size, then fio's 1856 bins summed in fours.
    assert!(hist.iter().all(|r| r.len() == 3 + 464 && r[1] == 0 && r[2] == 4096));
    let times: Vec<u64> = hist.iter().map(|r| r[0]).collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    // Every completion up to the last line's is in exactly one line; the ones after it are
    // in none (fio writes no partial window).
    let binned: u64 = hist.iter().map(|r| r[3..].iter().sum::<u64>()).sum();
    let last = *times.last().unwrap();
    let before = clat.iter().filter(|r| r[0] < last).count() as u64;
    let upto = clat.iter().filter(|r| r[0] <= last).count() as u64;
    assert!(before < binned && binned <= upto, "{binned} binned, {before} before and {upto} up to {last} ms");
    // Without one, the lat log made for the bins is gone after the run.
    let (code, err) = fio(d, job);
    assert_eq!(code, 0, "{err}");
    assert!(log_rows(d, "h_clat_hist.1.log").len() >= 5);
    let left: Vec<String> = entries(d).into_iter().filter(|n| n.contains("iolens-hist")).collect();
    assert_eq!(left, Vec::<String>::new());
    // Averaged samples cannot be binned: one line, exit 2.
    let (code, err) = fio(d, &format!("{job}write_lat_log=l\nlog_avg_msec=50\n"));
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        "error: job.fio:8: [h] write_hist_log: iolens bins the per-I/O clat samples of the job's lat log; leave out log_avg_msec and log_store_compressed"
    );
    // fio's own reader of these logs takes them, and counts every binned completion.
    let p = Privileged::new();
    // Debian's fio package ships it gzipped among its docs.
    let gz = Path::new("/usr/share/doc/fio/fio-histo-log-pctiles.py.gz");
    let tool = d.join("fio-histo-log-pctiles.py");
    let have = std::process::Command::new("gzip")
        .arg("-dc")
        .arg(gz)
        .output()
        .ok()
        .filter(|o| o.status.success() && std::fs::write(&tool, &o.stdout).is_ok())
        .map(|_| ())
        .ok_or("install Debian's fio, which ships /usr/share/doc/fio/fio-histo-log-pctiles.py.gz");
    if p.need("fio's fio-histo-log-pctiles.py", have).is_none() {
        return;
    }
    let out = std::process::Command::new("python3")
        .arg(&tool)
        .args(["--bucket-bits=4", "h_clat_hist.1.log"])
        .current_dir(d)
        .output()
        .unwrap();
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stdout} {stderr}");
    let binned: u64 = log_rows(d, "h_clat_hist.1.log").iter().map(|r| r[3..].iter().sum::<u64>()).sum();
    let counted: u64 = stdout.lines().filter_map(|l| l.split(',').nth(1)?.trim().parse::<u64>().ok()).sum();
    assert_eq!(counted, binned, "{stdout}");
}

#[test]
fn each_jobs_thread_table_names_its_own_file() {
    let dir = tempfile::tempdir().unwrap();
    let job = "[global]\nsize=1m\nruntime=1\ntime_based\n[oltp]\nrw=randread\nbs=8k\n[log]\nrw=write\nbs=64k\n";
    std::fs::write(dir.path().join("two.fio"), job).unwrap();
    let out = bin().current_dir(dir.path()).args(["fio", "two.fio", "--no-store"]).output().unwrap();
    let (code, text, err) = parts(&out);
    assert_eq!(code, 0, "{err}");
    let section =
        |name: &str| text.split(&format!("== {name} ==")).nth(1).unwrap().split("\n== ").next().unwrap().to_string();
    let files = |s: &str| {
        s.lines()
            .filter(|l| l.starts_with("     0 |"))
            .map(|l| l.rsplit("| ").next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let (oltp, log) = (files(&section("oltp")), files(&section("log")));
    assert!(!oltp.is_empty() && oltp.iter().all(|f| f.starts_with("./oltp.0.0")), "{oltp:?}");
    assert!(!log.is_empty() && log.iter().all(|f| f.starts_with("./log.0.0")), "{log:?}");
}

#[test]
fn debug_io_prints_each_completed_io_in_fios_words() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut cmd = bin();
    cmd.current_dir(dir.path()).env("TMPDIR", &tmp).args([
        "fio",
        "--no-store",
        "--debug=io,mutex",
        "--name=t",
        "--ioengine=null",
        "--size=64k",
        "--rw=read",
    ]);
    let (code, out, err) = parts(&cmd.output().unwrap());
    assert_eq!(code, 0, "{err}");
    // As t/t64-switch.sh reads them: the offset follows the first '=', up to the next ','.
    let offs: Vec<u64> = out
        .lines()
        .filter(|l| l.contains("complete:"))
        .map(|l| {
            u64::from_str_radix(l.split('=').nth(1).unwrap().split(',').next().unwrap().trim_start_matches("0x"), 16)
                .unwrap()
        })
        .collect();
    assert_eq!(offs, (0..16).map(|i| i * 4096).collect::<Vec<_>>(), "{out}");
    assert!(out.lines().any(|l| l.ends_with(",len=0x1000,ddir=0,file=./t.0.0")), "{out}");
    assert!(err.contains("--debug=mutex: iolens has no mutex debug lines"), "{err}");
    // The log made for it is gone.
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0);
}

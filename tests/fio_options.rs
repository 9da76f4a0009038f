//! fio options that shape the workload, carried out and checked through the binary with job
//! files: continue_on_error (against real kernel errors), thinktime, startdelay,
//! offset_increment, io_size/number_ios, rate_process, rate_min per rate_cycle and flow.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;
use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `iolens fio JOB --format json` in `dir` with `extra` arguments: (exit code, result, stderr).
fn fio(dir: &Path, job: &str, extra: &[&str]) -> (i32, Value, String) {
    let (code, v, err, _) = fio_cpu(dir, job, extra);
    (code, v, err)
}

/// As `fio`, with the CPU seconds (user + system) the iolens process used.
// The child is reaped by wait4, which Command's own wait cannot replace: it gives no rusage.
#[allow(clippy::zombie_processes)]
fn fio_cpu(dir: &Path, job: &str, extra: &[&str]) -> (i32, Value, String, f64) {
    use std::io::Read;
    let path = dir.join("job.fio");
    std::fs::write(&path, job).unwrap();
    let mut child = bin()
        .current_dir(dir)
        .args(["fio", "--format", "json", "--quiet", "--no-store"])
        .args(extra)
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (mut stdout, mut stderr) = (String::new(), String::new());
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).unwrap();
        s
    });
    child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    stderr.push_str(&reader.join().unwrap());
    // wait4 reports this child's own CPU time, whatever else runs on the machine.
    let (mut status, mut ru) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut ru) };
    assert_eq!(pid, child.id() as i32);
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    (code, serde_json::from_str(&stdout).unwrap_or(Value::Null), stderr, secs(ru.ru_utime) + secs(ru.ru_stime))
}

/// A job's test in a result, by name.
fn named<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["tests"].as_array().unwrap().iter().find(|t| t["name"] == name).unwrap_or_else(|| panic!("no job {name}: {v}"))
}

/// A loop device over a 4 MiB file that is then cut to 1 MiB under it: reads of the first MiB
/// succeed, reads past it fail with EIO from the kernel. With `tmpfs`, the file lives on a
/// 1 MiB tmpfs instead and is not cut: writes past the first MiB fail with ENOSPC.
struct BrokenDisk {
    dev: String,
    mount: Option<PathBuf>,
    _dir: tempfile::TempDir,
    _privileged: Privileged,
}

impl BrokenDisk {
    fn new(tmpfs: bool) -> Option<BrokenDisk> {
        let privileged = Privileged::new();
        privileged.need("root (loop devices)", root())?;
        privileged.need("losetup (util-linux)", program("losetup"))?;
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let mut mount = None;
        if tmpfs {
            let st = Command::new("mount").args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"]).arg(dir.path()).status();
            assert!(st.unwrap().success(), "mounting a 1 MiB tmpfs on {}", dir.path().display());
            mount = Some(dir.path().to_path_buf());
        }
        let backing = dir.path().join("disk.img");
        std::fs::File::create(&backing).unwrap().set_len(4 << 20).unwrap();
        let out = Command::new("losetup").args(["-f", "--show"]).arg(&backing).output().unwrap();
        assert!(out.status.success(), "losetup: {}", String::from_utf8_lossy(&out.stderr));
        let dev = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !tmpfs {
            std::fs::OpenOptions::new().write(true).open(&backing).unwrap().set_len(1 << 20).unwrap();
        }
        Some(BrokenDisk { dev, mount, _dir: dir, _privileged: privileged })
    }
}

impl Drop for BrokenDisk {
    fn drop(&mut self) {
        let _ = Command::new("losetup").args(["-d", &self.dev]).status();
        if let Some(m) = &self.mount {
            let _ = Command::new("umount").arg(m).status();
        }
    }
}

#[test]
fn continue_on_error_counts_real_eio_and_goes_on() {
    let Some(disk) = BrokenDisk::new(false) else { return };
    let dir = tempfile::tempdir().unwrap();
    // 64 sequential 64 KiB reads of the 4 MiB device: the first 16 lie inside the backing file.
    let job = |extra: &str| format!("[r]\nfilename={}\nrw=read\nbs=64k\ndirect=1\nnumber_ios=64\n{extra}", disk.dev);
    let (code, v, err) = fio(dir.path(), &job("continue_on_error=read\n"), &[]);
    assert_eq!(code, 0, "{err}");
    let t = test0(&v);
    assert_eq!((u(&t["read"]["ios"]), u(&t["errors"]["read"]), u(&t["errors"]["write"])), (16, 48, 0), "{t}");
    assert_eq!(t["errors"]["first"], "read failed: Input/output error (os error 5)");
    assert!(t["notices"].to_string().contains("48 failed I/Os passed over (48 reads, 0 writes)"), "{}", t["notices"]);
    // fio's JSON: total_err and first_error, as fio prints them for the same job.
    let out =
        bin().args(["fio", "--output-format=json", "--quiet", "--no-store"]).arg(dir.path().join("job.fio")).output();
    let (code, stdout, err) = parts(&out.unwrap());
    assert_eq!(code, 0, "{err}");
    let fj: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!((u(&fj["jobs"][0]["total_err"]), u(&fj["jobs"][0]["first_error"])), (48, 5));
    // Errors of the other direction, or not on the ignore list, still stop the job.
    for extra in ["continue_on_error=write\n", "continue_on_error=read\nignore_error=EINVAL\n", ""] {
        let (code, _, err) = fio(dir.path(), &job(extra), &[]);
        assert_eq!(code, 1, "{extra}: {err}");
        assert!(err.contains("error: I/O error: read failed: Input/output error"), "{extra}: {err}");
    }
}

#[test]
fn ignore_error_passes_over_enospc_of_writes() {
    let Some(disk) = BrokenDisk::new(true) else { return };
    let dir = tempfile::tempdir().unwrap();
    let job = format!(
        "[w]\nfilename={}\nrw=write\nbs=64k\ndirect=1\nnumber_ios=64\ncontinue_on_error=write\nignore_error=,ENOSPC\n",
        disk.dev
    );
    let (code, v, err) = fio(dir.path(), &job, &["--force-device"]);
    assert_eq!(code, 0, "{err}");
    let t = test0(&v);
    // 1 MiB of tmpfs holds 16 of the 64 KiB writes; the other 48 find no space.
    assert_eq!((u(&t["write"]["ios"]), u(&t["errors"]["write"])), (16, 48), "{t}");
    assert!(t["errors"]["first"].as_str().unwrap().contains("No space left on device"), "{t}");
}

#[test]
fn thinktime_idles_between_ios_without_touching_latency() {
    let dir = tempfile::tempdir().unwrap();
    let job =
        |extra: &str| format!("[t]\nioengine=null\nsize=1m\nrw=randread\niodepth=1\nruntime=2\ntime_based\n{extra}");
    let (code, free, err) = fio(dir.path(), &job(""), &[]);
    assert_eq!(code, 0, "{err}");
    let (code, v, err) = fio(dir.path(), &job("thinktime=10000\n"), &[]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("thinktime"), "no note once carried out: {err}");
    let t = test0(&v);
    // 10 ms after each I/O: a little under 100 IOPS, and the I/Os themselves as fast as ever.
    let iops = f(&t["total"]["iops"]);
    assert!(iops > 80.0 && iops <= 100.0, "thinktime=10000: {iops} IOPS");
    assert!(f(&test0(&free)["total"]["iops"]) > 100.0 * iops, "{} IOPS unthrottled", test0(&free)["total"]["iops"]);
    assert!(f(&t["total"]["lat_us"]["max"]) < 5000.0, "latency includes the pause: {}", t["total"]["lat_us"]);
    // At iodepth=8 fio counts completed I/Os by default: on a disk, all eight are in flight
    // before the first completes, so a pause comes after each burst of eight; counted at
    // issue, one I/O per pause, whatever the depth.
    let disk = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let deep = |extra: &str| {
        format!("[d]\nioengine=io_uring\ndirect=1\nsize=4m\nrw=randread\niodepth=8\nruntime=2\ntime_based\nthinktime=10000\n{extra}")
    };
    let (code, v, err) = fio(disk.path(), &deep(""), &[]);
    assert_eq!(code, 0, "{err}");
    let burst = f(&test0(&v)["total"]["iops"]) / iops;
    let (code, v, err) = fio(disk.path(), &deep("thinktime_blocks_type=issue\n"), &[]);
    assert_eq!(code, 0, "{err}");
    let one = f(&test0(&v)["total"]["iops"]) / iops;
    // Compared with each other as well as with iodepth=1: a busy host stretches every pause of
    // these runs alike, so eight I/Os a pause against one stays apart whatever the pace.
    assert!(
        burst > 4.0 * one && (0.5..1.1).contains(&one),
        "iodepth=8: {burst}× the IOPS of iodepth=1, on issue {one}×"
    );
    // Every 10 I/Os: ten times as many.
    let (code, v, err, idle_cpu) = fio_cpu(dir.path(), &job("thinktime=10ms\nthinktime_blocks=10\n"), &[]);
    assert_eq!(code, 0, "{err}");
    let ratio = f(&test0(&v)["total"]["iops"]) / iops;
    assert!((8.5..11.5).contains(&ratio), "thinktime_blocks=10: {ratio}× the IOPS of blocks=1");
    // thinktime_spin: half of each pause busy on the CPU, about 1 of the 2 seconds.
    let spun = "thinktime=10ms\nthinktime_blocks=10\nthinktime_spin=5ms\n";
    let (code, v, err, spin_cpu) = fio_cpu(dir.path(), &job(spun), &[]);
    assert_eq!(code, 0, "{err}");
    let ratio = f(&test0(&v)["total"]["iops"]) / iops;
    assert!((8.5..11.5).contains(&ratio), "spinning does not change the pace: {ratio}×");
    assert!(idle_cpu < 0.4 && (0.5..1.6).contains(&spin_cpu), "CPU s: {idle_cpu} sleeping, {spin_cpu} half spinning");
}

#[test]
fn startdelay_starts_a_job_later_in_its_group() {
    let dir = tempfile::tempdir().unwrap();
    let job = "[global]\nioengine=null\nsize=1m\nrw=randread\nruntime=2\ntime_based\nrate_iops=1000\n\
               [early]\n[late]\nstartdelay=1\n";
    let (code, v, err) = fio(dir.path(), job, &[]);
    assert_eq!(code, 0, "{err}");
    let (early, late) = (named(&v, "early"), named(&v, "late"));
    let secs = |t: &Value| t["seconds"].as_array().unwrap().iter().map(|s| f(&s["iops"]).round()).collect::<Vec<_>>();
    // On the group's clock: the late job idles through the first second, then runs its two.
    let (e, l) = (secs(early), secs(late));
    assert_eq!(e.len(), 2, "{e:?}");
    assert_eq!(l.len(), 3, "{l:?}");
    assert_eq!(l[0], 0.0, "{l:?}");
    assert!(l[1..].iter().chain(&e).all(|&x| (x - 1000.0).abs() < 30.0), "early {e:?}, late {l:?}");
    assert_eq!(f(&late["duration_s"]), 2.0);
    let at = |t: &Value| humantime::parse_rfc3339(t["started_at"].as_str().unwrap()).unwrap();
    assert_eq!(at(late).duration_since(at(early)).unwrap().as_secs(), 1);
    // A range: each worker draws its delay from it.
    let (code, v, err) = fio(dir.path(), "[r]\nioengine=null\nsize=1m\nruntime=1\nstartdelay=1-2\nnumjobs=2\n", &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(test0(&v)["spec"]["start_delay"], serde_json::json!({"min": 1.0, "max": 2.0}));
    assert_eq!(f(&test0(&v)["seconds"][0]["iops"]), 0.0);
}

#[test]
fn offset_increment_gives_each_clone_its_region() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let trace = dir.path().join("trace.csv");
    let job = "[c]\nfilename=data\nsize=256k\noffset=64k\noffset_increment=1m\nnumjobs=3\nrw=randread\n\
               bs=4k\nruntime=5\nnumber_ios=500\n";
    let (code, v, err) = fio(dir.path(), job, &["--trace", trace.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // The file holds the last clone's region: 64k + 2 × 1m + 256k.
    assert_eq!(u(&test0(&v)["spec"]["size"]), (64 << 10) + (2 << 20) + (256 << 10));
    let mut by_worker = [(u64::MAX, 0u64, 0u32); 3];
    for line in std::fs::read_to_string(&trace).unwrap().lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        let (w, off, len): (usize, u64, u64) = (c[0].parse().unwrap(), c[3].parse().unwrap(), c[4].parse().unwrap());
        let b = &mut by_worker[w];
        *b = (b.0.min(off), b.1.max(off + len), b.2 + 1);
    }
    for (k, (lo, hi, n)) in by_worker.into_iter().enumerate() {
        let start = (64 << 10) + k as u64 * (1 << 20);
        assert_eq!(n, 500, "worker {k}");
        assert!(lo >= start && hi <= start + (256 << 10), "worker {k}: {lo}..{hi}, region from {start}");
        assert!(lo < start + (16 << 10) && hi > start + (240 << 10), "worker {k} covers its region: {lo}..{hi}");
    }
}

#[test]
fn io_size_and_number_ios_end_each_clone() {
    let dir = tempfile::tempdir().unwrap();
    let base = "[n]\nioengine=null\nsize=64m\nrw=randread\nbs=4k\nnumjobs=2\nruntime=10\n";
    let (code, v, err) = fio(dir.path(), &format!("{base}number_ios=1000\n"), &[]);
    assert_eq!(code, 0, "{err}");
    // Without group_reporting each clone is a test of its own, as each is an entry in fio's JSON.
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(tests.iter().map(|t| u(&t["read"]["ios"])).collect::<Vec<_>>(), [1000, 1000]);
    assert!(tests.iter().all(|t| f(&t["duration_s"]) < 5.0), "stopped by the count, not the runtime");
    let (code, v, err) = fio(dir.path(), &format!("{base}io_size=4m\nbs=16k\ngroup_reporting\n"), &[]);
    assert_eq!(code, 0, "{err}");
    let t = test0(&v);
    assert_eq!((u(&t["read"]["bytes"]), u(&t["read"]["ios"])), (8 << 20, 512));
    assert!(t["threads"].as_array().unwrap().iter().all(|w| u(&w["read"]["ios"]) == 256), "{}", t["threads"]);
    // time_based: fio keeps going for the runtime whatever it has done, and so does iolens.
    let (code, v, err) = fio(dir.path(), &format!("{base}number_ios=1000\ntime_based\nruntime=500ms\n"), &[]);
    assert_eq!(code, 0, "{err}");
    assert!(u(&test0(&v)["read"]["ios"]) > 10_000 && f(&test0(&v)["duration_s"]) == 0.5, "{}", test0(&v)["read"]);
}

#[test]
fn rate_process_poisson_keeps_the_mean_with_random_gaps() {
    let dir = tempfile::tempdir().unwrap();
    let job =
        |p: &str| format!("[p]\nioengine=null\nsize=1m\nrate_iops=2000\nruntime=6\ntime_based\nrate_process={p}\n");
    let per_second = |v: &Value| {
        let s: Vec<f64> = test0(v)["seconds"].as_array().unwrap().iter().map(|s| f(&s["iops"])).collect();
        let mean = s.iter().sum::<f64>() / s.len() as f64;
        (mean, (s.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / s.len() as f64).sqrt())
    };
    let (code, lin, err) = fio(dir.path(), &job("linear"), &[]);
    assert_eq!(code, 0, "{err}");
    let (code, poi, err) = fio(dir.path(), &job("poisson"), &[]);
    assert_eq!(code, 0, "{err}");
    let iops = f(&test0(&poi)["total"]["iops"]);
    assert!((iops / 2000.0 - 1.0).abs() < 0.03, "poisson at 2000/s: {iops}");
    // Arrivals per second: ≈ √2000 ≈ 45 apart for a Poisson process, all but equal for even gaps.
    let ((_, sd_lin), (_, sd_poi)) = (per_second(&lin), per_second(&poi));
    assert!(sd_lin < 10.0 && sd_poi > 15.0, "per-second IOPS stddev: linear {sd_lin}, poisson {sd_poi}");
}

#[test]
fn rate_min_is_checked_every_rate_cycle() {
    let dir = tempfile::tempdir().unwrap();
    // One second of I/O, then 1.5 s of thinking: the second second is idle although the mean is high.
    let job = |cycle: &str| {
        format!(
            "[m]\nioengine=null\nsize=1m\nrate_iops=1000\nruntime=4\ntime_based\nthinktime=1500ms\n\
             thinktime_iotime=1\nrate_iops_min=500\n{cycle}"
        )
    };
    let (code, v, err) = fio(dir.path(), &job(""), &[]);
    assert_eq!(code, 1, "{err}");
    assert!(f(&test0(&v)["total"]["iops"]) > 500.0, "the mean meets it: {}", test0(&v)["total"]);
    // (An I/O due at the very end of the first second may complete in the second.)
    let why = err.lines().find(|l| l.starts_with("error: [m]: worker 0: read rate_iops_min=500 not met, only "));
    assert!(why.is_some_and(|l| l.ends_with(" IOPS in second 2 of the run")), "{err}");
    assert!(test0(&v)["failed"].as_str().unwrap().contains("second 2"), "{}", test0(&v));
    // Over 4-second cycles the same run passes.
    let (code, v, err) = fio(dir.path(), &job("rate_cycle=4000\n"), &[]);
    assert_eq!(code, 0, "{err}");
    assert!(test0(&v).get("failed").is_none());
}

/// The I/Os of each job of a fio job file, by name.
fn ios_of(v: &Value, names: &[&str]) -> Vec<f64> {
    names.iter().map(|n| f(&named(v, n)["read"]["ios"]) + f(&named(v, n)["write"]["ios"])).collect()
}

#[test]
fn flow_keeps_jobs_in_the_ratio_of_their_weights() {
    let dir = tempfile::tempdir().unwrap();
    let job = |a: &str, b: &str, c: &str| {
        format!(
            "[global]\nioengine=null\nsize=64m\nbs=4k\nruntime=1\ntime_based\n\
             [a]\nrw=randread\n{a}\n[b]\nrw=write\n{b}\n[c]\nrw=read\n{c}\n"
        )
    };
    // Equally fast on their own: flow alone sets the ratio.
    let (code, v, err) = fio(dir.path(), &job("flow=3", "flow=2", "flow=1"), &[]);
    assert_eq!(code, 0, "{err}");
    let n = ios_of(&v, &["a", "b", "c"]);
    // Enough I/Os that flow's slack of a few is under 1 % of the slowest job's count. How many
    // a second gets through is the host's: beside a build, 1,165 for c, still exactly 3:2:1.
    assert!(n[2] > 300.0, "{n:?}");
    assert!((n[0] / n[2] / 3.0 - 1.0).abs() < 0.03 && (n[1] / n[2] / 2.0 - 1.0).abs() < 0.03, "3:2:1 gave {n:?}");
    // Separate groups do not hold each other back; flow=0 (fio's default) leaves a job out.
    let (code, v, err) = fio(dir.path(), &job("flow=8", "flow=1\nflow_id=1", "flow=0"), &[]);
    assert_eq!(code, 0, "{err}");
    let n = ios_of(&v, &["a", "b", "c"]);
    let (lo, hi) = n.iter().fold((f64::MAX, 0f64), |(l, h), &x| (l.min(x), h.max(x)));
    assert!(hi / lo < 3.0, "independent jobs, not 8:1: {n:?}");
    let (code, _, err) = fio(dir.path(), &job("flow=1001", "", ""), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("flow: '1001' is not a weight from 0 to 1000"), "{err}");
}

/// fio's own flow example: random reads against sequential writes on a real file, 8:1 with a
/// 1 ms sleep for the one held back, at a queue depth of 16 (scaled down from fio's 256).
#[test]
fn flow_holds_a_faster_job_to_its_weight_on_a_real_file() {
    let dir = tempfile::tempdir().unwrap();
    let job = "[global]\nnorandommap\nthread\ntime_based\nruntime=2\ndirect=1\nioengine=libaio\niodepth=16\n\
               size=16m\nbs=8k\nfilename=flowfile\nflow_sleep=1000\n\
               [job2]\nnumjobs=1\nrw=write\nflow=1\n[job1]\nnumjobs=1\nrw=randread\nflow=8\n";
    let (code, v, err) = fio(dir.path(), job, &["--allow-write"]);
    assert_eq!(code, 0, "{err}");
    let n = ios_of(&v, &["job1", "job2"]);
    assert!(n[1] > 500.0, "{n:?}");
    assert!((n[0] / n[1] / 8.0 - 1.0).abs() < 0.05, "8:1 gave {n:?}");
}

/// The lengths of the reads `iolens fio ARGS` logged in its write_iolog, and its JSON.
fn logged_lengths(dir: &Path, args: &[&str]) -> (Vec<u64>, Value) {
    let mut cmd = bin();
    cmd.current_dir(dir).args(["fio", "--no-store", "--write_iolog=u.log", "--output-format=json"]);
    let out = cmd.args(args).output().unwrap();
    let (code, json, err) = parts(&out);
    assert_eq!(code, 0, "{args:?}: {err}");
    let log = std::fs::read_to_string(dir.join("u.log")).unwrap();
    std::fs::remove_file(dir.join("u.log")).unwrap();
    let lengths = log.lines().map(|l| l.split(' ').collect::<Vec<_>>()).filter(|f| f.len() == 5 && f[2] == "read");
    (lengths.map(|f| f[4].parse().unwrap()).collect(), serde_json::from_str(&json).unwrap())
}

/// fio's bs_unaligned: lengths of any byte count in bsrange, drawn as fio draws them (the low
/// end plus up to the high end, capped there: 1/9 of the I/Os are 9000 bytes at 1000-9000).
#[test]
fn bs_unaligned_draws_any_length_in_the_range_as_fio_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let job = ["--name=u", "--filename=u.dat", "--size=4m", "--rw=randread", "--bsrange=1000-9000", "--norandommap=1"];
    let (lengths, v) = logged_lengths(d, &[&job[..], &["--number_ios=4000", "--bs_unaligned=1"]].concat());
    assert_eq!(lengths.len(), 4000);
    assert!(lengths.iter().all(|l| (1000..=9000).contains(l)), "{lengths:?}");
    let share = |f: &dyn Fn(u64) -> bool| lengths.iter().filter(|&&l| f(l)).count() as f64 / 4000.0;
    let (odd, top) = (share(&|l| l % 1000 != 0), share(&|l| l == 9000));
    assert!((0.80..0.95).contains(&odd) && (0.08..0.15).contains(&top), "not whole thousands {odd}, at 9000 {top}");
    let read = &v["jobs"][0]["read"];
    assert_eq!((u(&read["total_ios"]), u(&read["io_bytes"])), (4000, lengths.iter().sum::<u64>()), "{read}");
    // A sequential walk covers the file once: its last length is what is left of it.
    let seq = ["--name=s", "--filename=s.dat", "--size=1m", "--rw=read", "--bsrange=1000-9000", "--bs_unaligned=1"];
    let (lengths, v) = logged_lengths(d, &seq);
    assert_eq!((lengths.iter().sum::<u64>(), u(&v["jobs"][0]["read"]["io_bytes"])), (1 << 20, 1 << 20));
    std::fs::remove_file(d.join("s.dat")).unwrap();
    // Without it, lengths are whole multiples of the low end, as before.
    let (lengths, _) = logged_lengths(d, &[&job[..], &["--number_ios=1000"]].concat());
    assert!(lengths.len() == 1000 && lengths.iter().all(|l| l % 1000 == 0 && *l <= 9000), "{lengths:?}");
    for (extra, why) in [
        ("--direct=1", "direct=1 needs whole sectors; bs_unaligned needs direct=0"),
        ("--verify=crc32c", "iolens verifies whole blocks; use verify or bs_unaligned"),
    ] {
        let mut cmd = bin();
        cmd.current_dir(d).args(["fio", "--no-store"]).args(job).args(["--bs_unaligned=1", extra, "--rw=randwrite"]);
        let (code, _, err) = parts(&cmd.output().unwrap());
        assert_eq!((code, err.as_str()), (2, format!("error: [u]: bs_unaligned: {why}\n").as_str()), "{extra}");
    }
    assert_eq!(entries(d), ["u.dat"], "the refused jobs touched nothing");
}

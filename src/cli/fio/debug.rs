//! fio's --debug lines iolens has: `parse` (the options read), `random` (each thread's seed)
//! and `io` (each I/O completed, read back from an I/O log after the run, so the hot path
//! stays as it is).

use crate::error::{usage, UsageError};
use crate::frontends::fio::FioJob;
use std::path::PathBuf;

/// The --debug masks iolens prints lines for.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Masks {
    pub parse: bool,
    pub random: bool,
    pub io: bool,
}

/// fio's --debug categories (debug.h); iolens has something to say for `parse` and `random`
/// (and `all`) only, and takes the others as asked-for silence.
pub(super) fn masks(v: &str) -> Result<Masks, UsageError> {
    const FIO: &[&str] = &[
        "process",
        "file",
        "io",
        "mem",
        "blktrace",
        "verify",
        "random",
        "parse",
        "diskutil",
        "job",
        "mutex",
        "profile",
        "time",
        "net",
        "rate",
        "compress",
        "steadystate",
        "helperthread",
        "zbd",
        "all",
    ];
    let mut k = Masks::default();
    for m in v.split(',').map(str::trim) {
        if !FIO.contains(&m) {
            return usage("--debug", format!("'{m}' is not one of fio's debug masks ({})", FIO.join(", ")));
        }
        k.parse |= m == "parse" || m == "all";
        k.random |= m == "random" || m == "all";
        k.io |= m == "io" || m == "all";
        if !matches!(m, "parse" | "random" | "io" | "all") {
            // Accepted, as fio's job scripts pass them, but said: nothing prints for them.
            eprintln!("iolens: --debug={m}: iolens has no {m} debug lines (it prints parse, random and io)");
        }
    }
    Ok(k)
}

/// fio's --debug=random lines (setup_random_seeds): per job thread the number of seeds and
/// each seed. An iolens worker draws every random stream from its job's one seed (randseed,
/// the fixed default of randrepeat, or a fresh one for randrepeat=0), so that is the one.
pub(super) fn random(jobs: &[FioJob]) -> String {
    let pid = std::process::id();
    let mut o = String::new();
    for j in jobs {
        for _ in 0..j.spec.threads {
            o.push_str(&format!("random   {pid:<5} FIO_RAND_NR_OFFS=1\n"));
            o.push_str(&format!("random   {pid:<5} rand_seeds[0]={}\n", j.spec.seed));
        }
    }
    o
}

/// fio's --debug=parse lines for the options on the command line, as fio's parser prints them
/// (a steady-state limit says how it was read).
pub(super) fn parse(rest: &[String]) -> String {
    let pid = std::process::id();
    let mut o = String::new();
    for (k, v) in rest.iter().filter_map(|a| a.strip_prefix("--")?.split_once('=')) {
        o.push_str(&format!("parse    {pid:<5} handle_option={k}, ptr={v}\n"));
        if matches!(k, "ss" | "steadystate") {
            if let Ok(s) = crate::workload::SteadyState::parse(v, 1, 0.0) {
                o.push_str(&format!("parse    {pid:<5} {}\n", s.debug_line()));
            }
        }
    }
    o
}

/// The I/O log of each job, fio's write_iolog's if it has one, else one made for --debug=io (and
/// removed once read): `(path, made)`.
pub(super) fn log_io(jobs: &mut [FioJob]) -> Vec<(PathBuf, bool)> {
    let dir = std::env::temp_dir();
    let pid = std::process::id();
    jobs.iter_mut()
        .enumerate()
        .map(|(i, j)| {
            let logs = j.spec.logs.get_or_insert_with(Default::default);
            match &logs.io {
                Some(p) => (PathBuf::from(p), false),
                None => {
                    let p = dir.join(format!("iolens-{pid}-debug-io-{i}.log"));
                    logs.io = Some(p.display().to_string());
                    (p, true)
                }
            }
        })
        .collect()
}

/// fio's `io` lines for every read, write and trim the logs hold, in their order, as fio's
/// dprint_io_u prints a completion. fio shows its io_u's address; iolens has none, so the
/// I/O's number in its job stands there.
pub(super) fn io_lines(logs: &[(PathBuf, bool)]) -> String {
    let pid = std::process::id();
    let mut o = String::new();
    for (path, made) in logs {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if *made {
            let _ = std::fs::remove_file(path);
        }
        let mut n = 0u64;
        for l in text.lines() {
            // fio's iolog v3: time, file, action, offset, length.
            let f: Vec<&str> = l.split_whitespace().collect();
            let ddir = match f.get(2) {
                Some(&"read") => 0,
                Some(&"write") => 1,
                Some(&"trim") => 2,
                _ => continue,
            };
            let num = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            n += 1;
            o.push_str(&format!(
                "io       {pid:<5} complete: io_u 0x{n:x}: off=0x{:x},len=0x{:x},ddir={ddir},file={}\n",
                num(3),
                num(4),
                f[1]
            ));
        }
    }
    o
}

//! The module layering, checked on the source: the stored schema (`result`) is a leaf that no
//! analysis, report, store or comparison code defines, nothing below `cli` reaches up into it,
//! the page checks (`verify`) know nothing of the simulator (`simdb`) built on them, and
//! platform calls stay in `engine`, `targets`, `stats` and `run`. Unit tests are left out:
//! they may use anything to check their module.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const MODULES: [&str; 19] = [
    "analyze",
    "cli",
    "cluster",
    "compare",
    "engine",
    "error",
    "frontends",
    "input",
    "report",
    "result",
    "run",
    "session",
    "simdb",
    "stats",
    "store",
    "targets",
    "testing",
    "verify",
    "workload",
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The source directory and every .rs file under it.
fn sources() -> (PathBuf, Vec<PathBuf>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    (src, all)
}

/// The module a file belongs to ("report" for src/report/html/charts.rs).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_string()
}

/// The code of a file; None for a unit-test file.
fn code(file: &Path) -> Option<String> {
    let name = file.file_name().unwrap().to_string_lossy();
    if name == "tests.rs" || name.ends_with("_tests.rs") {
        return None;
    }
    // Unit tests are never inline (unit_tests_follow_one_layout): the rest is all code.
    Some(std::fs::read_to_string(file).unwrap())
}

/// Every (module, module it names through `crate::`) pair, with the file for messages.
fn uses() -> Vec<(String, String, String)> {
    let (src, all) = sources();
    let mut out = Vec::new();
    for f in all {
        let Some(code) = code(&f) else { continue };
        let from = module_of(&src, &f);
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let to: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            out.push((from.clone(), to.clone(), f.strip_prefix(&src).unwrap().display().to_string()));
        }
        // `use crate::{a, b}` groups.
        for (i, _) in code.match_indices("crate::{") {
            let rest = &code[i + "crate::{".len()..];
            let group = &rest[..rest.find('}').unwrap_or(0)];
            for m in
                MODULES.iter().filter(|m| group.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == **m))
            {
                out.push((from.clone(), m.to_string(), f.strip_prefix(&src).unwrap().display().to_string()));
            }
        }
    }
    out
}

fn offending(from: &str, forbidden: &[&str]) -> BTreeSet<String> {
    uses()
        .into_iter()
        .filter(|(f, to, _)| f == from && forbidden.contains(&to.as_str()))
        .map(|(_, to, file)| format!("{file} uses crate::{to}"))
        .collect()
}

#[test]
fn the_scanner_sees_what_it_checks() {
    // A check that finds nothing because it reads nothing would pass: make sure it reads.
    let u = uses();
    assert!(u.iter().any(|(f, t, _)| f == "cli" && t == "workload"), "no cli → workload use found");
    assert!(u.iter().any(|(f, t, _)| f == "analyze" && t == "result"), "no analyze → result use found");
    assert!(u.iter().any(|(f, t, _)| f == "report" && t == "result"));
}

#[test]
fn result_is_the_leaf_schema() {
    let bad = offending(
        "result",
        &["analyze", "report", "store", "compare", "cli", "run", "engine", "targets", "verify", "simdb"],
    );
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn reading_user_files_knows_nothing_but_errors() {
    let others: Vec<&str> = MODULES.iter().copied().filter(|m| !["input", "error"].contains(m)).collect();
    let bad = offending("input", &others);
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn nothing_below_cli_reaches_into_it() {
    for m in MODULES.iter().filter(|m| **m != "cli") {
        let bad = offending(m, &["cli"]);
        assert!(bad.is_empty(), "{bad:#?}");
    }
}

#[test]
fn the_session_does_not_know_the_mpi_runner() {
    // The MPI runner plugs into the session (prepare, run_items, finish); the command line
    // chooses between them, so the session never reaches up into cluster.
    let bad = offending("session", &["cluster", "cli"]);
    assert!(bad.is_empty(), "{bad:#?}");
    assert!(uses().iter().any(|(f, t, _)| f == "cluster" && t == "session"), "no cluster → session use found");
}

#[test]
fn front_ends_and_formats_do_not_drive_io() {
    for m in ["workload", "frontends", "report", "analyze", "compare", "store"] {
        let bad = offending(m, &["run", "engine", "cli"]);
        assert!(bad.is_empty(), "{m}: {bad:#?}");
    }
    for m in ["workload", "frontends"] {
        let bad = offending(m, &["targets", "report", "store", "analyze", "verify", "simdb", "session", "cluster"]);
        assert!(bad.is_empty(), "{m}: {bad:#?}");
    }
}

#[test]
fn the_model_and_what_it_flows_into_read_no_peer_syntax() {
    // fio's, DiskSpd's, the traces' and the counters' syntaxes are read into the model at the
    // door: the command line hands them on, the session runs fio's job groups, and a report in
    // DiskSpd's layout re-reads the DiskSpd line it stands for. Nothing else reads them.
    let readers = ["cli", "session", "report", "frontends", "testing"];
    for m in MODULES.iter().filter(|m| !readers.contains(m)) {
        let bad = offending(m, &["frontends"]);
        assert!(bad.is_empty(), "{m}: {bad:#?}");
    }
    assert!(uses().iter().any(|(f, t, _)| f == "frontends" && t == "workload"), "no frontends → workload use found");
}

#[test]
fn verify_does_not_know_simdb() {
    // The stamp, the checker and the page map serve `run --verify` and the simulator alike: the
    // simulator builds on them, never the other way round.
    let bad = offending("verify", &["simdb"]);
    assert!(bad.is_empty(), "{bad:#?}");
    assert!(uses().iter().any(|(f, t, _)| f == "simdb" && t == "verify"), "no simdb → verify use found");
}

#[test]
fn mpi_is_named_only_in_cluster() {
    // A build without the `mpi` feature must compile every other file: MPI's types and calls
    // stay in src/cluster/, and the front end reaches them through it.
    let (src, all) = sources();
    let mut bad = Vec::new();
    let mut seen = false;
    for f in all {
        let Some(code) = code(&f) else { continue };
        let names = code.contains("use mpi::") || code.contains(" mpi::") || code.contains("(mpi::");
        if module_of(&src, &f) == "cluster" {
            seen |= names;
        } else if names {
            bad.push(f.strip_prefix(&src).unwrap().display().to_string());
        }
    }
    assert!(seen, "no use of the mpi crate found in src/cluster/");
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn platform_calls_stay_in_the_platform_layers() {
    // Windows is a target: the command line, the session, workload, result, report, analyze,
    // compare, store, verify and simdb stay portable; what they need of the machine comes from
    // stats, targets or engine.
    let (src, all) = sources();
    let mut bad = Vec::new();
    for f in all {
        let m = module_of(&src, &f);
        if ![
            "cli",
            "session",
            "workload",
            "frontends",
            "result",
            "report",
            "analyze",
            "compare",
            "store",
            "verify",
            "simdb",
        ]
        .contains(&m.as_str())
        {
            continue;
        }
        let Some(code) = code(&f) else { continue };
        for needle in
            ["std::os::unix", "std::os::linux", "std::os::windows", "libc::", "windows_sys::", "/proc/", "/sys/"]
        {
            if code.contains(needle) {
                bad.push(format!("{} contains {needle}", f.strip_prefix(&src).unwrap().display()));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn unit_tests_follow_one_layout() {
    // A module's unit tests live in tests.rs in the module's own folder, declared
    // `#[cfg(test)] mod tests;`: NAME/tests.rs beside NAME.rs, dir/tests.rs beside dir/mod.rs,
    // as the standard library lays them out. (testing.rs, which the integration tests include
    // by path too, has its tests declared by lib.rs in testing_tests.rs.)
    let (src, all) = sources();
    let (mut bad, mut seen) = (Vec::new(), 0);
    for f in &all {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(f).unwrap();
        let rel = f.strip_prefix(&src).unwrap().display().to_string();
        if text.contains("mod tests {") {
            bad.push(format!("{rel}: unit tests inline; put them in the module's tests.rs"));
        }
        let cfg_test = text.matches("#[cfg(test)]").count();
        if name != "lib.rs" && cfg_test != text.matches("#[cfg(test)]\nmod tests;").count() {
            bad.push(format!("{rel}: #[cfg(test)] on something else than `mod tests;`"));
        }
        if text.contains("#[path") {
            bad.push(format!("{rel}: a module found by #[path]"));
        }
        if name.ends_with("_tests.rs") && name != "testing_tests.rs" {
            bad.push(format!("{rel}: unit tests belong in tests.rs in the module's folder"));
        }
        if name == "tests.rs" {
            seen += 1;
            let dir = f.parent().unwrap();
            let declared = [dir.join("mod.rs"), dir.with_extension("rs")]
                .iter()
                .any(|o| std::fs::read_to_string(o).is_ok_and(|t| t.contains("#[cfg(test)]\nmod tests;")));
            if !declared {
                bad.push(format!("{rel}: not declared `#[cfg(test)] mod tests;` by its module"));
            }
        }
    }
    assert!(seen >= 40, "only {seen} tests.rs files found");
    assert!(bad.is_empty(), "{bad:#?}");
}

/// A line's code without comments and without what string and char literals hold, so braces
/// inside them are not counted. `raw`: the `#`s of the raw string the line starts inside.
fn braces_only(line: &str, raw: &mut Option<usize>, in_str: &mut bool) -> String {
    let b = line.as_bytes();
    let (mut out, mut i) = (String::new(), 0);
    while i < b.len() {
        if let Some(n) = *raw {
            let close = format!("\"{}", "#".repeat(n));
            if line[i..].starts_with(&close) {
                *raw = None;
                i += close.len();
            } else {
                i += 1;
            }
            continue;
        }
        if *in_str {
            match b[i] {
                b'\\' => i += 2,
                b'"' => {
                    *in_str = false;
                    i += 1
                }
                _ => i += 1,
            }
            continue;
        }
        let rest = &line[i..];
        if rest.starts_with("//") {
            break;
        }
        let word_start = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if word_start && (rest.starts_with("r#") || rest.starts_with("r\"") || rest.starts_with("br")) {
            let skip = usize::from(rest.starts_with('b'));
            let hashes = rest[skip + 1..].bytes().take_while(|&c| c == b'#').count();
            if rest[skip + 1 + hashes..].starts_with('"') {
                *raw = Some(hashes);
                i += skip + 2 + hashes;
                continue;
            }
        }
        match b[i] {
            b'"' => *in_str = true,
            // A char literal ('{', '\'', '\u{7b}'), not a lifetime ('a).
            b'\'' if rest.len() > 2 && (rest.as_bytes()[2] == b'\'' || rest.as_bytes()[1] == b'\\') => {
                i += rest[2..].find('\'').map_or(1, |k| k + 3);
                continue;
            }
            c => out.push(c as char),
        }
        i += 1;
    }
    out
}

/// (file, line, name, lines) of every function outside unit tests.
fn function_lengths() -> Vec<(String, usize, String, usize)> {
    let (src, all) = sources();
    let mut out = Vec::new();
    for f in all {
        let Some(code) = code(&f) else { continue };
        let rel = f.strip_prefix(&src).unwrap().display().to_string();
        let (mut depth, mut open) = (0usize, Vec::<(usize, usize, String)>::new());
        let (mut raw, mut in_str) = (None, false);
        for (no, line) in code.lines().enumerate() {
            let starts = raw.is_none() && !in_str;
            let t = line.trim_start();
            let t = t.strip_prefix("pub ").or_else(|| t.strip_prefix("pub(crate) ")).unwrap_or(t);
            let t = t.strip_prefix("pub(super) ").unwrap_or(t);
            let t = t.strip_prefix("const ").unwrap_or(t);
            let t = t.strip_prefix("unsafe ").unwrap_or(t);
            if starts && t.starts_with("fn ") {
                let name: String = t[3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                open.push((depth, no + 1, name));
            }
            for c in braces_only(line, &mut raw, &mut in_str).chars() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth = depth.saturating_sub(1);
                        if open.last().is_some_and(|(d, _, _)| *d == depth) {
                            let (_, first, name) = open.pop().unwrap();
                            out.push((rel.clone(), first, name, no + 2 - first));
                        }
                    }
                    // A declaration without a body (in a trait) ends at its semicolon.
                    ';' if open.last().is_some_and(|(d, _, _)| *d == depth) => {
                        open.pop();
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

#[test]
fn no_function_is_over_100_lines() {
    let all = function_lengths();
    // The scanner reads what it checks: a known function and its length.
    let execute = all.iter().find(|(f, _, n, _)| f == "session/mod.rs" && n == "execute_series");
    assert!(execute.is_some_and(|(_, _, _, len)| (15..=40).contains(len)), "{execute:?}");
    let long: Vec<_> = all.iter().filter(|(_, _, _, len)| *len > 100).collect();
    assert!(long.is_empty(), "split these into named steps (option parsers as tables): {long:#?}");
}

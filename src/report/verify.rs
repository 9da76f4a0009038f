//! What data verification found, as text: counts by class, the first findings, the self-test's
//! injected faults beside what was detected, and a one-line verdict.

use crate::result::verify::{counts, FindingClass, Verification};
use crate::workload::size::format_block;
use std::fmt::Write;

/// Findings listed row by row; the rest are counted only (all are in JSON and the store).
pub const ROWS: usize = 20;

/// 131072 → "131,072".
pub fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn class_words(c: FindingClass) -> &'static str {
    match c {
        FindingClass::Stale => "stale (lost writes)",
        FindingClass::NeverRead => "never read",
        c => c.as_str(),
    }
}

/// "verify: 131,072 pages checked, 0 findings" or "…, 12 findings: 10 stale (lost writes), 2 torn".
pub fn verdict(v: &Verification) -> String {
    let total = v.findings.len() as u64 + v.findings_dropped;
    let mut s = format!("verify: {} pages checked, {} findings", grouped(v.pages_checked), grouped(total));
    let mut by_count = counts(&v.findings);
    // Most first: the class that dominates is the story.
    by_count.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    let parts: Vec<String> = by_count
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(c, n)| format!("{} {}", grouped(*n as u64), class_words(*c)))
        .collect();
    if !parts.is_empty() {
        let _ = write!(s, ": {}", parts.join(", "));
    }
    if v.findings_dropped > 0 {
        let _ = write!(s, " ({} beyond the first {} not kept)", grouped(v.findings_dropped), v.findings.len());
    }
    s
}

fn hex_or_dash(v: Option<u64>) -> String {
    v.map_or("-".into(), |v| format!("{v:#x}"))
}

/// The verification's section; `pattern`: the pages hold fio's verify_pattern, not stamps.
pub fn section(o: &mut String, v: &Verification, pattern: bool) {
    let how = if pattern {
        "filled with verify_pattern".to_string()
    } else {
        format!("stamped every {} B (run id {:016x})", v.unit, v.run_id)
    };
    let _ = writeln!(
        o,
        "\nVerification: pages of {}, {how}; {} written, {} checked; {} re-reads of each bad page",
        format_block(v.page as u64),
        grouped(v.pages_written),
        grouped(v.pages_checked),
        v.rereads
    );
    if !v.findings.is_empty() {
        let _ = writeln!(o, "{:<12} {:>8} {:>11}", "class", "findings", "persistent");
        for (c, n) in counts(&v.findings).into_iter().filter(|(_, n)| *n > 0) {
            let persistent = v.findings.iter().filter(|f| f.class == c && f.persistent()).count();
            let _ = writeln!(o, "{:<12} {:>8} {:>11}", c.as_str(), grouped(n as u64), grouped(persistent as u64));
        }
        let _ = writeln!(
            o,
            "\n{:<28} {:>14} {:<12} {:>11} {:>16}  {:>7}  diff (at byte)",
            "file", "offset", "class", "gen exp→fnd", "address found", "re-read"
        );
        for f in v.findings.iter().take(ROWS) {
            let n = f.file.chars().count();
            let file: String =
                if n > 28 { "…".chars().chain(f.file.chars().skip(n - 27)).collect() } else { f.file.clone() };
            let gens = format!("{}→{}", f.expected_gen, f.found_gen.map_or("-".into(), |g| g.to_string()));
            let addr = match f.found_file {
                Some(id) => format!("file {id} {}", hex_or_dash(f.found_offset)),
                None => hex_or_dash(f.found_offset),
            };
            let _ = writeln!(
                o,
                "{file:<28} {:>14} {:<12} {gens:>11} {addr:>16}  {:>3}/{:<3}  {} (at {})",
                format!("{:#x}", f.offset),
                f.class.as_str(),
                f.bad_rereads,
                f.rereads,
                f.diff,
                f.diff_at
            );
        }
        if v.findings.len() > ROWS {
            let _ = writeln!(
                o,
                "… {} more (all in --format json and the store)",
                grouped((v.findings.len() - ROWS) as u64)
            );
        }
        let _ = writeln!(o, "(re-read: bad re-reads / re-reads; all bad = persistent, on the medium)");
    }
    if let Some(inj) = &v.injected {
        let _ = writeln!(o, "\nSelf-test: faults injected and pages found bad");
        let _ = writeln!(o, "{:<10} {:>9}  {:<12} {:>9}", "injected", "count", "found as", "count");
        let c = counts(&v.findings);
        for (kind, n, class) in inj.by_kind() {
            let found = c.iter().find(|(k, _)| *k == class).map_or(0, |x| x.1);
            let _ = writeln!(o, "{kind:<10} {:>9}  {:<12} {:>9}", grouped(n), class.as_str(), grouped(found as u64));
        }
    }
    let _ = writeln!(o, "{}", verdict(v));
}

#[cfg(test)]
mod tests;

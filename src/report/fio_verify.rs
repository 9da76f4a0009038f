//! fio's words for bad blocks, on stderr as fio prints them (its verify.c): a block whose stamp
//! does not start right is a bad magic header, one stamped for another place a bad header
//! offset, one stamped as part of blocks of another length a bad header length, an older
//! write a bad header numberio, and damaged data a failed checksum with what
//! was expected and received. The job's error is then fio's EILSEQ (84).

use crate::result::verify::{Finding, FindingClass};
use crate::result::TestResult;

/// fio's error for a block that fails verification: EILSEQ.
pub const EILSEQ: u64 = 84;
/// fio stops a job at its first bad block; iolens checks on, and prints this many.
const SHOWN: usize = 8;
/// The stamp's magic ("IOLV") as the little-endian number fio prints.
const MAGIC: u32 = u32::from_le_bytes(*b"IOLV");

/// The job's error in fio's JSON: its first I/O error, else EILSEQ when a block was bad.
pub fn job_error(t: &TestResult) -> u64 {
    match t.errors.first_errno {
        Some(e) => u64::from(e.unsigned_abs()),
        None if t.verify.as_ref().is_some_and(|v| !v.clean()) => EILSEQ,
        None => 0,
    }
}

/// A verify_only job that would have written: fio counts the writes it walked.
pub fn walked_writes(t: &TestResult) -> bool {
    t.spec.verify.as_ref().and_then(|v| v.fio.as_ref()).is_some_and(|f| f.walked_writes)
}

/// fio's stderr lines for the bad blocks of one job (none when all were good).
pub fn messages(t: &TestResult) -> Vec<String> {
    let Some(v) = t.verify.as_ref().filter(|v| !v.clean()) else { return Vec::new() };
    let method = t.spec.verify.as_ref().and_then(|s| s.fio.as_ref()).map_or("verify", |f| f.method.as_str());
    let mut out: Vec<String> = Vec::new();
    for f in v.findings.iter().take(SHOWN) {
        out.extend(finding(f, v.unit.max(1), method));
    }
    let more = (v.findings.len() + v.findings_dropped as usize).saturating_sub(SHOWN);
    if more > 0 {
        out.push(format!("verify: {more} more bad blocks in job {}", t.name));
    }
    out.push(format!(
        "fio: pid={}, err={EILSEQ}/func=verify, error=Invalid or incomplete multibyte or wide character",
        std::process::id()
    ));
    out
}

/// The expected and found bytes of a finding's diff ("expected HEX / found HEX").
fn diff_bytes(f: &Finding) -> (Vec<u8>, Vec<u8>) {
    let hex = |s: &str| (0..s.len() / 2).filter_map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()).collect();
    let rest = f.diff.strip_prefix("expected ").unwrap_or("");
    let (want, got) = rest.split_once(" / found ").unwrap_or(("", ""));
    (hex(want), hex(got))
}

fn finding(f: &Finding, unit: u32, method: &str) -> Vec<String> {
    let at = f.diff_at - f.diff_at % unit;
    let place = |off: u64| {
        format!(
            " at file {} offset {off}, length {unit} (requested block: offset={}, length={})",
            f.file, f.offset, f.len
        )
    };
    let unit_off = f.offset + u64::from(at);
    if method == "pattern" && f.class == FindingClass::Corrupt {
        // verify=pattern has no header: fio names the first byte off the pattern.
        let (want, got) = diff_bytes(f);
        let (w, g) = (want.first().copied().unwrap_or(0), got.first().copied().unwrap_or(0));
        return vec![
            format!("fio: got pattern '{g:02x}', wanted '{w:02x}'. Bad bits {}", (w ^ g).count_ones()),
            format!("fio: bad pattern block offset {}", f.diff_at),
            format!(
                "pattern: verify failed at file {} offset {}, length {} (requested block: offset={}, length={}, flags=0)",
                f.file, f.offset, f.len, f.offset, f.len
            ),
        ];
    }
    match f.class {
        FindingClass::Corrupt | FindingClass::NeverRead if f.diff_at % unit < 4 => {
            // The magic's first bytes up to the difference are as expected; the rest as found.
            let k = (f.diff_at % unit) as usize;
            let (_, got) = diff_bytes(f);
            let mut m = *b"IOLV";
            m[k..].iter_mut().zip(&got).for_each(|(b, g)| *b = *g);
            vec![format!("verify: bad magic header {:x}, wanted {MAGIC:x}{}", u32::from_le_bytes(m), place(unit_off))]
        }
        FindingClass::Corrupt if (20..24).contains(&(f.diff_at % unit)) => {
            // The header's length field (its bytes 20..24): a unit written as part of blocks
            // of another length. Its bytes before the difference are the wanted ones.
            let k = (f.diff_at % unit - 20) as usize;
            let (_, got) = diff_bytes(f);
            let mut n = unit.to_le_bytes();
            n[k..].iter_mut().zip(&got).for_each(|(b, g)| *b = *g);
            vec![format!("verify: bad header length {}, wanted {unit}{}", u32::from_le_bytes(n), place(unit_off))]
        }
        FindingClass::Misdirected => {
            let found = f.found_offset.unwrap_or(0);
            vec![format!("verify: bad header offset {found}, wanted {unit_off}{}", place(unit_off))]
        }
        FindingClass::Stale | FindingClass::Torn => {
            let found = f.found_gen.map_or("none".to_string(), |g| g.to_string());
            vec![format!("verify: bad header numberio {found}, wanted {}{}", f.expected_gen, place(unit_off))]
        }
        _ => {
            let (want, got) = diff_bytes(f);
            let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
            vec![
                format!(
                    "{method:.8}: verify failed at file {} offset {unit_off}, length {unit} (requested block: offset={}, \
                     length={}, flags=0): bad checksum",
                    f.file, f.offset, f.len
                ),
                format!("       Expected data at byte {}: {}", f.diff_at, hex(&want)),
                format!("       Received data at byte {}: {}", f.diff_at, hex(&got)),
            ]
        }
    }
}

#[cfg(test)]
mod tests;

//! fio's value syntax (parse.c): numbers with k/m/g/t/p in kb_base and kib/mib in the other
//! base, times defaulting to seconds, per-direction `read,write` lists, booleans, distributions,
//! and `${VAR}` / keyword substitution in job files.

use crate::workload::{BlockShare, DataPattern, RandomDist};

type R<T> = Result<T, String>;

/// fio's `read,write[,trim]` values (parse.c `handle_option`): split at ',' (else ':' or '-');
/// a single value applies to both directions, an empty one keeps the default.
pub(super) fn per_dir<T: Copy>(v: &str, def: T, f: impl Fn(&str) -> R<T>) -> R<[T; 2]> {
    let sep = [',', ':'].into_iter().find(|&c| v.contains(c));
    let sep = sep.or(v.get(1..).is_some_and(|t| t.contains('-')).then_some('-')).unwrap_or(',');
    let parts: Vec<&str> = v.split(sep).map(str::trim).collect();
    let get = |s: &str| if s.is_empty() { Ok(def) } else { f(s) };
    let r = get(parts[0])?;
    Ok([r, if parts.len() > 1 { get(parts[1])? } else { r }])
}

/// fio's integers: digits with k/m/g/t/p (powers of kb_base, "b" allowed after), kib/mib/… (the
/// other base), or 0x hex. Fractions, percentages and (expressions) are refused.
pub(super) fn int(v: &str, kb: u64) -> R<u64> {
    let bad = || format!("'{v}' is not a number iolens reads (whole numbers with k/m/g/t/p, e.g. 4k, 10g, 0x1000)");
    if v.starts_with('(') {
        return Err(format!("'{v}': arithmetic expressions are not supported by iolens"));
    }
    if v.ends_with('%') {
        return Err(format!("'{v}': percentages of the file or device are not supported by iolens"));
    }
    if let Some(h) = v.strip_prefix("0x").or(v.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).map_err(|_| bad());
    }
    let (num, mut unit) = v.split_at(v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len()));
    if !unit.starts_with(|c: char| c.is_ascii_alphabetic() || c == '.') {
        // fio's get_mult_bytes reads no unit past a character that is not a letter, and the
        // number stands: fio's own strided test passes `--filesize=65536)`. A fraction stays
        // refused: fio reads `1.5k` as 1, which nobody means.
        unit = "";
    }
    // fio's unit ends at a separator: `bsrange=512/25:1k:25:…` reads as 512 to 1k.
    let unit = unit.split([':', '-', ',', '/']).next().unwrap_or("");
    let pow = |c: &u8| "kmgtp".find(*c as char).map(|i| i as u32 + 1);
    let other: u64 = if kb == 1000 { 1024 } else { 1000 };
    let mult = match unit.to_ascii_lowercase().as_bytes() {
        [] | [b'b'] => Some(1),
        [c] | [c, b'b'] => pow(c).map(|p| kb.pow(p)),
        [c, b'i', b'b'] => pow(c).map(|p| other.pow(p)),
        _ => None,
    };
    num.parse::<u64>().ok().zip(mult).and_then(|(n, m)| n.checked_mul(m)).ok_or_else(bad)
}

/// A bsrange part "LOW-HIGH": iolens takes it only when LOW = HIGH; empty keeps `def`.
/// A bsrange side: one size, or sizes drawn evenly from every multiple of the smallest up to
/// the largest (fio draws its lengths in that range aligned to the smallest). The shares are
/// whole percents: a range of more than 100 sizes gives its two ends, and the job draws
/// between them (`Spec::ranged`).
pub(super) fn block_range(v: &str, def: u64, kb: u64) -> R<Vec<BlockShare>> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(vec![BlockShare { size: def, pct: 100 }]);
    }
    let (lo, hi) = v.split_once(['-', ':']).ok_or_else(|| format!("'{v}' is not a range LOW-HIGH"))?;
    let (lo, hi) = (block(lo, kb)?, block(hi, kb)?);
    if lo > hi {
        return Err(format!("'{v}': the low end is above the high end"));
    }
    let n = hi / lo;
    if n > 100 {
        return Ok(vec![BlockShare { size: lo, pct: 50 }, BlockShare { size: hi, pct: 50 }]);
    }
    let sizes: Vec<u64> = (1..=n).map(|k| k * lo).collect();
    let (each, extra) = (100 / n as u32, 100 % n as u32);
    Ok(sizes
        .iter()
        .enumerate()
        .map(|(i, &size)| BlockShare { size, pct: each + u32::from((i as u32) < extra) })
        .collect())
}

pub(super) fn u32v(v: &str, kb: u64) -> R<u32> {
    u32::try_from(int(v, kb)?).map_err(|_| format!("'{v}' is too large"))
}

pub(super) fn pct(v: &str, kb: u64) -> R<u32> {
    u32v(v, kb).ok().filter(|&p| p <= 100).ok_or_else(|| format!("'{v}' is not a percentage 0-100"))
}

pub(super) fn block(v: &str, kb: u64) -> R<u64> {
    let n = int(v, kb)?;
    (1..=64 << 20).contains(&n).then_some(n).ok_or_else(|| format!("'{v}' is out of range; iolens takes 1 byte to 64M"))
}

pub(super) fn boolean(v: &str) -> R<bool> {
    match v {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(format!("'{v}' is not 0 or 1")),
    }
}

/// fio times: whole numbers, seconds unless us/usec, ms/msec, s, m, h or d follows.
pub(super) fn time(v: &str) -> R<f64> {
    let (num, mut unit) = v.split_at(v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len()));
    if !unit.starts_with(|c: char| c.is_ascii_alphabetic()) {
        // fio's get_mult_bytes reads no unit past a character that is not a letter, and the
        // number stands: fio's own strided test passes `--filesize=65536)`.
        unit = "";
    }
    let mult = match unit.to_ascii_lowercase().as_str() {
        "" | "s" => 1.0,
        "us" | "usec" => 1e-6,
        "ms" | "msec" => 1e-3,
        "m" => 60.0,
        "h" => 3600.0,
        "d" => 86400.0,
        _ => 0.0,
    };
    match num.parse::<u64>() {
        Ok(n) if mult > 0.0 => Ok(n as f64 * mult),
        _ => Err(format!("'{v}' is not a time iolens reads (whole numbers with us, ms, s, m, h or d)")),
    }
}

/// fio's times in µs (thinktime): whole numbers, µs unless us, ms or s follows.
pub(super) fn micros(v: &str) -> R<u64> {
    let (num, mut unit) = v.split_at(v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len()));
    if !unit.starts_with(|c: char| c.is_ascii_alphabetic()) {
        // fio's get_mult_bytes reads no unit past a character that is not a letter, and the
        // number stands: fio's own strided test passes `--filesize=65536)`.
        unit = "";
    }
    let mult = match unit.to_ascii_lowercase().as_str() {
        "" | "us" | "usec" => 1,
        "ms" | "msec" => 1000,
        "s" => 1_000_000,
        _ => 0,
    };
    match num.parse::<u64>().ok().and_then(|n| n.checked_mul(mult)) {
        Some(n) if mult > 0 => Ok(n),
        _ => Err(format!("'{v}' is not a time iolens reads (whole µs, or with us, ms or s)")),
    }
}

/// fio's file and directory lists: ':' separates, "\:" is a colon inside a name.
pub(super) fn names(v: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = v.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&':') => out.last_mut().map_or((), |s| s.push(chars.next().unwrap_or(':'))),
            ':' => out.push(String::new()),
            c => out.last_mut().map_or((), |s| s.push(c)),
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

/// fio's buffer_pattern (lib/pattern.c): 0xHEX bytes in the order written, "text", or a
/// decimal byte, side by side (pattern.rs).
pub(super) fn buffer_pattern(v: &str) -> R<DataPattern> {
    let p = super::pattern::parse(v, false)?;
    Ok(DataPattern::Repeat { len: p.bytes.len() as u32, bytes: p.bytes })
}

/// random (uniform), zipf[:theta] (fio's default 1.1), pareto[:h] (default 0.2).
pub(super) fn distribution(v: &str) -> R<RandomDist> {
    if let Some(z) = v.strip_prefix("zoned:") {
        return zoned(z);
    }
    if let Some(q) = v.strip_prefix("sequence:") {
        return sequence(q);
    }
    let mut parts = v.split(':');
    let (kind, arg) = (parts.next().unwrap_or(""), parts.next());
    if !matches!(kind, "random" | "zipf" | "pareto") {
        return Err(format!(
            "'{v}' is not supported by iolens (random, zipf:THETA, pareto:H, zoned:IO/RANGE:… and sequence:B,B,… are)"
        ));
    }
    if v.contains(',') || parts.next().is_some() {
        return Err(format!("'{v}': per-direction distributions and centers are not supported by iolens"));
    }
    let num = |def: f64| arg.map_or(Ok(def), |a| a.parse::<f64>().map_err(|_| format!("'{a}' is not a number")));
    match kind {
        "random" if arg.is_none() => Ok(RandomDist::Uniform),
        "zipf" => match num(1.1)? {
            1.0 => Err("zipf theta must differ from 1 (as in fio)".into()),
            t if t > 0.0 && t.is_finite() => Ok(RandomDist::Zipf { theta: t }),
            t => Err(format!("zipf:{t}: iolens needs a theta above 0")),
        },
        "pareto" => match num(0.2)? {
            h if h > 0.0 && h < 1.0 => Ok(RandomDist::Pareto { h }),
            h => Err(format!("pareto:{h}: h must be between 0 and 1 (as in fio)")),
        },
        _ => Err(format!(
            "'{v}' is not supported by iolens (random, zipf:THETA, pareto:H, zoned:IO/RANGE:… and sequence:B,B,… are)"
        )),
    }
}

/// fio's sequence: up to 64 block indices, separated by ','. random_sequence_stride sets the
/// stride afterwards.
fn sequence(v: &str) -> R<RandomDist> {
    let blocks = v
        .split(',')
        .map(|b| b.trim().parse::<u32>().map_err(|_| format!("sequence:{v}: '{b}' is not a block index (0 or more)")))
        .collect::<R<Vec<u32>>>()?;
    if blocks.len() > 64 {
        return Err(format!("sequence:{v}: fio takes up to 64 block indices, not {}", blocks.len()));
    }
    Ok(RandomDist::Sequence { blocks, stride: false })
}

/// fio's zoned split (options.c `zone_split_ddir`): `IO%/RANGE%` zones separated by ':'; a
/// blank range takes an equal part of what the others leave. Both lists must reach 100.
fn zoned(v: &str) -> R<RandomDist> {
    if v.contains(',') {
        return Err(format!("'zoned:{v}': per-direction zones are not supported by iolens"));
    }
    let mut zones: Vec<(u8, Option<u8>)> = Vec::new();
    for part in v.split(':').filter(|p| !p.is_empty()) {
        let (io, range) = part.split_once('/').ok_or_else(|| format!("zone '{part}' is not IO%/RANGE%"))?;
        let num = |s: &str| s.trim().parse::<u8>().ok().filter(|&p| p <= 100);
        let io = num(io).ok_or_else(|| format!("zone '{part}': '{io}' is not a percentage"))?;
        let range = match range.trim() {
            "" => None,
            r => Some(num(r).ok_or_else(|| format!("zone '{part}': '{r}' is not a percentage"))?),
        };
        zones.push((io, range));
    }
    if zones.is_empty() || zones.len() > 16 {
        return Err(format!("'zoned:{v}': iolens takes 1 to 16 zones"));
    }
    let blank = zones.iter().filter(|z| z.1.is_none()).count() as u32;
    let set: u32 = zones.iter().filter_map(|z| z.1).map(u32::from).sum();
    let (mut io, mut range) = ([0u8; 16], [0u8; 16]);
    let left = 100u32.saturating_sub(set);
    let mut blanks = 0;
    for (i, z) in zones.iter().enumerate() {
        io[i] = z.0;
        range[i] = z.1.unwrap_or_else(|| {
            // The last blank zone takes what an even split leaves over.
            blanks += 1;
            let share = if blanks == blank { left - (blank - 1) * (left / blank) } else { left / blank };
            share as u8
        });
    }
    let (io_sum, range_sum): (u32, u32) =
        (io.iter().map(|&p| u32::from(p)).sum(), range.iter().map(|&p| u32::from(p)).sum());
    if io_sum != 100 || range_sum != 100 {
        return Err(format!(
            "'zoned:{v}': the I/O shares add up to {io_sum}% and the ranges to {range_sum}%; both must be 100"
        ));
    }
    Ok(RandomDist::Zoned { io, range, n: zones.len() as u8 })
}

/// `${VAR}` → the variable (empty when unset), then fio's reserved keywords; a value with a
/// keyword and + - * / is worked out with integer math, as fio hands it to `bc`.
pub(super) fn substitute(line: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find("${") {
        out.push_str(&rest[..i]);
        match rest[i + 2..].find('}') {
            Some(j) if j > 0 => {
                out.push_str(&env(&rest[i + 2..i + 2 + j]).unwrap_or_default());
                rest = &rest[i + 3 + j..];
            }
            _ => {
                out.push_str(&rest[i..i + 2]);
                rest = &rest[i + 2..];
            }
        }
    }
    out.push_str(rest);
    let mut keyword = false;
    for (word, value) in
        [("$pagesize", keyword_value(0)), ("$mb_memory", keyword_value(1)), ("$ncpus", keyword_value(2))]
    {
        if out.contains(word) {
            out = out.replace(word, &value.to_string());
            keyword = true;
        }
    }
    let math = out.contains(['+', '-', '*', '/']) && !out.contains('\'');
    match out.split_once('=') {
        Some((k, v)) if keyword && math => {
            let n =
                eval(v.trim()).ok_or_else(|| format!("{}: '{}' is not integer math fio can work out", k.trim(), v))?;
            Ok(format!("{k}={n}"))
        }
        _ => Ok(out),
    }
}

/// $pagesize, $mb_memory, $ncpus as fio computes them.
pub(super) fn keyword_value(which: u8) -> i64 {
    use crate::stats::system;
    match which {
        0 => system::page_size(),
        1 => system::memory_mib(),
        _ => system::cpus_configured(),
    }
}

/// Integer + - * / with parentheses, as `bc` (scale 0) works it out.
pub(super) fn eval(s: &str) -> Option<i64> {
    fn expr(t: &[u8], i: &mut usize) -> Option<i64> {
        let mut v = term(t, i)?;
        while let Some(&op @ (b'+' | b'-')) = t.get(*i) {
            *i += 1;
            let r = term(t, i)?;
            v = if op == b'+' { v.checked_add(r)? } else { v.checked_sub(r)? };
        }
        Some(v)
    }
    fn term(t: &[u8], i: &mut usize) -> Option<i64> {
        let mut v = atom(t, i)?;
        while let Some(&op @ (b'*' | b'/')) = t.get(*i) {
            *i += 1;
            let r = atom(t, i)?;
            v = if op == b'*' { v.checked_mul(r)? } else { v.checked_div(r)? };
        }
        Some(v)
    }
    fn atom(t: &[u8], i: &mut usize) -> Option<i64> {
        match t.get(*i)? {
            b'(' => {
                *i += 1;
                let v = expr(t, i)?;
                (t.get(*i) == Some(&b')')).then(|| *i += 1)?;
                Some(v)
            }
            b'-' => {
                *i += 1;
                atom(t, i)?.checked_neg()
            }
            _ => {
                let start = *i;
                while t.get(*i).is_some_and(u8::is_ascii_digit) {
                    *i += 1;
                }
                std::str::from_utf8(&t[start..*i]).ok()?.parse().ok()
            }
        }
    }
    let t: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let mut i = 0;
    let v = expr(&t, &mut i)?;
    (i == t.len()).then_some(v)
}

/// One direction of fio's bssplit (options.c `bssplit_ddir`): blank or 0 shares split what
/// is left evenly; fio then sorts by share and the largest share takes any shortfall.
pub(super) fn bssplit(s: &str, kb: u64) -> R<(Option<Vec<BlockShare>>, Option<String>)> {
    let mut e: Vec<(u64, Option<u32>)> = Vec::new();
    for part in s.trim().split(':').take_while(|p| !p.is_empty()) {
        let (b, p) = part.split_once('/').unwrap_or((part, ""));
        let p = match p.trim() {
            "" => 0,
            p => p.parse::<u32>().map_err(|_| format!("share '{p}' in '{part}' is not a whole percentage"))?,
        };
        e.push((block(b, kb)?, (p > 0).then_some(p.min(100))));
    }
    let set: u32 = e.iter().filter_map(|x| x.1).sum();
    let missing = e.iter().filter(|x| x.1.is_none()).count() as u32;
    if set > 100 && missing > 1 {
        return Err(format!("shares in '{s}' add up to more than 100%"));
    }
    let fill = if missing == 1 && e.len() == 1 { 100 } else { 100u32.saturating_sub(set) / missing.max(1) };
    let mut shares: Vec<BlockShare> = e.iter().map(|&(size, p)| BlockShare { size, pct: p.unwrap_or(fill) }).collect();
    shares.sort_by_key(|b| b.pct);
    let total: u32 = shares.iter().map(|b| b.pct).sum();
    let (mut cum, last) = (0, shares.len().saturating_sub(1));
    for (i, b) in shares.iter_mut().enumerate() {
        b.pct = if i == last { 100 - cum } else { b.pct.min(100 - cum) };
        cum += b.pct;
    }
    shares.retain(|b| b.pct > 0);
    let note = (total != 100 && !shares.is_empty())
        .then(|| format!("bssplit: shares add up to {total}%; as in fio, the largest share makes up the rest"));
    Ok(((!shares.is_empty()).then_some(shares), note))
}

#[cfg(test)]
mod tests;

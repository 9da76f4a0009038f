//! fio's data patterns (`buffer_pattern`, `verify_pattern`) as fio's lib/pattern.c reads them:
//! pieces written one after the other, each a `"string"`, a `0x` hex number of any length
//! (bytes in the order written), a decimal number from INT_MIN to INT_MAX (its bytes little-endian,
//! as many as it needs, a single 0 for zero), `'file'` (the file's first bytes), or, where
//! allowed, `%o` (8 bytes for the block's offset, filled in when the block is written).

/// The longest pattern: longer ones are refused, a file is read up to it. fio 3.33 allowed 512
/// bytes, later versions 128 MiB; iolens keeps 1 MiB, which every stored result then carries.
pub const MAX_PATTERN: usize = 1 << 20;

/// A parsed pattern: its bytes, and where `%o` reserved 8 bytes for the block's offset
/// (little-endian, fio's paste_blockoff).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FioPattern {
    pub bytes: Vec<u8>,
    pub offsets: Vec<usize>,
}

/// Reads a pattern; `formats`: `%o` is allowed (verify_pattern; fio's buffer_pattern has none).
pub fn parse(v: &str, formats: bool) -> Result<FioPattern, String> {
    let v = v.trim();
    let mut p = FioPattern { bytes: Vec::new(), offsets: Vec::new() };
    let mut rest = v;
    if rest.is_empty() {
        return Err("an empty pattern adds no bytes".into());
    }
    while !rest.is_empty() {
        let room = MAX_PATTERN - p.bytes.len();
        let before = p.bytes.len();
        // iolens' earlier spelling joined pieces with |; fio writes them side by side.
        if before > 0 && rest.starts_with('|') {
            rest = &rest[1..];
            continue;
        }
        rest = match rest.as_bytes()[0] {
            b'"' => {
                let (s, after) =
                    rest[1..].split_once('"').ok_or_else(|| format!("'{rest}': a string without its closing \""))?;
                if s.len() > room {
                    return Err(format!("'{v}' is longer than the {MAX_PATTERN} bytes a pattern may hold"));
                }
                p.bytes.extend_from_slice(s.as_bytes());
                after
            }
            b'\'' => {
                let (name, after) =
                    rest[1..].split_once('\'').ok_or_else(|| format!("'{rest}': a file name without its closing '"))?;
                let data = crate::input::read_head(std::path::Path::new(name), room as u64)
                    .map_err(|e| format!("reading the pattern from {name}: {e}"))?;
                p.bytes.extend_from_slice(&data);
                after
            }
            b'%' if formats && rest.starts_with("%o") => {
                if room < 8 {
                    return Err(format!("'{v}' is longer than the {MAX_PATTERN} bytes a pattern may hold"));
                }
                p.offsets.push(before);
                p.bytes.extend_from_slice(&[0; 8]);
                &rest[2..]
            }
            _ => number(rest, &mut p.bytes, room).ok_or_else(|| {
                let how = if formats {
                    "\"text\", 0xHEX, a number, 'file' or %o"
                } else {
                    "\"text\", 0xHEX, a number or 'file'"
                };
                format!("'{rest}' is not {how}")
            })?,
        };
        // fio fails a piece that adds nothing (an empty string or file).
        if p.bytes.len() == before {
            return Err(format!("'{v}': a piece of the pattern adds no bytes"));
        }
    }
    Ok(p)
}

/// fio's parse_number: a hex number (`0xff0x14` is two) or a decimal one, read up to the next
/// `0x` anywhere further on, as fio looks ahead. Returns the rest of the input.
fn number<'a>(s: &'a str, out: &mut Vec<u8>, room: usize) -> Option<&'a str> {
    let b = s.as_bytes();
    let hex_digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
    if b.len() > 2 && b[0] == b'0' && (b[1] | 0x20) == b'x' && hex_digits(2) > 0 {
        let mut n = hex_digits(2);
        // "0xff0x14": the 0 before the next x starts the next number.
        if 2 + n < b.len() && (b[2 + n] | 0x20) == b'x' && b[1 + n] == b'0' {
            n -= 1;
        }
        let digits = &s[2..2 + n];
        if n == 0 || n.div_ceil(2) > room {
            return None;
        }
        // An odd count: the first digit alone is the first byte.
        let first = n % 2;
        if first == 1 {
            out.push(u8::from_str_radix(&digits[..1], 16).ok()?);
        }
        for i in (first..n).step_by(2) {
            out.push(u8::from_str_radix(&digits[i..i + 2], 16).ok()?);
        }
        return Some(&s[2 + n..]);
    }
    let lower = s.to_ascii_lowercase();
    let end = lower.find("0x").unwrap_or(s.len());
    // strtol: leading blanks, a sign, then digits, up to the first other character.
    let t = s[..end].trim_start();
    let sign = usize::from(t.starts_with(['-', '+']));
    let digits = t[sign..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let used = end - t.len() + sign + digits;
    let val: i64 = t[..sign + digits].parse().ok()?;
    if val < i32::MIN as i64 || val > i32::MAX as i64 {
        return None;
    }
    let mut u = val as i32 as u32;
    if u == 0 {
        out.push(0);
    }
    let mut n = 0;
    while u != 0 {
        if n == room {
            return None;
        }
        out.push(u as u8);
        (u, n) = (u >> 8, n + 1);
    }
    Some(&s[used..])
}

#[cfg(test)]
mod tests;

//! DiskSpd's own words for a command line it refuses (its CmdLineParser.cpp and Profile::Validate),
//! kept here and nowhere else. DiskSpd prints one to three lines on stderr; iolens prints them as
//! one, in DiskSpd's order, joined by "; " under a single "ERROR: ", so what a script looks for in
//! DiskSpd's output is found in iolens', and the line still names the option as typed.

use crate::error::UsageError;

fn joined(option: &str, parts: &[&str]) -> UsageError {
    let body: Vec<&str> = parts.iter().map(|p| p.strip_prefix("ERROR: ").unwrap_or(p)).collect();
    UsageError::worded(option, format!("ERROR: {}", body.join("; ")))
}

/// A letter DiskSpd does not know.
pub(super) fn invalid_option(arg: &str) -> UsageError {
    joined(arg, &[&format!("invalid option: '{arg}'")])
}

/// DiskSpd's option-by-option pass: what it found wrong, if it says, then the option as typed.
pub(super) fn incorrect(arg: &str, why: &[&str]) -> UsageError {
    let last = format!("incorrectly provided option: '{arg}'");
    joined(arg, &[why, &[last.as_str()]].concat())
}

/// A line DiskSpd prints on its own: its first pass (-b -d -W -C -R -v -z), the targets, and
/// Profile::Validate's checks of the options together.
pub(super) fn alone(option: &str, line: &str) -> UsageError {
    joined(option, &[line])
}

/// What DiskSpd accepts but iolens cannot run as DiskSpd would: why, then the option as typed.
pub(super) fn unsupported(arg: &str, why: &str) -> UsageError {
    joined(arg, &[&format!("{why}: '{arg}'")])
}

/// A target that is not there, without -c: DiskSpd opens targets as they are (OPEN_EXISTING) and
/// creates one only when -c gives its size.
pub(super) fn missing(target: &str) -> UsageError {
    joined(target, &[&format!("target '{target}' does not exist; -c<size> creates it (-c1G)")])
}

/// Three of `alone`'s lines name the value and how it was read, as DiskSpd's first pass does.
pub(super) fn bad_time(letter: char, v: &str) -> UsageError {
    let what = match letter {
        'd' => "measured duration",
        'W' => "warmup",
        _ => "cooldown",
    };
    alone(&format!("-{letter}"), &format!("invalid {what} time (-{letter}): '{v}'"))
}

/// DiskSpd's `_GetSizeInBytes`: digits, then at most one K, M, G, T or b (blocks of -b), either
/// case. With `cont` the size may be followed by more (as in -Bbase:length), which the caller
/// judges. On error, DiskSpd's line on what is wrong with the size.
pub(super) fn size(s: &str, block: u64, cont: bool) -> Result<(u64, &str), String> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let n = s[..digits].parse::<u64>().map_err(|_| "Invalid integer".to_string())?;
    let rest = &s[digits..];
    let Some(c) = rest.chars().next() else { return Ok((n, rest)) };
    let mult = match c.to_ascii_uppercase() {
        'K' => 1u64 << 10,
        'M' => 1 << 20,
        'G' => 1 << 30,
        'T' => 1 << 40,
        'B' => block,
        _ if cont => return Ok((n, rest)),
        _ => return Err(format!("Invalid size '{c}'. Valid: K - KiB, M - MiB, G - GiB, T - TiB, B - block")),
    };
    let rest = &rest[1..];
    if !cont && !rest.is_empty() {
        return Err("Unrecognized characters after size specification".into());
    }
    // DiskSpd's own spelling of "multiplier", kept so its message is found as it is.
    let n = n.checked_mul(mult).ok_or_else(|| format!("Overflow applying multipler '{}'", c.to_ascii_uppercase()))?;
    Ok((n, rest))
}

/// A whole size, refused as DiskSpd refuses it: the size's fault, then DiskSpd's line for the
/// option (e.g. "invalid target size passed to -c"), then the option as typed.
pub(super) fn sized(arg: &str, s: &str, block: u64, what: &str) -> Result<u64, UsageError> {
    size(s, block, false).map(|(n, _)| n).map_err(|d| incorrect(arg, &[&d, what]))
}

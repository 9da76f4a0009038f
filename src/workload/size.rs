//! Sizes as users type them. k/K, m/M, g/G, t/T and their KiB/KB spellings all mean powers of
//! 1024, as in fio and DiskSpd (`-b4k`, `bs=4k`), so "4k" is 4096 bytes everywhere.

/// Parses "512", "4k", "8K", "64KiB", "1M", "1.5G", "1GiB" into bytes.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let mult: u64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return None,
    };
    if num.is_empty() || num.matches('.').count() > 1 {
        return None;
    }
    if let Ok(n) = num.parse::<u64>() {
        return n.checked_mul(mult);
    }
    let f: f64 = num.parse().ok()?;
    let bytes = f * mult as f64;
    // A fraction must still land on a whole byte: "1.5k" is 1536, "0.3k" is refused.
    if bytes.fract() != 0.0 || !bytes.is_finite() || bytes > u64::MAX as f64 {
        return None;
    }
    Some(bytes as u64)
}

/// Formats bytes the way users write sizes: the largest binary unit that divides exactly.
pub fn format_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 4] = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (m, u) in UNITS {
        if bytes >= m && bytes.is_multiple_of(m) {
            return format!("{}{}", bytes / m, u);
        }
    }
    format!("{bytes}B")
}

/// Block sizes in the users' short form: 4096 → "4K", 1048576 → "1M", 512 → "512".
pub fn format_block(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{}M", bytes >> 20)
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{}K", bytes >> 10)
    } else {
        format!("{bytes}")
    }
}

#[cfg(test)]
mod tests;

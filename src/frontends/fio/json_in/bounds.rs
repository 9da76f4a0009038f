//! The figures of a fio JSON document, checked before any is used: a value no fio run can
//! report (1e308 IOPS, a negative rate) would add up to an infinite total that the store
//! cannot read back, so the document is refused in one line naming the value's place.

use serde_json::Value;

/// 9999-12-31T23:59:59Z, the last second RFC 3339 can write.
pub const LAST_SECOND: u64 = 253_402_300_799;

/// Larger than any count, byte total, rate or latency in ns one fio run reports, yet small
/// enough that sums over every job and direction stay exact in a f64 and a u64.
const MAX: f64 = 9.0e15;

/// Every number in `v` (at `path`, as `"jobs"[0]."read"."iops"`), checked: no figure beyond
/// `MAX`, no negative fraction and no latency below zero; other integers may be -1 (fio's
/// "none").
pub fn check(v: &Value, path: &mut String) -> Result<(), String> {
    match v {
        Value::Number(n) => {
            let at = if path.is_empty() { "a number".to_string() } else { path.clone() };
            let bad = |why: &str| Err(format!("{at} is {n}, {why}"));
            match (n.as_u64(), n.as_i64(), n.as_f64()) {
                // The times are checked where they are read (LAST_SECOND).
                (Some(_), _, _) if path.ends_with("\"timestamp\"") || path.ends_with("\"timestamp_ms\"") => Ok(()),
                (Some(u), _, _) if u as f64 > MAX => bad("beyond any figure fio reports"),
                // fio's -1 says "none" for a count; no latency (`clat_ns`, its percentiles …) is
                // ever below zero, and would be a negative figure in the store.
                (None, Some(i), _) if i < -1 || path.contains("_ns\"") => bad("below zero"),
                (None, Some(_), _) => Ok(()),
                (None, None, Some(f)) if f.abs() > MAX => bad("beyond any figure fio reports"),
                (None, None, Some(f)) if f < 0.0 => bad("below zero"),
                _ => Ok(()),
            }
        }
        Value::Array(xs) => {
            xs.iter().enumerate().try_for_each(|(i, x)| within(path, &format!("[{i}]"), |p| check(x, p)))
        }
        Value::Object(kv) => kv.iter().try_for_each(|(k, x)| within(path, &format!(".{k:?}"), |p| check(x, p))),
        _ => Ok(()),
    }
}

fn within(path: &mut String, step: &str, f: impl FnOnce(&mut String) -> Result<(), String>) -> Result<(), String> {
    let len = path.len();
    path.push_str(step);
    let r = f(path);
    path.truncate(len);
    r
}

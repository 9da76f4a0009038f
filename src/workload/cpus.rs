//! Lists of CPUs as DiskSpd and Linux write them.

/// "0-3,8,10-11" from [0, 1, 2, 3, 8, 10, 11] (any order; repeats once).
pub fn cpu_ranges(cpus: &[u32]) -> String {
    let mut v = cpus.to_vec();
    v.sort_unstable();
    v.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        parts.push(if j > i { format!("{}-{}", v[i], v[j]) } else { v[i].to_string() });
        i = j + 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests;

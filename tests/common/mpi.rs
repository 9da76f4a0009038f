//! Running the binary under OpenMPI's mpirun, and the exact merge of ranks' histograms that the
//! multi-host tests recompute the combined figures with.

use super::{parts, program, test_store, u, Privileged};
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

pub const MPIRUN: &str = "mpirun --allow-run-as-root --oversubscribe -np 3";

pub fn mpirun(p: &Privileged) -> Option<()> {
    p.need("mpirun (OpenMPI: apt-get install openmpi-bin)", program("mpirun"))
}

/// `mpirun … iolens ARGS` in a shell; (exit code, stdout, stderr).
pub fn launch(args: &str) -> (i32, String, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("{MPIRUN} {} {args}", env!("CARGO_BIN_EXE_iolens")))
        .env("IOLENS_STORE", test_store())
        .output()
        .expect("running mpirun");
    parts(&out)
}

/// One histogram of every rank's I/Os, reads and writes: bucket value → count, and the exact
/// count, min and max. The ranks' histograms share their bucket boundaries (same precision).
pub fn merge(ranks: &[Value]) -> (BTreeMap<u64, u64>, u64, u64, u64) {
    merge_of(ranks, &["read", "write"])
}

/// The same of the rows' histograms named `kinds` ("response_read", "fsync", …).
pub fn merge_of(ranks: &[Value], kinds: &[&str]) -> (BTreeMap<u64, u64>, u64, u64, u64) {
    let (mut buckets, mut count, mut min, mut max) = (BTreeMap::new(), 0, u64::MAX, 0);
    for h in ranks.iter().flat_map(|r| kinds.iter().map(move |k| &r["histograms"][k])) {
        assert_eq!(h["significant_digits"], 3, "{h}");
        for b in h["buckets"].as_array().unwrap() {
            *buckets.entry(u(&b[0])).or_insert(0) += u(&b[1]);
        }
        let n = u(&h["count"]);
        if n > 0 {
            count += n;
            min = min.min(u(&h["min_ns"]));
            max = max.max(u(&h["max_ns"]));
        }
    }
    (buckets, count, min, max)
}

/// The percentile of a merged histogram: the first bucket where the running count reaches
/// ceil(p × count), within the exact min and max.
pub fn percentile_us(h: &(BTreeMap<u64, u64>, u64, u64, u64), pct: f64) -> f64 {
    let (buckets, count, min, max) = h;
    let want = ((pct / 100.0 * *count as f64).ceil() as u64).max(1);
    let mut seen = 0;
    let v = buckets.iter().find(|(_, c)| {
        seen += **c;
        seen >= want
    });
    *v.unwrap().0.clamp(min, max) as f64 / 1000.0
}

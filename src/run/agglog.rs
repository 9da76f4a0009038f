//! fio's --bandwidth-log: agg-read_bw.log, agg-write_bw.log and agg-trim_bw.log in the current
//! directory, the bandwidth of all jobs together. fio samples them where it updates its ETA
//! line, so they stay empty when that is not shown (stdout no terminal, --eta=never); iolens
//! adds a line per direction for each second the workers have finished, in KiB/s as fio's.

use crate::engine::trace::Sink;
use std::fs::File;
use std::io::BufWriter;
use std::time::Instant;

pub struct AggBw {
    files: [Sink; 3],
    /// Lines are written (fio's ETA is shown).
    sample: bool,
    genesis: Instant,
}

impl AggBw {
    /// Creates (or empties) the three files, as fio does before its jobs start.
    pub fn create(sample: bool) -> anyhow::Result<AggBw> {
        let open = |name: &str| match File::create(name) {
            Ok(f) => Ok(Sink::new(format!("--bandwidth-log {name}"), Box::new(BufWriter::new(f)))),
            Err(e) => Err(anyhow::anyhow!("--bandwidth-log: creating {name}: {e}")),
        };
        let files = [open("agg-read_bw.log")?, open("agg-write_bw.log")?, open("agg-trim_bw.log")?];
        Ok(AggBw { files, sample, genesis: Instant::now() })
    }

    /// One finished second: bytes read and written (trims count as writes in the per-second
    /// figures, so the trim log holds zeros), as fio's `msec, KiB/s, direction, 0, 0` lines.
    pub(super) fn second(&self, bytes: [u64; 2]) {
        if !self.sample {
            return;
        }
        let ms = self.genesis.elapsed().as_millis();
        for (d, file) in self.files.iter().enumerate() {
            let kib = bytes.get(d).map_or(0, |b| b / 1024);
            // A log that cannot be written loses lines; the run and its result go on.
            file.write(&[format!("{ms}, {kib}, {d}, 0, 0\n").as_bytes()]);
        }
    }

    /// Every line so far is in its file, or each file that is not says why.
    pub fn check(&self) -> Result<(), String> {
        Sink::check_all(&self.files)
    }
}

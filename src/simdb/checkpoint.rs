//! The checkpoint user: bursts of dirty pages written, every data file flushed, and what the
//! flush made durable journaled.

use super::io::Meter;
use super::journal::{self, Entry};
use super::page_io::{pause, run_io, UserBuffers};
use super::{Kind, Sim};
use rand::Rng;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Pages per write of a checkpoint's bursts, fewest and most.
pub const CHECKPOINT_RUN: (usize, usize) = (8, 32);

/// Bursts of dirty pages written, then every data file flushed and the generations
/// acknowledged before the flush journaled (and the journal flushed): what a crash after this
/// point must not lose.
pub fn run(sim: &Sim, idx: u16, m: &mut Meter, h: &mut UserBuffers) {
    let mut journaled: Vec<Vec<u64>> = sim.data.iter().map(|d| vec![0; d.pages]).collect();
    let mut snap = journaled.clone();
    let total: usize = sim.data.iter().map(|d| d.pages).sum();
    let mut jbuf: Vec<u8> = Vec::with_capacity((total + 1) * journal::RECORD);
    while !sim.ctx.stopped() {
        for _ in 0..8 {
            let most = CHECKPOINT_RUN.1.min(h.gens.capacity());
            let n = h.rng.random_range(CHECKPOINT_RUN.0.min(most)..=most);
            run_io(sim, Kind::Checkpoint, idx, m, h, n, false, true);
        }
        // Acknowledged before the flush starts, hence durable once it completes.
        for (d, s) in sim.data.iter().zip(snap.iter_mut()) {
            for (p, g) in s.iter_mut().enumerate() {
                *g = d.map.generation(p);
            }
        }
        let log = (sim.log.acked.load(Ordering::Acquire), sim.log.pass_start.load(Ordering::Acquire));
        let mut flushed = true;
        for (fi, d) in sim.data.iter().enumerate() {
            flushed &= m.flush(&sim.ctx, fi, &d.file).is_ok();
        }
        if !flushed {
            break;
        }
        jbuf.clear();
        for (fi, (s, j)) in snap.iter().zip(journaled.iter_mut()).enumerate() {
            for (p, (&g, jg)) in s.iter().zip(j.iter_mut()).enumerate() {
                if g != *jg {
                    let at = jbuf.len();
                    jbuf.resize(at + journal::RECORD, 0);
                    journal::encode(Entry::Page { file: fi as u32, page: p as u64, generation: g }, &mut jbuf[at..]);
                    *jg = g;
                }
            }
        }
        if log.0 > 0 {
            let at = jbuf.len();
            jbuf.resize(at + journal::RECORD, 0);
            journal::encode(Entry::Log { acked: log.0, pass_start: log.1 }, &mut jbuf[at..]);
        }
        if let Err(e) = sim.journal.append(&jbuf).and_then(|_| sim.journal.sync()) {
            sim.ctx.error(format!("journal {}: {e}", sim.journal.path.display()));
            break;
        }
        pause(sim, Duration::from_millis(h.rng.random_range(200..=600)));
    }
}

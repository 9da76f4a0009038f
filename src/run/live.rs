//! Per-second figures. Each worker fills a `SecondData` for the current second and, once a
//! second, swaps it into its mailbox (the only lock a worker takes, uncontended but for the
//! moment the runner empties it). The runner merges the seconds, drives the progress line and
//! keeps each worker's per-second I/O counts for DiskSpd's IopsStdDev. A second's latency
//! histogram lives only until every worker has moved past it; then only what the result keeps
//! of it (p50, p99, and a multi-host run's buckets) stays, so memory does not grow 18 KiB a
//! second over a long run.

use crate::result::SecondLat;
use crate::stats::SecondHist;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

#[derive(Default)]
pub struct SecondData {
    pub sec: u32,
    /// Read, write.
    pub ios: [u64; 2],
    pub bytes: [u64; 2],
    /// Service latency of reads, writes: fixed-size sums, so recording allocates nothing.
    pub lat: [SecondLat; 2],
    pub hist: SecondHist,
}

impl SecondData {
    fn is_empty(&self) -> bool {
        self.ios == [0, 0]
    }
}

#[derive(Default)]
struct Boxes {
    full: Vec<SecondData>,
    spare: Vec<SecondData>,
}

pub struct Mailbox {
    boxes: Mutex<Boxes>,
    /// The second the worker is in: every earlier one has been handed over (u32::MAX: done).
    at: AtomicU32,
}

impl Mailbox {
    pub fn new() -> Mailbox {
        // Spares allocated now so that the once-a-second swap allocates nothing.
        let spare = (0..3).map(|_| SecondData::default()).collect();
        Mailbox { boxes: Mutex::new(Boxes { full: Vec::with_capacity(4), spare }), at: AtomicU32::new(0) }
    }

    /// Hands over `cur` and starts `next_sec` in a spare.
    pub fn flush(&self, cur: &mut SecondData, next_sec: u32) {
        if !cur.is_empty() {
            let mut b = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
            let mut fresh = b.spare.pop().unwrap_or_default();
            fresh.sec = next_sec;
            b.full.push(std::mem::replace(cur, fresh));
        }
        cur.sec = next_sec;
        // After the push: whoever reads this finds the seconds before it in the box.
        self.at.store(next_sec, Ordering::Release);
    }

    fn take(&self, into: &mut Vec<SecondData>) {
        let mut b = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
        into.append(&mut b.full);
    }

    fn give_back(&self, from: &mut Vec<SecondData>) {
        let mut b = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
        for mut d in from.drain(..) {
            d.ios = [0, 0];
            d.bytes = [0, 0];
            d.lat = Default::default();
            d.hist.clear();
            b.spare.push(d);
        }
    }
}

/// One measured second, all workers merged.
#[derive(Default)]
pub struct SecondAgg {
    pub ios: [u64; 2],
    pub bytes: [u64; 2],
    /// Its latency while a worker may still hand some over; None before any, or once sealed.
    pub(super) hist: Option<SecondHist>,
    /// What the result keeps of it once sealed: p50 and p99 (µs), and the buckets when asked.
    pub(super) kept: (Option<f64>, Option<f64>, Vec<[u64; 2]>),
}

impl SecondAgg {
    fn add(&mut self, h: &SecondHist) {
        if !h.is_empty() {
            self.hist.get_or_insert_with(SecondHist::default).add(h);
        }
    }

    /// Every worker has moved past this second: keep what the result needs, drop the rest.
    fn seal(&mut self, buckets: bool) {
        if let Some(h) = self.hist.take() {
            self.kept = (h.percentile_us(50.0), h.percentile_us(99.0), if buckets { h.buckets() } else { Vec::new() });
        }
    }

    pub fn p50_us(&self) -> Option<f64> {
        self.hist.as_ref().map_or(self.kept.0, |h| h.percentile_us(50.0))
    }

    pub fn p99_us(&self) -> Option<f64> {
        self.hist.as_ref().map_or(self.kept.1, |h| h.percentile_us(99.0))
    }

    pub fn buckets(&self) -> Vec<[u64; 2]> {
        self.hist.as_ref().map_or_else(|| self.kept.2.clone(), |h| h.buckets())
    }
}

#[derive(Default)]
pub struct Collector {
    pub seconds: Vec<SecondAgg>,
    /// Per worker, per second: I/Os [read, write], then bytes [read, write].
    pub per_worker: Vec<Vec<[u64; 4]>>,
    /// Per worker, per second: service latency of reads, writes.
    pub per_worker_lat: Vec<Vec<[SecondLat; 2]>>,
    scratch: Vec<SecondData>,
    /// Seconds before this one are sealed.
    sealed: usize,
}

impl Collector {
    pub fn new(workers: usize) -> Collector {
        Collector {
            per_worker: vec![Vec::new(); workers],
            per_worker_lat: vec![Vec::new(); workers],
            ..Default::default()
        }
    }

    /// Takes what the workers handed over; `buckets`: sealed seconds keep their buckets.
    pub fn collect(&mut self, mailboxes: &[Mailbox], buckets: bool) {
        let mut past = u32::MAX;
        for (w, mb) in mailboxes.iter().enumerate() {
            // Read before taking, so every second before it is in what is taken.
            past = past.min(mb.at.load(Ordering::Acquire));
            mb.take(&mut self.scratch);
            for d in &self.scratch {
                let s = d.sec as usize;
                if self.seconds.len() <= s {
                    self.seconds.resize_with(s + 1, SecondAgg::default);
                }
                let agg = &mut self.seconds[s];
                for k in 0..2 {
                    agg.ios[k] += d.ios[k];
                    agg.bytes[k] += d.bytes[k];
                }
                agg.add(&d.hist);
                let pw = &mut self.per_worker[w];
                if pw.len() <= s {
                    pw.resize(s + 1, [0; 4]);
                }
                for k in 0..2 {
                    pw[s][k] += d.ios[k];
                    pw[s][2 + k] += d.bytes[k];
                }
                let pl = &mut self.per_worker_lat[w];
                if pl.len() <= s {
                    pl.resize(s + 1, Default::default());
                }
                for (all, one) in pl[s].iter_mut().zip(&d.lat) {
                    all.merge(one);
                }
            }
            mb.give_back(&mut self.scratch);
        }
        let upto = (past as usize).min(self.seconds.len());
        for s in self.seconds.get_mut(self.sealed..upto).into_iter().flatten() {
            s.seal(buckets);
        }
        self.sealed = self.sealed.max(upto);
    }

    /// I/Os and bytes of the newest second that every worker has finished, for the progress line.
    pub fn last_full(&self, current: usize) -> Option<(u64, u64)> {
        let s = current.checked_sub(1)?;
        self.seconds.get(s).map(|a| (a.ios[0] + a.ios[1], a.bytes[0] + a.bytes[1]))
    }
}

pub(super) fn progress_bar(wanted: bool) -> Option<indicatif::ProgressBar> {
    if !wanted || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return None;
    }
    let b = indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
    b.set_style(indicatif::ProgressStyle::with_template("{msg}").expect("static template"));
    Some(b)
}

pub(super) fn progress_line(t: u64, m_start: u64, m_end: u64, end: u64, cs: &[Collector]) -> String {
    let s = |ns: u64| ns as f64 / 1e9;
    if t < m_start {
        return format!("warming up: {:.0} s left", s(m_start - t));
    }
    if t >= m_end {
        return format!("cooling down: {:.0} s left", s(end.saturating_sub(t)));
    }
    let elapsed = t - m_start;
    let sec = (elapsed / 1_000_000_000) as usize;
    let rate = cs
        .iter()
        .map(|c| c.last_full(sec))
        .try_fold((0, 0), |(i, b), x| x.map(|(ios, bytes)| (i + ios, b + bytes)))
        .map(|(ios, bytes)| format!("{ios} IOPS, {:.1} MB/s", bytes as f64 / 1e6))
        .unwrap_or_else(|| "…".into());
    format!("elapsed {:.0} s, remaining {:.0} s: {rate}", s(elapsed), s(m_end - t))
}

#[cfg(test)]
mod tests;

//! Per-second figures. Each worker fills a `SecondData` for the current second and, once a
//! second, swaps it into its mailbox (the only lock a worker takes, uncontended but for the
//! moment the runner empties it). The runner merges the seconds, drives the progress line and
//! keeps each worker's per-second I/O counts for DiskSpd's IopsStdDev.

use crate::result::SecondLat;
use crate::stats::SecondHist;
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

pub struct Mailbox(Mutex<Boxes>);

impl Mailbox {
    pub fn new() -> Mailbox {
        // Spares allocated now so that the once-a-second swap allocates nothing.
        let spare = (0..3).map(|_| SecondData::default()).collect();
        Mailbox(Mutex::new(Boxes { full: Vec::with_capacity(4), spare }))
    }

    /// Hands over `cur` and starts `next_sec` in a spare.
    pub fn flush(&self, cur: &mut SecondData, next_sec: u32) {
        if cur.is_empty() {
            cur.sec = next_sec;
            return;
        }
        let mut b = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut fresh = b.spare.pop().unwrap_or_default();
        fresh.sec = next_sec;
        b.full.push(std::mem::replace(cur, fresh));
    }

    fn take(&self, into: &mut Vec<SecondData>) {
        let mut b = self.0.lock().unwrap_or_else(|e| e.into_inner());
        into.append(&mut b.full);
    }

    fn give_back(&self, from: &mut Vec<SecondData>) {
        let mut b = self.0.lock().unwrap_or_else(|e| e.into_inner());
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
    pub hist: SecondHist,
}

#[derive(Default)]
pub struct Collector {
    pub seconds: Vec<SecondAgg>,
    /// Per worker, per second: I/Os [read, write], then bytes [read, write].
    pub per_worker: Vec<Vec<[u64; 4]>>,
    /// Per worker, per second: service latency of reads, writes.
    pub per_worker_lat: Vec<Vec<[SecondLat; 2]>>,
    scratch: Vec<SecondData>,
}

impl Collector {
    pub fn new(workers: usize) -> Collector {
        Collector {
            per_worker: vec![Vec::new(); workers],
            per_worker_lat: vec![Vec::new(); workers],
            ..Default::default()
        }
    }

    pub fn collect(&mut self, mailboxes: &[Mailbox]) {
        for (w, mb) in mailboxes.iter().enumerate() {
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
                agg.hist.add(&d.hist);
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

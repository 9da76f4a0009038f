//! One worker: one thread, one engine, one target. The loop queues until the depth (or the
//! pacing schedule) says stop, submitting every `batch` I/Os as they are ready (fio's default:
//! each one at once), then submits the rest and waits for completions with a single call, and
//! records them — with no allocation and no lock except a once-a-second hand-off.

use super::flow::Member;
use super::iolog::WorkerLogs;
use super::live::{Mailbox, SecondData};
use super::offsets::Walk;
use super::onerror::ErrorPolicy;
use super::pace::Pace;
pub use super::record::WorkerRec;
use super::record::{describe_error, window_overlap};
use super::stages::{PrioPick, StageRecs};
use super::think::Think;
use super::verifying::{Verifier, VerifyArgs};
use crate::engine::trace::Sink;
use crate::result::waits::WaitStats;
use crate::workload::iolog::LogKind;

mod queue;
mod reap;
mod tally;
mod waits;
use super::Shared;
use crate::engine::{Completion, Engine, OpKind};
use crate::stats::clock::RunClock;
use crate::targets::data;
use crate::workload::Spec;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::Ordering;
use std::time::Duration;
use waits::{limits, own_window};

#[derive(Clone, Copy, Default)]
struct Slot {
    submit: u64,
    intended: u64,
    /// When the worker queued it (fio's slat starts here).
    queued: u64,
    offset: u64,
    op: Option<OpKind>,
    len: u32,
    /// Its priority: the index among the job's levels, and the value.
    prio: u8,
    ioprio: u16,
}

pub struct WorkerArgs<'a> {
    pub spec: &'a Spec,
    pub shared: &'a Shared,
    /// The job's place in its group (its early stop).
    pub job: usize,
    pub mailbox: &'a Mailbox,
    pub file: u32,
    pub gen: Walk,
    /// Global worker number (seeds, trace).
    pub index: u32,
    /// Place among the workers of its test, and their count: a test's rate is split among them.
    pub rank: u32,
    pub workers: u32,
    pub depth: u32,
    pub flow: Option<Member<'a>>,
    pub verify: Option<VerifyArgs<'a>>,
    /// fio's bw, iops and lat logs this worker writes, when its job asks for any.
    pub logs: Option<Vec<(LogKind, &'a Sink)>>,
}

pub fn run<E: Engine>(engine: &mut E, a: WorkerArgs) -> Result<WorkerRec, String> {
    let spec = a.spec;
    let mut rng = SmallRng::seed_from_u64(spec.seed ^ ((a.index as u64 + 1) * 0x51));
    for s in 0..a.depth {
        data::fill(engine.buffer(s), &spec.data, &mut rng);
    }
    let depth = a.depth as usize;
    let mut pace = Pace::new(spec, a.rank, a.workers, spec.seed ^ a.index as u64);
    let d = spec.start_delay;
    let delay = (1e9 * if d.max > d.min { rng.random_range(d.min..d.max) } else { d.min }) as u64;
    pace.delay(delay);
    if !pace.is_free() || spec.think.is_some() || delay > 0 {
        // Sleep as precisely as the kernel allows; the default 50 µs slack would blur pacing.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::prctl(libc::PR_SET_TIMERSLACK, 1u64);
        }
    }
    let ver = match a.verify.map(|v| Verifier::new(v, a.index, depth)).transpose() {
        Ok(v) => v,
        Err(e) => {
            // The others wait at the barriers for this worker: pass them, then stop the run.
            a.shared.abort.store(true, Ordering::Relaxed);
            a.shared.ready.wait();
            a.shared.start.wait();
            return Err(e);
        }
    };
    let paced = !pace.is_free();
    let mut rec = WorkerRec {
        stages: StageRecs::new(spec, engine.synchronous()),
        lag: spec.replay.as_ref().map(|_| crate::stats::LatRec::default()),
        waits: WaitStats { throttled: paced, ..WaitStats::default() },
        ..WorkerRec::default()
    };
    rec.prefault(spec, paced);
    let sh = a.shared;
    sh.ready.wait();
    sh.start.wait();
    let mut w = Worker {
        clock: sh.clock.get().expect("clock started before start").clone(),
        delay,
        m_start: sh.measure_start + delay,
        m_end: sh.measure_end.load(Ordering::Relaxed) + delay,
        end: sh.end.load(Ordering::Relaxed) + delay,
        own: own_window(spec, sh.measure_start + delay, sh.duration),
        job: a.job,
        batch_max: spec.batch.clamp(1, a.depth) as usize,
        engine,
        spec,
        sh,
        mailbox: a.mailbox,
        file: a.file,
        gen: a.gen,
        depth,
        rec,
        slots: vec![Slot::default(); depth],
        free: (0..a.depth).rev().collect(),
        comps: vec![Completion::default(); depth],
        batch: Vec::with_capacity(depth),
        pace,
        cur: SecondData::default(),
        inflight: 0,
        last_t: 0,
        writes_since_sync: 0,
        write_counter: 0,
        error: None,
        engine_failed: false,
        policy: ErrorPolicy::new(&spec.on_error),
        think: spec.think.map(|t| Think::new(&t, 0)),
        resume_at: 0,
        issued: 0,
        issued_bytes: 0,
        completed: 0,
        flow: a.flow,
        ver,
        io_count: sh.io_count.as_deref(),
        index: a.index as usize,
        limits: limits(spec),
        awaiting_trim: false,
        logs: a.logs.map(|l| WorkerLogs::new(spec, l)),
        prio: PrioPick::new(spec, spec.seed ^ a.index as u64),
    };
    w.refresh_window();
    w.idle_until(delay);
    let now = w.clock();
    if let Some(t) = &mut w.think {
        t.resumed(0, 0, now);
    }
    w.run();
    if let Some(f) = &mut w.flow {
        f.leave();
    }
    w.wrap_up()
}

struct Worker<'a, E> {
    engine: &'a mut E,
    spec: &'a Spec,
    sh: &'a Shared,
    mailbox: &'a Mailbox,
    file: u32,
    gen: Walk,
    depth: usize,
    /// Most I/Os handed to the kernel per call (fio's iodepth_batch_submit).
    batch_max: usize,
    rec: WorkerRec,
    slots: Vec<Slot>,
    free: Vec<u32>,
    comps: Vec<Completion>,
    /// Slots queued but not yet submitted; stamped with one submission time just before the call.
    batch: Vec<u32>,
    pace: Pace,
    cur: SecondData,
    inflight: usize,
    last_t: u64,
    writes_since_sync: u32,
    write_counter: u64,
    error: Option<String>,
    engine_failed: bool,
    policy: ErrorPolicy,
    think: Option<Think>,
    /// Where the last pause ended: paced I/Os due during it count as intended from here, so
    /// their response latency does not include the pause.
    resume_at: u64,
    issued: u64,
    issued_bytes: u64,
    completed: u64,
    flow: Option<Member<'a>>,
    ver: Option<Verifier<'a>>,
    /// What the run shows while it runs, and its budget of I/Os once one is set.
    io_count: Option<&'a super::io_count::IoCount>,
    index: usize,
    /// This worker's share of the thread's number_ios and io_size (see `limits`).
    limits: (Option<u64>, Option<u64>),
    /// A trim of a trim+write pair is in flight: its write is the next I/O.
    awaiting_trim: bool,
    logs: Option<WorkerLogs<'a>>,
    /// fio's cmdprio: each I/O's priority.
    prio: Option<PrioPick>,
    clock: RunClock,
    /// This worker's start delay, and its window (ns after the group's start): measured from
    /// `m_start` to `m_end`, running until `end`.
    delay: u64,
    m_start: u64,
    m_end: u64,
    end: u64,
    /// The ends of this job's own window (its runtime and cool-down from the group's window
    /// start): a job of a group stops at its own runtime, as a fio job does.
    own: (u64, u64),
    job: usize,
}

impl<E: Engine> Worker<'_, E> {
    /// After the loop: the measured window as it ended, the verify pass, the last second.
    fn wrap_up(mut self) -> Result<WorkerRec, String> {
        let finished = self.clock();
        self.rec.window = (self.m_start, self.m_end.min(finished).max(self.m_start));
        if let Some(l) = &mut self.logs {
            l.finish(finished);
        }
        self.rec.notice = self.engine.notice();
        if let Some(v) = self.ver.take() {
            let healthy = !self.engine_failed && self.error.is_none();
            let count = self.spec.verify.as_ref().is_some_and(|v| v.count_read_backs);
            let (verified, after) = v.wrap_up(self.engine, self.file, &mut self.comps, &self.clock, healthy, count);
            if let Some((lat, bytes)) = after {
                self.rec.read += &lat;
                self.rec.read_bytes += bytes;
            }
            self.rec.verify = Some(verified);
        }
        self.mailbox.flush(&mut self.cur, u32::MAX);
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.rec),
        }
    }

    fn run(&mut self) {
        loop {
            self.refresh_window();
            let end = self.end;
            let now = self.clock();
            let stopping = now >= end || self.error.is_some() || self.limit_reached();
            let thinking = self.think.as_ref().is_some_and(|t| t.due(self.issued, self.completed, now));
            let mut held = false;
            if !stopping && !thinking {
                // Bounded, so that an engine completing at once (null) still comes back here.
                let mut budget = self.depth;
                // A trim's write waits for the trim to complete, so the pair is never reordered.
                while budget > 0
                    && self.inflight + self.batch.len() < self.depth
                    && !self.awaiting_trim
                    && !self.limit_reached()
                {
                    if self.think.as_ref().is_some_and(|t| t.due(self.issued, self.completed, now)) {
                        break;
                    }
                    held = self.flow.as_ref().is_some_and(|f| f.held());
                    if held {
                        break;
                    }
                    let Some(intended) = self.pace.next_intended(now) else { break };
                    if self.io_count.is_some_and(|t| !t.claim()) {
                        break;
                    }
                    if !self.queue_one(intended, now) {
                        if let Some(t) = self.io_count {
                            t.give_back();
                        }
                        break;
                    }
                    if let Some(f) = &mut self.flow {
                        f.took();
                    }
                    budget -= 1;
                    // A full batch goes out now, unless this I/O filled the depth: then the
                    // wait below submits it in the same call.
                    if self.batch.len() >= self.batch_max && self.inflight + self.batch.len() < self.depth {
                        let ts = self.clock();
                        self.stamp_batch(ts);
                        self.reap(0, None);
                    }
                    if self.error.is_some() {
                        break;
                    }
                }
            }
            // An engine that failed to submit cannot be drained; its Drop waits for what the
            // kernel holds.
            if self.engine_failed || (self.inflight + self.batch.len() == 0 && stopping) {
                break;
            }
            let ts = self.clock();
            if !self.batch.is_empty() {
                self.stamp_batch(ts);
            }
            if thinking && self.inflight == 0 && !stopping {
                self.pause(ts);
                continue;
            }
            if held && self.inflight == 0 && !stopping {
                // Held back by its flow group with nothing in flight (fio's io_u_quiesce): let
                // the partners issue.
                self.flow_pause();
                continue;
            }
            // Wait for a completion, but no longer than the next paced start, the end of the
            // phase or 100 ms (to notice Ctrl-C); draining waits in 100 ms steps.
            let mut wait = if stopping { 100_000_000 } else { end.saturating_sub(ts).min(100_000_000) };
            if let Some(next) = self.pace.due() {
                if self.inflight < self.depth && !stopping && !thinking {
                    wait = wait.min((next as u64).saturating_sub(ts));
                }
            }
            if self.inflight == 0 {
                // Nothing in flight: either the engine completed everything already (null), or
                // pacing holds the next I/O back — then wait until it is due.
                if wait > 0 && !self.pace.is_free() && !stopping {
                    if self.measuring(ts) {
                        self.rec.waits.throttle_sleep += 1;
                    }
                    self.wait_until(ts + wait);
                }
                continue;
            }
            let min = if wait == 0 && !stopping { 0 } else { 1 };
            self.reap(min, Some(Duration::from_nanos(wait.max(1000))));
        }
    }
}

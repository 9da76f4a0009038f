//! fio's get_next_file: which of a worker's files each I/O goes to. Each file keeps its own
//! offsets; the worker turns among them round-robin, stays on one until it is done, or draws
//! one at random, `every` I/Os per turn, skipping files whose pass is done.

use super::OffsetGen;
use crate::engine::OpKind;
use crate::workload::trace::{Replay, TraceIo, TraceOp};
use crate::workload::{FileService, ServiceKind};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

pub struct Walk {
    gens: Vec<OffsetGen>,
    /// Bytes of this pass each file still has to do; a file at 0 is done (fio closes it)
    /// until every file is, when a new pass begins on all of them.
    left: Vec<u64>,
    done: usize,
    service: FileService,
    /// The file of the last I/O, and the I/Os it has left in its turn.
    cur: usize,
    turn_left: u32,
    /// Where a round-robin search for the next file starts (fio's next_file).
    next: usize,
    /// A file was chosen already (fio starts with none).
    started: bool,
    rng: SmallRng,
    /// A replayed trace and the index of its next I/O: it stands in for the generators.
    replay: Option<(std::sync::Arc<Vec<TraceIo>>, usize)>,
}

impl Walk {
    /// A worker on one file.
    pub fn one(gen: OffsetGen) -> Walk {
        let service = FileService { files: 1, how: ServiceKind::RoundRobin, every: 1, ends: false };
        Walk::new(vec![gen], service, 0)
    }

    /// A worker over `gens.len()` files, each with its own offsets.
    pub fn new(gens: Vec<OffsetGen>, service: FileService, seed: u64) -> Walk {
        let left = gens.iter().map(|g| g.pass_bytes().max(1)).collect();
        Walk {
            gens,
            left,
            done: 0,
            service,
            cur: 0,
            turn_left: 0,
            next: 0,
            started: false,
            rng: SmallRng::seed_from_u64(seed),
            replay: None,
        }
    }

    /// The same worker issuing a trace's I/Os, in its order, instead of generated ones.
    pub fn replaying(mut self, r: Option<&Replay>) -> Walk {
        self.replay = r.map(|r| (r.ios.clone(), 0));
        self
    }

    /// Every I/O of the replayed trace is issued.
    #[inline]
    pub fn replay_done(&self) -> bool {
        self.replay.as_ref().is_some_and(|(ios, next)| *next >= ios.len())
    }

    /// The next I/O: (file index, operation, offset, length).
    #[inline]
    pub fn next_io(&mut self) -> (u32, OpKind, u64, u32) {
        if let Some((ios, next)) = &mut self.replay {
            // Never past the end: the worker stops once `replay_done`.
            let io = ios[(*next).min(ios.len() - 1)];
            *next += 1;
            let op = match io.op {
                TraceOp::Read => OpKind::Read,
                TraceOp::Write => OpKind::Write,
                TraceOp::Flush => OpKind::Flush,
                TraceOp::Trim => OpKind::Trim,
            };
            return (io.file, op, io.offset, io.len);
        }
        if self.gens.len() == 1 {
            let (op, off, len) = self.gens[0].next_io();
            return (0, op, off, len);
        }
        // The write of a trim+write pair goes where its trim went.
        let second = self.gens[self.cur].pending_write();
        if !second {
            self.choose();
        }
        let (op, off, len) = self.gens[self.cur].next_io();
        if self.service.ends && !second {
            let left = &mut self.left[self.cur];
            *left = left.saturating_sub(len as u64);
            if *left == 0 {
                self.done += 1;
                if self.done == self.gens.len() {
                    // Every file is done: the next pass (fio's next loop) starts on all of them.
                    self.done = 0;
                    self.started = false;
                    for (l, g) in self.left.iter_mut().zip(&self.gens) {
                        *l = g.pass_bytes().max(1);
                    }
                }
            }
        }
        (self.cur as u32, op, off, len)
    }

    #[inline]
    fn is_done(&self, f: usize) -> bool {
        self.service.ends && self.left[f] == 0
    }

    /// fio's __get_next_file: the current file while its turn lasts (or, with sequential
    /// service, until it is done), else the next one not done.
    #[inline]
    fn choose(&mut self) {
        if self.started && !self.is_done(self.cur) {
            if self.service.how == ServiceKind::Sequential {
                return;
            }
            if self.turn_left > 0 {
                self.turn_left -= 1;
                return;
            }
        }
        let n = self.gens.len();
        self.cur = match self.service.how {
            ServiceKind::Random => loop {
                let f = self.rng.random_range(0..n);
                if !self.is_done(f) {
                    break f;
                }
            },
            _ => loop {
                let f = self.next;
                self.next = (self.next + 1) % n;
                if !self.is_done(f) {
                    break f;
                }
            },
        };
        self.turn_left = self.service.every.max(1) - 1;
        self.started = true;
    }
}

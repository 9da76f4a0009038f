//! The ranks' conversation during an `--mpi` run: each rank says when it is ready for the next
//! test and sends rank 0 the tests it finished; rank 0 answers whether the run goes on, agrees
//! the pass every rank keeps, and gathers every rank's final word (naming the ranks that gave
//! none as lost).

use super::comm::{Comm, GRACE};
use crate::error::EXIT_FAIL;
use crate::result::{TargetInfo, TestResult};
use crate::session::{best_pass, pass_keys};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub(super) enum Msg {
    /// Ready for the next test; carries the tests finished since the last message.
    Ready(Vec<TestResult>),
    /// (complete, MB/s) of each pass of a test, to keep the pass that was best for all ranks.
    Passes(Vec<(bool, f64)>),
    Done(Box<Final>),
}

/// Everything a rank measured (but what it sent before), and why it stopped early if it did.
#[derive(Serialize, Deserialize)]
pub(super) struct Final {
    pub host: String,
    pub error: Option<String>,
    pub targets: Vec<TargetInfo>,
    pub tests: Vec<TestResult>,
}

/// Another rank stopped: this one stops too, without an error of its own.
#[derive(Debug)]
pub(super) struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("stopped because another rank did")
    }
}

impl std::error::Error for Stopped {}

pub(super) struct Group {
    pub comm: Comm,
    /// On rank 0: every rank's host.
    hosts: Vec<String>,
    /// On rank 0: the tests each rank sent before it was done.
    got: Vec<Vec<TestResult>>,
    /// On rank 0: what each rank sent once it was done.
    finals: Vec<Option<Final>>,
    /// Elsewhere: this rank's finished tests not yet sent, and how many tests that covers.
    unsent: Vec<TestResult>,
    finished: usize,
}

impl Group {
    /// Joins the ranks and learns every rank's host.
    pub(super) fn join(comm: Comm) -> Group {
        let hosts = comm.gather(comm.host().as_bytes()).unwrap_or_default();
        let hosts =
            hosts.into_iter().map(|h| h.map_or("?".into(), |h| String::from_utf8_lossy(&h).into_owned())).collect();
        let n = comm.size() as usize;
        let (got, finals) = ((0..n).map(|_| Vec::new()).collect(), (0..n).map(|_| None).collect());
        Group { comm, hosts, got, finals, unsent: Vec::new(), finished: 0 }
    }

    fn post(&self, to: u32, m: &Msg) {
        self.comm.send(to, &serde_json::to_vec(m).expect("serialisable"));
    }

    /// Rank 0: the next message of every rank not yet done (nor lost), but for "done".
    fn collect(&mut self) -> anyhow::Result<Vec<(u32, Msg)>> {
        let mut live = Vec::new();
        for r in 1..self.comm.size() {
            if self.finals[r as usize].is_some() {
                continue;
            }
            let Ok(m) = self.comm.receive(r) else { continue };
            match serde_json::from_slice(&m)? {
                Msg::Done(f) => self.finals[r as usize] = Some(*f),
                Msg::Ready(tests) => {
                    self.got[r as usize].extend(tests);
                    live.push((r, Msg::Ready(Vec::new())));
                }
                m => live.push((r, m)),
            }
        }
        Ok(live)
    }

    /// No rank is done or lost: the run goes on.
    fn go(&self) -> bool {
        self.finals.iter().all(Option::is_none) && self.comm.lost().is_empty()
    }

    /// This rank's tests so far (`done`): the new ones go to rank 0 at the next meeting.
    pub(super) fn finished(&mut self, done: &[TestResult]) {
        if self.comm.rank() != 0 {
            self.unsent.extend(done[self.finished..].iter().cloned());
        }
        self.finished = done.len();
    }

    /// Every rank is ready: true, and the run goes on; false once any rank is done.
    pub(super) fn ready(&mut self) -> anyhow::Result<bool> {
        if self.comm.rank() != 0 {
            let tests = std::mem::take(&mut self.unsent);
            self.post(0, &Msg::Ready(tests));
            return Ok(self.comm.receive(0)? == [1]);
        }
        let ready = self.collect()?;
        let go = self.go();
        for (r, _) in ready {
            self.comm.send(r, &[go as u8]);
        }
        Ok(go)
    }

    /// The pass every rank keeps of a test run several times (CrystalDiskMark's best of N): the
    /// best of the ranks' summed MB/s, so the combined figures come from one common window.
    pub(super) fn agree_pass(&mut self, runs: &[TestResult]) -> anyhow::Result<usize> {
        let mine = pass_keys(runs);
        if self.comm.rank() != 0 {
            self.post(0, &Msg::Passes(mine));
            return match self.comm.receive(0)?.as_slice() {
                [_, rest @ ..] if rest.len() == 4 => Ok(u32::from_le_bytes(rest.try_into()?) as usize),
                _ => Err(Stopped.into()),
            };
        }
        let live = self.collect()?;
        let mut sum = mine;
        for (_, m) in &live {
            if let Msg::Passes(p) = m {
                for (s, o) in sum.iter_mut().zip(p) {
                    *s = (s.0 && o.0, s.1 + o.1);
                }
            }
        }
        // Even when a rank is done or lost, the others keep the test they measured; the next
        // meeting stops them.
        let best = best_pass(&sum);
        for (r, _) in live {
            self.comm.send(r, &verdict(self.go(), best));
        }
        Ok(best)
    }

    /// This rank is done. Rank 0 then tells the ranks still running to stop, and returns
    /// every rank's final once all have sent theirs or are lost (a lost rank's final: the
    /// tests it sent, and the error that it was lost).
    pub(super) fn done(&mut self, mut f: Final) -> anyhow::Result<Option<Vec<Final>>> {
        if self.comm.rank() != 0 {
            let rest = f.tests.split_off(self.finished.min(f.tests.len()));
            f.tests = std::mem::take(&mut self.unsent);
            f.tests.extend(rest);
            self.post(0, &Msg::Done(Box::new(f)));
            return Ok(None);
        }
        self.finals[0] = Some(f);
        let waiting = |g: &Group| (1..g.comm.size()).any(|r| g.finals[r as usize].is_none() && !g.comm.is_lost(r));
        while waiting(self) {
            for (r, m) in self.collect()? {
                match m {
                    // Each keeps its best pass of the test it measured.
                    Msg::Passes(p) => self.comm.send(r, &verdict(false, best_pass(&p))),
                    _ => self.comm.send(r, &[0]),
                }
            }
        }
        let lost = format!(
            "lost: no answer within {} ms once the run was stopped (killed, or its host or network gone)",
            GRACE.as_millis()
        );
        let mut all = Vec::new();
        for (r, f) in self.finals.iter_mut().enumerate() {
            let mut tests = std::mem::take(&mut self.got[r]);
            let mut f = f.take().unwrap_or_else(|| Final {
                host: self.hosts.get(r).cloned().unwrap_or_else(|| "?".into()),
                error: Some(lost.clone()),
                targets: Vec::new(),
                tests: Vec::new(),
            });
            tests.append(&mut f.tests);
            f.tests = tests;
            all.push(f);
        }
        Ok(Some(all))
    }

    /// Rank 0's exit code, on every rank (failure where rank 0 was lost).
    pub(super) fn exit_code(&self, code: i32) -> i32 {
        match self.comm.broadcast(&code.to_le_bytes()) {
            Ok(c) => i32::from_le_bytes(c.try_into().unwrap_or([0, 0, 0, 1])),
            Err(e) => {
                eprintln!(
                    "error: rank {} ({}): {e}; what it measured is not reported",
                    self.comm.rank(),
                    self.comm.host()
                );
                EXIT_FAIL
            }
        }
    }
}

/// The pass to keep, and whether the run goes on.
fn verdict(go: bool, best: usize) -> Vec<u8> {
    [&[go as u8][..], &(best as u32).to_le_bytes()].concat()
}

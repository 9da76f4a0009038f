//! Every MPI call iolens makes: start-up, and the few messages a run needs (barrier, a start
//! time from rank 0, clock offsets, and each rank's status and result gathered to rank 0).
//! Waits poll with short sleeps instead of blocking in MPI, which spins: a rank that is done
//! must not take CPU time from ranks still measuring on the same machine.
//!
//! Once the run is stopped (SIGTERM or Ctrl-C: mpirun stops every rank so when one dies, and
//! kills them a second later) no wait is for ever: a rank that does not answer within
//! `GRACE` (rank 0 within `ROOT_GRACE`) is lost, never waited for or sent to again, so the
//! ranks still there can clean up and rank 0 can report what it has before the kill.

use mpi::environment::Universe;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::Threading;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The run's steps, in order between any two ranks.
const STEP: i32 = 0;
/// Stonewall notices, which arrive while a test runs, whatever step the receiver is at.
const WALL: i32 = 1;
/// "A rank failed mid-test": to rank 0 from the rank, then from rank 0 to the others, so that
/// all stop at once instead of at the end of the test.
const FAIL: i32 = 2;

/// I/O counts of stonewalling: to rank 0, what a rank had measured when the first rank was
/// done; from rank 0, the count every rank goes on to (`--stonewall wear-out`).
const COUNT: i32 = 3;

/// Round trips per rank when measuring clock offsets; the fastest one counts.
const PINGS: usize = 16;

/// How long, once the run is stopped, rank 0 waits for another rank's next message. The ranks
/// that are there answer within milliseconds; mpirun kills them all a second after it stopped
/// them (odls_base_sigkill_timeout).
pub const GRACE: Duration = Duration::from_millis(250);
/// How long, once the run is stopped, the other ranks wait for rank 0, which may be waiting
/// `GRACE` for a lost rank before it answers them.
const ROOT_GRACE: Duration = Duration::from_millis(800);

/// A rank that did not answer within the grace after the run was stopped.
#[derive(Debug, Clone, Copy)]
pub struct Lost(pub u32);

impl std::fmt::Display for Lost {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "rank {} did not answer once the run was stopped", self.0)
    }
}

impl std::error::Error for Lost {}

pub struct Comm {
    // Finalizes MPI when dropped, after every message below has been delivered.
    _universe: Universe,
    world: SimpleCommunicator,
    rank: u32,
    size: u32,
    host: String,
    /// Set by SIGTERM or Ctrl-C.
    stop: Arc<AtomicBool>,
    lost: RefCell<Vec<bool>>,
    /// When this rank first saw that the run was stopped, and when it last heard from each
    /// rank: a rank is lost when it has said nothing for the grace since the later of the two,
    /// so ranks that died together (a host with several) are waited for together.
    stop_seen: Cell<Option<Instant>>,
    heard: RefCell<Vec<Option<Instant>>>,
}

/// How this rank's wall clock relates to rank 0's.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClockOffset {
    /// This rank's clock minus rank 0's, ns.
    pub offset_ns: i64,
    /// The round trip the offset was measured in, ns (the offset is within half of it).
    pub rtt_ns: i64,
}

/// Wall-clock time (the clock that differs between hosts), ns since the epoch.
pub fn now_ns() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i64)
}

impl Comm {
    /// Starts MPI. Only the main thread makes MPI calls; the workers never do. `stop`: the
    /// flag SIGTERM and Ctrl-C set.
    pub fn init(stop: Arc<AtomicBool>) -> anyhow::Result<Comm> {
        let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
            .ok_or_else(|| anyhow::anyhow!("--mpi: MPI was already initialised"))?;
        let world = universe.world();
        let host = mpi::environment::processor_name().unwrap_or_else(|_| "?".into());
        let (rank, size) = (world.rank() as u32, world.size() as u32);
        let (lost, heard) = (RefCell::new(vec![false; size as usize]), RefCell::new(vec![None; size as usize]));
        let stop_seen = Cell::new(None);
        Ok(Comm { rank, size, world, _universe: universe, host, stop, lost, stop_seen, heard })
    }

    pub fn rank(&self) -> u32 {
        self.rank
    }

    pub fn size(&self) -> u32 {
        self.size
    }

    /// The name MPI knows this host by.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// Whether the run was stopped (SIGTERM or Ctrl-C).
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn is_lost(&self, rank: u32) -> bool {
        self.lost.borrow()[rank as usize]
    }

    /// The ranks lost so far.
    pub fn lost(&self) -> Vec<u32> {
        (0..self.size).filter(|&r| self.is_lost(r)).collect()
    }

    /// Sends to `to`, unless it is lost: a message to a rank that is gone could block for ever.
    pub fn send(&self, to: u32, data: &[u8]) {
        if !self.is_lost(to) {
            self.world.process_at_rank(to as i32).send_with_tag(data, STEP);
        }
    }

    /// Receives the next message from `from`, sleeping between looks; Lost when it is lost, or
    /// does not answer within the grace once the run is stopped.
    pub fn receive(&self, from: u32) -> Result<Vec<u8>, Lost> {
        let p = self.world.process_at_rank(from as i32);
        let grace = if from == 0 { ROOT_GRACE } else { GRACE };
        while !self.is_lost(from) {
            if p.immediate_probe_with_tag(STEP).is_some() {
                self.heard.borrow_mut()[from as usize] = Some(Instant::now());
                return Ok(p.receive_vec_with_tag::<u8>(STEP).0);
            }
            if self.stopped() {
                let stop = self.stop_seen.get().unwrap_or_else(Instant::now);
                self.stop_seen.set(Some(stop));
                let since = self.heard.borrow()[from as usize].map_or(stop, |h| h.max(stop));
                if since.elapsed() > grace {
                    self.lost.borrow_mut()[from as usize] = true;
                }
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Err(Lost(from))
    }

    /// Ends this rank's part without MPI_Finalize, which waits for every rank of the job and
    /// so never returns once one is gone: for a run that was stopped, which mpirun is tearing
    /// down anyway.
    pub fn abandon(self) {
        std::mem::forget(self._universe);
    }

    /// A stonewall notice to `to` (it carries no data: who sent it is the news). None once the
    /// run is stopped: a rank may have died, and a message to it may never go (OpenMPI then
    /// aborts the job); the ranks still there end their test without stonewalling.
    pub fn wall(&self, to: u32) {
        if !self.stopped() && !self.is_lost(to) {
            self.world.process_at_rank(to as i32).send_with_tag(&[0u8][..], WALL);
        }
    }

    /// The sender of a stonewall notice that has arrived, if one has.
    pub fn wall_from(&self) -> Option<u32> {
        let st = self.world.any_process().immediate_probe_with_tag(WALL)?;
        let from = st.source_rank();
        let _ = self.world.process_at_rank(from).receive_vec_with_tag::<u8>(WALL);
        Some(from as u32)
    }

    /// A stonewalling count to `to`; none once the run is stopped, as for `wall`.
    pub fn count(&self, to: u32, n: u64) {
        if !self.stopped() && !self.is_lost(to) {
            self.world.process_at_rank(to as i32).send_with_tag(&n, COUNT);
        }
    }

    /// A stonewalling count that has arrived, and its sender, if one has.
    pub fn count_from(&self) -> Option<(u32, u64)> {
        let st = self.world.any_process().immediate_probe_with_tag(COUNT)?;
        let (n, _) = self.world.process_at_rank(st.source_rank()).receive_with_tag::<u64>(COUNT);
        Some((st.source_rank() as u32, n))
    }

    /// Tells `to` that `failed` failed mid-test (unless `to` is lost).
    pub fn fail_notice(&self, to: u32, failed: u32) {
        if !self.is_lost(to) {
            self.world.process_at_rank(to as i32).send_with_tag(&failed, FAIL);
        }
    }

    /// The rank named by a failure notice that has arrived, if one has.
    pub fn failed_rank(&self) -> Option<u32> {
        let st = self.world.any_process().immediate_probe_with_tag(FAIL)?;
        let (failed, _) = self.world.process_at_rank(st.source_rank()).receive_with_tag::<u32>(FAIL);
        Some(failed)
    }

    /// Every rank's bytes, in rank order, on rank 0 (a lost rank's: None); None elsewhere.
    pub fn gather(&self, data: &[u8]) -> Option<Vec<Option<Vec<u8>>>> {
        if self.rank != 0 {
            self.send(0, data);
            return None;
        }
        let mut all = vec![Some(data.to_vec())];
        all.extend((1..self.size).map(|r| self.receive(r).ok()));
        Some(all)
    }

    /// Rank 0's bytes on every rank (what other ranks pass is ignored).
    pub fn broadcast(&self, data: &[u8]) -> Result<Vec<u8>, Lost> {
        if self.rank == 0 {
            for r in 1..self.size {
                self.send(r, data);
            }
            Ok(data.to_vec())
        } else {
            self.receive(0)
        }
    }

    /// Rank 0 times round trips to each rank in turn: offset = the rank's time − the midpoint
    /// of the fastest round trip. Every rank gets its own. Call right after a barrier, so the
    /// ranks answer at once.
    pub fn clock_offset(&self) -> ClockOffset {
        if self.rank == 0 {
            for r in 1..self.size {
                let p = self.world.process_at_rank(r as i32);
                let mut best = ClockOffset { offset_ns: 0, rtt_ns: i64::MAX };
                for _ in 0..PINGS {
                    let t1 = now_ns();
                    p.send_with_tag(&t1, STEP);
                    let (remote, _) = p.receive_with_tag::<i64>(STEP);
                    let t2 = now_ns();
                    if t2 - t1 < best.rtt_ns {
                        best = ClockOffset { offset_ns: remote - (t1 + (t2 - t1) / 2), rtt_ns: t2 - t1 };
                    }
                }
                p.send_with_tag(&[best.offset_ns, best.rtt_ns][..], STEP);
            }
            ClockOffset::default()
        } else {
            let p = self.world.process_at_rank(0);
            for _ in 0..PINGS {
                let _ = p.receive_with_tag::<i64>(STEP);
                p.send_with_tag(&now_ns(), STEP);
            }
            let (v, _) = p.receive_vec_with_tag::<i64>(STEP);
            ClockOffset { offset_ns: v[0], rtt_ns: v[1] }
        }
    }

    /// A common start, `lead` from now on rank 0's clock, as a time on rank 0's clock.
    pub fn start_time(&self, lead: Duration) -> Result<i64, Lost> {
        let t = (now_ns() + lead.as_nanos() as i64).to_le_bytes();
        let got = self.broadcast(&t)?;
        Ok(i64::from_le_bytes(got.try_into().unwrap_or([0; 8])))
    }
}

/// Sleeps until rank 0's clock reads `start_ns`, given this rank's offset to it.
pub fn wait_until(start_ns: i64, clock: ClockOffset) {
    let local = start_ns + clock.offset_ns;
    loop {
        let left = local - now_ns();
        if left <= 0 {
            return;
        }
        // Sleep most of the way, then poll the last stretch, which sleeping would overshoot.
        if left > 2_000_000 {
            std::thread::sleep(Duration::from_nanos((left - 1_000_000) as u64));
        } else {
            std::hint::spin_loop();
        }
    }
}

//! Every MPI call iolens makes: start-up, and the few messages a run needs (barrier, a start
//! time from rank 0, clock offsets, and each rank's status and result gathered to rank 0).
//! Waits poll with short sleeps instead of blocking in MPI, which spins: a rank that is done
//! must not take CPU time from ranks still measuring on the same machine.

use mpi::environment::Universe;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::Threading;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The run's steps, in order between any two ranks.
const STEP: i32 = 0;
/// Stonewall notices, which arrive while a test runs, whatever step the receiver is at.
const WALL: i32 = 1;

/// Round trips per rank when measuring clock offsets; the fastest one counts.
const PINGS: usize = 16;

pub struct Comm {
    // Finalizes MPI when dropped, after every message below has been delivered.
    _universe: Universe,
    world: SimpleCommunicator,
    rank: u32,
    size: u32,
    host: String,
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
    /// Starts MPI. Only the main thread makes MPI calls; the workers never do.
    pub fn init() -> anyhow::Result<Comm> {
        let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
            .ok_or_else(|| anyhow::anyhow!("--mpi: MPI was already initialised"))?;
        let world = universe.world();
        let host = mpi::environment::processor_name().unwrap_or_else(|_| "?".into());
        Ok(Comm { rank: world.rank() as u32, size: world.size() as u32, world, _universe: universe, host })
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

    pub fn send(&self, to: u32, data: &[u8]) {
        self.world.process_at_rank(to as i32).send_with_tag(data, STEP);
    }

    /// Receives the next message from `from`, sleeping between looks.
    pub fn receive(&self, from: u32) -> Vec<u8> {
        let p = self.world.process_at_rank(from as i32);
        while p.immediate_probe_with_tag(STEP).is_none() {
            std::thread::sleep(Duration::from_millis(1));
        }
        p.receive_vec_with_tag::<u8>(STEP).0
    }

    /// A stonewall notice to `to` (it carries no data: who sent it is the news).
    pub fn wall(&self, to: u32) {
        self.world.process_at_rank(to as i32).send_with_tag(&[0u8][..], WALL);
    }

    /// The sender of a stonewall notice that has arrived, if one has.
    pub fn wall_from(&self) -> Option<u32> {
        let st = self.world.any_process().immediate_probe_with_tag(WALL)?;
        let from = st.source_rank();
        let _ = self.world.process_at_rank(from).receive_vec_with_tag::<u8>(WALL);
        Some(from as u32)
    }

    /// Every rank's bytes, in rank order, on rank 0; None elsewhere.
    pub fn gather(&self, data: &[u8]) -> Option<Vec<Vec<u8>>> {
        if self.rank != 0 {
            self.send(0, data);
            return None;
        }
        let mut all = vec![data.to_vec()];
        all.extend((1..self.size).map(|r| self.receive(r)));
        Some(all)
    }

    /// Rank 0's bytes on every rank (what other ranks pass is ignored).
    pub fn broadcast(&self, data: &[u8]) -> Vec<u8> {
        if self.rank == 0 {
            for r in 1..self.size {
                self.send(r, data);
            }
            data.to_vec()
        } else {
            self.receive(0)
        }
    }

    /// Every rank has reached this point.
    pub fn barrier(&self) {
        self.gather(&[]);
        self.broadcast(&[]);
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
    pub fn start_time(&self, lead: Duration) -> i64 {
        let t = (now_ns() + lead.as_nanos() as i64).to_le_bytes();
        let got = self.broadcast(&t);
        i64::from_le_bytes(got.try_into().unwrap_or([0; 8]))
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

//! How a worker's loop met its completions (DiskSpd's `-vs` wait statistics): the calls that
//! waited for one, those that only looked aside at what was ready, and, paced, the waits and
//! sleeps the rate imposed.

use serde::{Deserialize, Serialize};

/// Counts over a worker's measured window. `wait[k]` and `lookaside[k]` count the calls that
/// took k completions (the last bucket: 7 or more), as DiskSpd's "0 - 7+ complete per wait".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitStats {
    /// The worker ran at a rate (DiskSpd's throttled thread).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub throttled: bool,
    /// Calls that may have blocked for a completion: with the queue full (or draining), and
    /// the `throttle_wait` ones.
    pub wait: [u64; 8],
    /// Calls that took what was ready without waiting: after a batch went out, or when the
    /// next paced I/O was already due.
    pub lookaside: [u64; 8],
    /// Waits for a completion while the rate held I/Os back (fewer in flight than the depth).
    pub throttle_wait: u64,
    /// Sleeps until the next paced I/O, nothing in flight.
    pub throttle_sleep: u64,
    /// Calls that handed a Windows IoRing its entries (DiskSpd's SubmitCount); 0 on other
    /// engines.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub submits: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl WaitStats {
    /// Counts one call that took `n` completions; `waited`: it may have blocked.
    #[inline]
    pub fn call(&mut self, waited: bool, n: usize) {
        let h = if waited { &mut self.wait } else { &mut self.lookaside };
        h[n.min(7)] += 1;
    }

    /// Waits with the queue full or draining: DiskSpd's "wait", which leaves the rate's out.
    pub fn full_waits(&self) -> u64 {
        self.wait.iter().sum::<u64>() - self.throttle_wait
    }

    pub fn lookasides(&self) -> u64 {
        self.lookaside.iter().sum()
    }

    /// Completions the calls took: Σ k × calls(k), the last bucket counted as 7.
    pub fn completions(&self) -> u64 {
        (0..8).map(|k| k as u64 * (self.wait[k] + self.lookaside[k])).sum()
    }
}

#[cfg(test)]
mod tests;

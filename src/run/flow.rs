//! fio's token-based flow control (flow.c): the jobs of a flow group share a count of issued
//! I/Os, and a worker whose own count is a larger share of it than its weight is of the group's
//! weight holds back. The counts then stay in the ratio of the weights, whatever each job's
//! speed on its own.

use crate::workload::{Flow, Spec};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One flow group: the I/Os its workers issued (from 1, as fio counts, so that no share is a
/// division by zero) and the weight of the workers still running.
struct Group {
    id: u32,
    issued: AtomicU64,
    weight: AtomicU64,
}

/// The flow groups of a run group, each worker's weight already counted in, so that no worker
/// starts out held back by a partner not yet registered.
#[derive(Default)]
pub struct Flows(Vec<Group>);

impl Flows {
    /// `workers` is how many workers each spec runs.
    pub fn of<'s>(specs: impl Iterator<Item = (&'s Spec, usize)>) -> Flows {
        let mut groups: Vec<Group> = Vec::new();
        for (f, n) in specs.filter_map(|(s, n)| s.flow.map(|f| (f, n))) {
            let at = match groups.iter().position(|g| g.id == f.id) {
                Some(i) => i,
                None => {
                    groups.push(Group { id: f.id, issued: AtomicU64::new(1), weight: AtomicU64::new(0) });
                    groups.len() - 1
                }
            };
            groups[at].weight.fetch_add(f.weight as u64 * n as u64, Relaxed);
        }
        Flows(groups)
    }

    /// A worker's place in its flow group, if its spec has one.
    pub fn member(&self, spec: &Spec) -> Option<Member<'_>> {
        let Flow { id, weight, sleep_us } = spec.flow?;
        let group = self.0.iter().find(|g| g.id == id)?;
        Some(Member { group, weight: weight as u64, own: 0, sleep_us })
    }
}

/// One worker in a flow group.
pub struct Member<'a> {
    group: &'a Group,
    weight: u64,
    own: u64,
    /// How long a held worker sleeps before trying again, µs.
    pub sleep_us: u64,
}

impl Member<'_> {
    /// Whether the worker must hold back: own / issued > weight / total weight.
    #[inline]
    pub fn held(&self) -> bool {
        let issued = self.group.issued.load(Relaxed) as u128;
        let total = self.group.weight.load(Relaxed) as u128;
        self.own as u128 * total > self.weight as u128 * issued
    }

    /// Counts one issued I/O.
    #[inline]
    pub fn took(&mut self) {
        self.group.issued.fetch_add(1, Relaxed);
        self.own += 1;
    }

    /// Takes the worker's I/Os and weight out of the group when it ends, so the workers still
    /// running are weighed against each other only (fio's flow_put).
    pub fn leave(&mut self) {
        self.group.issued.fetch_sub(self.own, Relaxed);
        self.group.weight.fetch_sub(self.weight, Relaxed);
        (self.own, self.weight) = (0, 0);
    }
}

#[cfg(test)]
mod tests;

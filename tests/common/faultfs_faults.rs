//! The fault file system's faults: what to break, the log of what was broken, and what
//! became of each fault (seen by a reader, hidden by a later write, or still pending), kept
//! with the files under one lock.

use rand::rngs::SmallRng;
use rand::Rng;
use std::collections::BTreeMap;
use std::fs::File;
use std::sync::Arc;
use std::time::Duration;

pub const KINDS: [&str; 7] = ["lost", "torn", "misdirect", "bitflip", "unread", "delay", "eio"];

/// What became of a fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// A write fault no read has met (yet, or before its file was removed).
    Pending,
    /// Handed to a reader (a read fault, or a read of a write fault's range).
    Seen,
    /// Overwritten, cut off or removed before any read met it: nothing can find it.
    Hidden,
}

#[derive(Debug, Clone)]
pub struct Injected {
    pub kind: &'static str,
    /// The file's name in the mount.
    pub file: String,
    pub offset: u64,
    pub len: u64,
    pub fate: Fate,
}

/// What to break, how often, and what was broken.
#[derive(Debug, Clone, Default)]
pub struct Faults {
    /// One of KINDS, or None for a healthy file system.
    pub kind: Option<&'static str>,
    pub rate: f64,
    /// Only requests of this many bytes are eligible (0: any).
    pub page: u32,
    /// Only requests to files whose name contains this are eligible (None: any).
    pub file: Option<String>,
    /// Break the `nth` eligible request of the fault's direction and no other (instead of `rate`).
    pub nth: Option<u64>,
    /// How late a `delay` answers.
    pub delay: Duration,
    /// Eligible requests of the fault's direction so far (what `nth` counts).
    pub eligible: u64,
    /// Faults injected, by kind (KINDS order).
    pub injected: [u64; 7],
    /// Eligible reads and writes served.
    pub reads: u64,
    pub writes: u64,
    pub log: Vec<Injected>,
}

impl Faults {
    pub fn of(kind: &'static str) -> Faults {
        Faults { kind: Some(kind), ..Default::default() }
    }

    pub fn count(&self, kind: &str) -> u64 {
        self.injected[KINDS.iter().position(|k| *k == kind).unwrap()]
    }

    pub fn with_fate(&self, fate: Fate) -> Vec<&Injected> {
        self.log.iter().filter(|i| i.fate == fate).collect()
    }
}

pub struct Node {
    pub name: String,
    pub file: Arc<File>,
    pub size: u64,
}

pub struct State {
    pub faults: Faults,
    pub rng: SmallRng,
    pub nodes: BTreeMap<u64, Node>,
    pub next_ino: u64,
    /// Indices in `faults.log` of write faults still pending.
    pub pending: Vec<usize>,
}

impl State {
    /// A new empty file (or the one of that name), kept in `dir`: its inode and size.
    pub fn create(&mut self, dir: &std::path::Path, name: &str) -> std::io::Result<(u64, u64)> {
        if let Some((&ino, n)) = self.nodes.iter().find(|(_, n)| n.name == name) {
            return Ok((ino, n.size));
        }
        let ino = self.next_ino;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(dir.join(ino.to_string()))?;
        self.next_ino += 1;
        self.nodes.insert(ino, Node { name: name.to_string(), file: Arc::new(file), size: 0 });
        Ok((ino, 0))
    }

    /// Marks the pending write faults of `file` that `hit` selects (by offset, length) as `fate`.
    pub fn settle(&mut self, file: &str, fate: Fate, hit: impl Fn(u64, u64) -> bool) {
        let log = &mut self.faults.log;
        self.pending.retain(|&i| {
            let f = &mut log[i];
            if f.file == file && hit(f.offset, f.len) {
                f.fate = fate;
                return false;
            }
            true
        });
    }

    /// The fault to apply to this request, counted and logged; None for most. Also settles
    /// the pending write faults the request meets.
    pub fn draw(&mut self, name: &str, offset: u64, len: usize, write: bool) -> Option<&'static str> {
        let end = offset + len as u64;
        if write {
            self.settle(name, Fate::Hidden, |o, l| o >= offset && o + l <= end);
        } else {
            self.settle(name, Fate::Seen, |o, l| o < end && offset < o + l);
        }
        let f = &mut self.faults;
        if (f.page != 0 && len != f.page as usize) || f.file.as_ref().is_some_and(|s| !name.contains(s.as_str())) {
            return None;
        }
        if write {
            f.writes += 1;
        } else {
            f.reads += 1;
        }
        let kind = f.kind?;
        if matches!(kind, "lost" | "torn") != write {
            return None;
        }
        f.eligible += 1;
        let hit = match f.nth {
            Some(n) => f.eligible == n,
            None => self.rng.random_bool(f.rate),
        };
        if !hit {
            return None;
        }
        f.injected[KINDS.iter().position(|k| *k == kind).unwrap()] += 1;
        let fate = if write { Fate::Pending } else { Fate::Seen };
        f.log.push(Injected { kind, file: name.to_string(), offset, len: len as u64, fate });
        if write {
            self.pending.push(f.log.len() - 1);
        }
        Some(kind)
    }
}

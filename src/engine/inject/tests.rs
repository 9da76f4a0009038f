use super::*;
use crate::result::verify::FindingClass;
use crate::verify::{check_page, mark_unread, stamp_page, Expect, Stamp};

/// A disk in memory, one I/O at a time: enough to see what the wrapper does to data.
struct Mem {
    disk: Vec<u8>,
    buf: Vec<u8>,
    pending: Option<IoReq>,
}

impl Engine for Mem {
    fn max_depth(&self) -> u32 {
        1
    }
    fn buffer(&mut self, _slot: u32) -> &mut [u8] {
        &mut self.buf
    }
    fn queue(&mut self, req: IoReq) {
        self.pending = Some(req);
    }
    fn submit_and_reap(&mut self, out: &mut [Completion], _min: usize, _t: Option<Duration>) -> io::Result<usize> {
        let Some(r) = self.pending.take() else { return Ok(0) };
        let (at, len) = (r.offset as usize, r.len as usize);
        match r.op {
            OpKind::Write => self.disk[at..at + len].copy_from_slice(&self.buf[..len]),
            OpKind::Read => self.buf[..len].copy_from_slice(&self.disk[at..at + len]),
            OpKind::Flush | OpKind::Trim => {}
        }
        out[0] = Completion { slot: r.slot, result: len as i64 };
        Ok(1)
    }
}

const PAGE: usize = 4096;
const PAGES: usize = 64;

fn stamp(page: usize, generation: u64) -> Stamp {
    Stamp { run_id: 9, file_id: 0, writer: 0, address: (page * PAGE) as u64, generation, time_ns: 0 }
}

fn io<E: Engine>(e: &mut E, op: OpKind, page: usize) -> i64 {
    e.queue(IoReq { slot: 0, file: 0, op, offset: (page * PAGE) as u64, len: PAGE as u32, ioprio: 0 });
    let mut out = [Completion::default()];
    assert_eq!(e.submit_and_reap(&mut out, 1, None).unwrap(), 1);
    out[0].result
}

/// Writes then reads every page `rounds` times through the wrapper, checking each read, and
/// returns what was injected and what the checks found, by class.
#[allow(clippy::needless_range_loop)]
fn exercise(rates: Inject, rounds: u64) -> (Injected, Vec<FindingClass>) {
    let mut disk = vec![0u8; PAGE * PAGES];
    for p in 0..PAGES {
        stamp_page(&mut disk[p * PAGE..(p + 1) * PAGE], 512, &stamp(p, 0));
    }
    let mem = Mem { disk, buf: vec![0; PAGE], pending: None };
    let mut e = Injecting::new(mem, rates, 42, 512, (0, (PAGE * PAGES) as u64));
    let mut gens = [0u64; PAGES];
    let mut found = Vec::new();
    for _ in 0..rounds {
        for p in 0..PAGES {
            gens[p] += 1;
            stamp_page(e.buffer(0), 512, &stamp(p, gens[p]));
            assert_eq!(io(&mut e, OpKind::Write, p), PAGE as i64);
            mark_unread(e.buffer(0), 512);
            assert_eq!(io(&mut e, OpKind::Read, p), PAGE as i64);
            let expect = Expect { run_id: 9, file_id: 0, address: (p * PAGE) as u64, generation: gens[p], pending: 0 };
            if let Some(bad) = check_page(e.buffer(0), 512, &expect) {
                found.push(bad.class);
                // What a verifying runner does next: the page is rewritten whole below.
            }
        }
    }
    (e.injected().unwrap(), found)
}

#[test]
fn each_fault_is_found_as_its_own_class_and_counted() {
    for (kind, class) in [
        ("lost", FindingClass::Stale),
        ("torn", FindingClass::Torn),
        ("misdirect", FindingClass::Misdirected),
        ("bitflip", FindingClass::Corrupt),
        ("unread", FindingClass::NeverRead),
    ] {
        let mut rates = Inject::default();
        match kind {
            "lost" => rates.lost = 0.1,
            "torn" => rates.torn = 0.1,
            "misdirect" => rates.misdirect = 0.1,
            "bitflip" => rates.bitflip = 0.1,
            _ => rates.unread = 0.1,
        }
        let (inj, found) = exercise(rates, 20);
        let n = inj.by_kind().iter().find(|k| k.0 == kind).unwrap().1;
        // 1,280 eligible I/Os at 10 %: about 128.
        assert!((80..180).contains(&n), "{kind}: {n} injected");
        assert_eq!(inj.by_kind().iter().map(|k| k.1).sum::<u64>(), n, "{kind}: only its own kind");
        assert_eq!(found.len() as u64, n, "{kind}: {found:?}");
        assert!(found.iter().all(|c| *c == class), "{kind}: {found:?}");
    }
}

#[test]
fn no_rates_no_faults_and_the_same_seed_repeats_them() {
    let (inj, found) = exercise(Inject::default(), 5);
    assert_eq!((inj, found.len()), (Injected::default(), 0));
    let rates = Inject { lost: 0.05, bitflip: 0.05, ..Inject::default() };
    let (a, fa) = exercise(rates, 5);
    let (b, fb) = exercise(rates, 5);
    assert_eq!((a, fa), (b, fb));
    assert!(a.lost > 0 && a.bitflip > 0);
}

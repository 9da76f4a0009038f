//! Which workers a job runs and what each is given: one per group of files × thread, a group
//! being one target, or with fio's nrfiles that many consecutive ones on handles of its own.

use super::{offsets, verifying, worker, Job, Layout, Mailbox, Shared};
use crate::workload::EngineKind;

type Verified = [(std::sync::Arc<verifying::VerifyTarget>, u32)];
type WorkerSet<'a> = Vec<(usize, worker::WorkerArgs<'a>, Files<'a>)>;

/// The workers of every job of a group, job by job.
pub(super) fn of_group<'a>(
    jobs: &[Job<'a>],
    layout: &Layout,
    engines: &[(EngineKind, u32)],
    (shared, mailboxes): (&'a Shared, &'a [Mailbox]),
    verified: &'a [Vec<(std::sync::Arc<verifying::VerifyTarget>, u32)>],
    run_id: u64,
) -> anyhow::Result<Vec<WorkerSet<'a>>> {
    jobs.iter()
        .enumerate()
        .map(|(k, job)| {
            let at = (k, layout.first[k], layout.count[k], engines[k].1);
            worker_args(job, at, shared, mailboxes, &verified[k], run_id)
        })
        .collect()
}

/// The files of one worker: its target's, or handles of its own on several (fio's nrfiles).
/// Their paths come along for engines that work on the names, not the handles (fio's file
/// and directory engines).
pub(super) enum Files<'a> {
    One(&'a std::fs::File, &'a std::path::Path),
    Many(Vec<std::fs::File>, Vec<&'a std::path::Path>),
}

impl Files<'_> {
    pub(super) fn as_slice(&self) -> &[std::fs::File] {
        match self {
            Files::One(f, _) => std::slice::from_ref(*f),
            Files::Many(v, _) => v,
        }
    }

    pub(super) fn paths(&self) -> Vec<std::path::PathBuf> {
        match self {
            Files::One(_, p) => vec![p.to_path_buf()],
            Files::Many(_, p) => p.iter().map(|p| p.to_path_buf()).collect(),
        }
    }
}

/// One worker per (group of files × thread) of a job: its global number, its arguments and
/// its files. A group is one target, or with fio's nrfiles that many consecutive ones.
fn worker_args<'a>(
    job: &Job<'a>,
    (k, first, count, depth): (usize, usize, usize, u32),
    shared: &'a Shared,
    mailboxes: &'a [Mailbox],
    verified: &'a Verified,
    run_id: u64,
) -> anyhow::Result<WorkerSet<'a>> {
    let spec = job.spec;
    let per = spec.files_per_worker();
    let mut out = Vec::with_capacity(count);
    for (ti, group) in job.targets.chunks(per).enumerate() {
        let t = &group[0];
        let shared_seq = spec.shared_seq.then(|| std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0)));
        for th in 0..spec.threads {
            let rank = ti * spec.threads as usize + th as usize;
            let w = first + rank;
            let (gen, files) = match spec.file_service {
                Some(fs) if per > 1 => {
                    let gens = group
                        .iter()
                        .enumerate()
                        .map(|(f, t)| offsets::OffsetGen::new(spec, t.plan.size, th, ((w as u64) << 20) | f as u64))
                        .collect();
                    let handles = group
                        .iter()
                        .map(|t| t.file.try_clone())
                        .collect::<std::io::Result<Vec<_>>>()
                        .map_err(|e| anyhow::anyhow!("opening {} again: {e}", t.plan.path.display()))?;
                    let paths = group.iter().map(|t| t.plan.path.as_path()).collect();
                    (offsets::Walk::new(gens, fs, spec.seed ^ w as u64), Files::Many(handles, paths))
                }
                _ => {
                    let gen = offsets::OffsetGen::new(spec, t.plan.size, th, w as u64);
                    let gen = match &shared_seq {
                        Some(pos) => gen.sharing(pos.clone()),
                        None => gen,
                    };
                    (offsets::Walk::one(gen), Files::One(&t.file, &t.plan.path))
                }
            };
            let args = worker::WorkerArgs {
                spec,
                shared,
                job: k,
                mailbox: &mailboxes[w],
                file: 0,
                gen: gen.replaying(spec.replay.as_ref()),
                index: w as u32,
                rank: rank as u32,
                workers: count as u32,
                depth,
                flow: shared.flows.member(spec),
                verify: spec.verify.as_ref().zip(verified.get(ti)).map(|(vs, (vt, unit))| verifying::VerifyArgs {
                    target: vt,
                    file: &t.file,
                    spec: vs,
                    run_id,
                    page: spec.verify_page() as u32,
                    max_block: spec.max_block() as u32,
                    unit: *unit,
                    share: (th, spec.threads),
                    read_back: spec.read_pct == 0 && vs.read_back,
                }),
                logs: shared.logs.of(w as u32),
            };
            out.push((w, args, files));
        }
    }
    Ok(out)
}

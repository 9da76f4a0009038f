//! Each worker's engine, chosen once at its start: the kind the job runs on, wrapped for fault
//! injection or tracing only when the run asks, so the plain path stays one monomorphic loop.

use super::{worker, Shared};
use crate::engine::{self, Engine, EngineSetup};
use crate::workload::EngineKind;
use std::sync::atomic::Ordering;

pub(super) fn start_worker(
    kind: EngineKind,
    setup: &EngineSetup,
    args: worker::WorkerArgs,
    sh: &Shared,
) -> Result<worker::WorkerRec, String> {
    fn traced<E: Engine>(e: E, args: worker::WorkerArgs, sh: &Shared) -> Result<worker::WorkerRec, String> {
        use engine::trace::Traced;
        let (t0, w) = (&sh.t0, args.index);
        let (csv, fio) = (sh.trace.as_ref(), sh.logs.iolog_of(w, t0));
        if csv.is_some() || fio.is_some() {
            worker::run(&mut Traced::new(e, w, csv, fio), args)
        } else {
            worker::run(&mut { e }, args)
        }
    }
    fn go<E: Engine>(e: Result<E, String>, args: worker::WorkerArgs, sh: &Shared) -> Result<worker::WorkerRec, String> {
        let seed = args.spec.seed ^ (args.index as u64 + 1).wrapping_mul(0x9e37_79b9);
        match e {
            Ok(e) => match args.verify.as_ref().and_then(|v| v.injector(seed)) {
                Some((rates, seed, unit, region)) => {
                    traced(engine::inject::Injecting::new(e, rates, seed, unit, region), args, sh)
                }
                None => traced(e, args, sh),
            },
            Err(msg) => {
                sh.abort.store(true, Ordering::Relaxed);
                sh.ready.wait();
                sh.start.wait();
                Err(msg)
            }
        }
    }
    match kind {
        #[cfg(target_os = "linux")]
        EngineKind::IoUring => {
            go(engine::io_uring::UringEngine::new(setup).map_err(|e| format!("setting up io_uring: {e}")), args, sh)
        }
        #[cfg(not(target_os = "linux"))]
        EngineKind::IoUring => go::<engine::psync::PsyncEngine>(Err("io_uring exists only on Linux".into()), args, sh),
        #[cfg(windows)]
        EngineKind::Iocp => {
            go(engine::iocp::IocpEngine::new(setup).map_err(|e| format!("setting up iocp: {e}")), args, sh)
        }
        #[cfg(not(windows))]
        EngineKind::Iocp => go::<engine::psync::PsyncEngine>(Err("iocp exists only on Windows".into()), args, sh),
        #[cfg(windows)]
        EngineKind::IoRing => {
            go(engine::ioring::IoRingEngine::new(setup).map_err(|e| format!("setting up ioring: {e}")), args, sh)
        }
        #[cfg(not(windows))]
        EngineKind::IoRing => go::<engine::psync::PsyncEngine>(Err("ioring exists only on Windows".into()), args, sh),
        EngineKind::Psync => {
            go(engine::psync::PsyncEngine::new(setup).map_err(|e| format!("setting up psync: {e}")), args, sh)
        }
        EngineKind::Null => {
            go(engine::null::NullEngine::new(setup).map_err(|e| format!("setting up null: {e}")), args, sh)
        }
        EngineKind::Meta(op) => {
            let e = engine::meta::MetaEngine::new(setup, op).map_err(|e| format!("setting up {}: {e}", op.name()));
            go(e, args, sh)
        }
    }
}

/// What a worker's engine is set up with for `spec`.
pub(super) fn engine_setup<'a>(
    spec: &crate::workload::Spec,
    files: &'a [std::fs::File],
    paths: &'a [std::path::PathBuf],
    depth: u32,
) -> EngineSetup<'a> {
    EngineSetup {
        files,
        paths,
        depth,
        buf_size: spec.max_block() as usize,
        apart: spec.buffers_apart as usize,
        // Verification checks what reads bring into the slot's one buffer, and stamps each
        // write anew there.
        mixed: spec.read_pct > 0 && spec.read_pct < 100 && spec.verify.is_none(),
        direct: spec.direct,
        write_through: spec.write_through,
        writes: spec.writes(),
        hint: spec.hint,
        bypass: spec.bypass,
        register: !spec.ring_unregistered,
    }
}

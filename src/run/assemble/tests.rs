use super::{short_queue, Parts};
use crate::run::live::Collector;
use crate::run::worker::WorkerRec;
use crate::stats::cpu::CpuSnapshot;
use crate::workload::EngineKind;
use crate::workload::Spec;
use std::time::{Duration, SystemTime};

fn parts<'a>(spec: &'a Spec, engine: EngineKind, recs: &'a [WorkerRec], collector: &'a Collector) -> Parts<'a> {
    Parts {
        spec,
        engine,
        depth: 32,
        notices: Vec::new(),
        started_at: SystemTime::now(),
        recs,
        collector,
        cpu: (CpuSnapshot::default(), CpuSnapshot::default(), Duration::ZERO),
        disks: Vec::new(),
        m_start: 0,
        interrupted: false,
        threads: 2,
        steady: None,
        dropped: None,
    }
}

/// Two workers at depth 32 asked for 64 in flight: under 95 % of it (60.8) is a shallower
/// queue's figures, said with the share; a paced run, a synchronous engine, a short run and
/// one cut short are not judged.
#[test]
fn a_short_queue_is_named_with_its_share() {
    let (spec, recs, collector) = (Spec::default(), [WorkerRec::default(), WorkerRec::default()], Collector::new(2));
    let p = parts(&spec, EngineKind::IoUring, &recs, &collector);
    assert_eq!(
        short_queue(&p, 48.0, 5.0).as_deref(),
        Some("kept 48.0 of the 64 I/Os asked for in flight on average (75 %): the figures are a shallower queue's")
    );
    assert_eq!(short_queue(&p, 60.8, 5.0), None);
    assert!(short_queue(&p, 60.7, 5.0).is_some());
    assert_eq!(short_queue(&p, 48.0, 0.9), None, "under a second");
    let cut = Parts { interrupted: true, ..parts(&spec, EngineKind::IoUring, &recs, &collector) };
    assert_eq!(short_queue(&cut, 48.0, 5.0), None, "interrupted");
    let sync = parts(&spec, EngineKind::Psync, &recs, &collector);
    assert_eq!(short_queue(&sync, 48.0, 5.0), None, "a synchronous engine");
    let paced = Spec { rate_iops: Some(100.0), ..Spec::default() };
    assert_eq!(short_queue(&parts(&paced, EngineKind::Iocp, &recs, &collector), 48.0, 5.0), None, "paced");
    assert!(short_queue(&parts(&spec, EngineKind::Iocp, &recs, &collector), 48.0, 5.0).is_some());
}

//! DiskSpd 2.3's switches, each as its own documentation writes them.

use super::super::{parse, DiskspdJob, R};
use crate::workload::{Bypass, EngineKind};

fn p(line: &str) -> R<DiskspdJob> {
    parse(&line.split_whitespace().map(String::from).collect::<Vec<_>>())
}

fn err(line: &str) -> (String, String) {
    let e = p(line).expect_err(line);
    (e.option, e.message)
}

#[test]
fn ioring_batches_a_share_of_the_queue_or_a_count() {
    let batch = |sw: &str| p(&format!("-o8 {sw} -c1M t.dat")).unwrap().spec.batch;
    // 25 % of -o by default, a count, a percentage, and n (no registered buffers) alike.
    assert_eq!([batch("-u"), batch("-u3"), batch("-u50p"), batch("-un8"), batch("-u99")], [2, 3, 4, 8, 8]);
    let j = p("-u -c1M t.dat").unwrap();
    assert!(
        j.notes.iter().any(|n| n.starts_with("-u: ") && n.ends_with("submitting 1 I/Os at a time")),
        "{:?}",
        j.notes
    );
    // Windows runs it on its ring (registered buffers unless -un); Linux on io_uring.
    let ring = |sw: &str| {
        let s = p(&format!("{sw} -c1M t.dat")).unwrap().spec;
        (s.engine, s.ring_unregistered)
    };
    if cfg!(windows) {
        assert_eq!([ring("-u"), ring("-un")], [(EngineKind::IoRing, false), (EngineKind::IoRing, true)]);
    } else {
        assert_eq!(ring("-u"), (EngineKind::NATIVE, false));
    }
    assert!(err("-u0 -c1M t.dat").1.contains("'-u0'"));
    assert!(err("-u101p -c1M t.dat").1.contains("percentage must be 1-100"));
}

#[test]
fn bypass_io_needs_unbuffered_io_and_is_refused_by_the_switch_typed() {
    assert_eq!(err("-Sy -c1M t.dat").1, "ERROR: BypassIO (-SY or -Sy) requires unbuffered IO (-Su)");
    assert_eq!(err("-Suy -w10 -c1M t.dat").1, "ERROR: BypassIO (-SY or -Sy) is only supported for read-only workloads");
    if cfg!(windows) {
        // Windows asks each handle for it when the run starts (tests/windows_diskspd.rs).
        let bypass = |line: &str| p(line).unwrap().spec.bypass;
        assert_eq!(
            [bypass("-Suy -c1M t.dat"), bypass("-SY -Su -c1M t.dat")],
            [Some(Bypass::Partial), Some(Bypass::Full)]
        );
        return;
    }
    let (option, why) = err("-Suy -c1M t.dat");
    assert!(option.contains("-Suy") || why.contains("'-Suy'"), "{option}: {why}");
    assert!(why.contains("BypassIO is not supported"), "{why}");
    assert!(err("-SY -Su -c1M t.dat").1.contains("'-SY'"));
}

#[test]
fn threads_are_held_to_cpus_as_the_affinity_switches_order_them() {
    use super::super::{hold_threads, Affinity, PeOrder};
    // A machine of four CPUs, each its own core, none an E-core.
    let held = |line: &str| -> R<Vec<u32>> {
        let mut j = p(line)?;
        hold_threads(&mut j, &[0, 1, 2, 3], &|c| c, &|_| false)?;
        Ok(j.spec.cpus)
    };
    // By default every CPU the process may use, in order; -n: none (the scheduler's choice).
    assert_eq!(held("-c1M t.dat").unwrap(), [0, 1, 2, 3]);
    assert!(held("-n -c1M t.dat").unwrap().is_empty());
    assert_eq!(err("-n -a0 -c1M t.dat").1, "ERROR: -n and -a parameters cannot be used together");
    assert_eq!(held("-a2,0 -c1M t.dat").unwrap(), [2, 0]);
    assert_eq!(held("-ag0,2,g0 -c1M t.dat").unwrap(), [2, 0, 1, 3], "CPU 2, then the rest of group 0");
    let bad = held("-a7 -c1M t.dat").unwrap_err();
    assert_eq!(bad.option, "-a7", "the switch as typed");
    assert!(bad.message.contains("CPU 7 is not one this process may run on (0-3)"), "{}", bad.message);
    assert!(err("-ag1,0 -c1M t.dat").1.contains("processor group 0 only"));
    assert!(err("-a0- -c1M t.dat").1.contains("syntax error parsing affinity"));
    for (sw, words) in [
        ("-ac", "core-aware, fill groups, P-cores first"),
        ("-as", "cpu order, span groups, P-cores first"),
        ("-aP", "cpu order, fill groups, fill P-cores first"),
        ("-ae", "cpu order, fill groups, E-cores first"),
        ("-aE", "cpu order, fill groups, fill E-cores first"),
        ("-aup", "cpu order, fill groups, no P/E order"),
        ("-acsE", "core-aware, span groups, fill E-cores first"),
    ] {
        assert_eq!(p(&format!("{sw} -c1M t.dat")).unwrap().extras.affinity.words(), words, "{sw}");
    }
    // Eight CPUs: cores of two SMT siblings (0/4, 1/5, 2/6, 3/7), CPUs 2, 3, 6 and 7 E-cores.
    let core = |c: u32| c % 4;
    let e = |c: u32| c % 4 >= 2;
    let all: Vec<u32> = (0..8).collect();
    let order = |a: Affinity| a.order(&all, &core, &e).unwrap();
    let with = |core_aware, pe| Affinity { core_aware, pe, ..Affinity::default() };
    assert_eq!(order(with(false, PeOrder::Unordered)), all);
    assert_eq!(order(with(false, PeOrder::PFirst)), [0, 1, 4, 5, 2, 3, 6, 7]);
    assert_eq!(order(with(true, PeOrder::Unordered)), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(order(with(true, PeOrder::PFirst)), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(order(with(true, PeOrder::EFirst)), [2, 3, 0, 1, 6, 7, 4, 5]);
    assert_eq!(order(with(true, PeOrder::FillPFirst)), [0, 1, 4, 5, 2, 3, 6, 7]);
    assert_eq!(order(with(true, PeOrder::FillEFirst)), [2, 3, 6, 7, 0, 1, 4, 5]);
    let listed = Affinity { cpus: vec![5, 4, 1], pe: PeOrder::Unordered, ..Affinity::default() };
    assert_eq!(order(listed), [5, 4, 1]);
}

#[test]
fn buffer_separation_completion_depth_and_system_only() {
    let j = p("-bsn -b8k -oc4 -c1M t.dat").unwrap();
    assert_eq!(j.spec.blocks[0].size, 8192, "-bsn is no block size");
    assert_eq!((j.spec.buffers_apart, j.extras.buffer_separation, j.extras.completion_depth), (0, false, Some(4)));
    assert_eq!(p("-bsp -c1M t.dat").unwrap().spec.buffers_apart, 16 << 20);
    assert_eq!(p("-c1M t.dat").unwrap().spec.buffers_apart, 16 << 20, "2.3's default");
    assert!(j.notes.iter().any(|n| n.starts_with("-oc4: ")));
    assert!(err("-bsx -c1M t.dat").1.contains("invalid buffer separation passed to -bs"));
    assert!(err("-oc17 -c1M t.dat").1.contains("completion depth (-oc) must be 1-16"));
    let s = p("-Rs").unwrap();
    assert!(s.system_only && s.results == Some(super::super::ResultsFormat::Text));
    assert_eq!(p("-Rsxml").unwrap().results, Some(super::super::ResultsFormat::Xml));
    assert!(err("-Rsjson").1.contains("invalid results format (-R): 'sjson'"));
}

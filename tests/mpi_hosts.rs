//! `--mpi` across hosts that are separate network stacks: each rank in a network namespace of
//! its own with its own hostname, OpenMPI over TCP on a bridge between them
//! (tests/common/netns.rs). The ranks must be told apart, their traffic must cross the
//! namespaces, and the combined result must be the ranks' sum. Needs root (namespaces, veth,
//! bridge) and OpenMPI's mpirun: skipped with the reason without them, failed under
//! IOLENS_REQUIRE_PRIVILEGED=1.
#![cfg(feature = "mpi")]

mod common;
use common::mpi::*;
use common::netns::Hosts;
use common::*;
use serde_json::Value;

/// Three hosts, or None (skipped) when this machine cannot make them.
fn hosts(p: &Privileged) -> Option<Hosts> {
    mpirun(p)?;
    p.need("root", root())?;
    p.need("network namespaces, veth pairs and a bridge (ip, CAP_NET_ADMIN)", Hosts::new(3))
}

fn read(dir: &std::path::Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}")).trim().to_string()
}

#[test]
fn ranks_in_separate_network_namespaces() {
    let p = Privileged::new();
    let Some(hosts) = hosts(&p) else { return };
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let target = dir.path().join("file.{rank}").display().to_string();
    let before: Vec<u64> = (0..3).map(|k| hosts.traffic(k)).collect();
    let args = ["run", "--mpi", "--duration", "2", "--size", "8M", "--qd", "2", "--format", "json", "--no-store"];
    let out = hosts.mpirun(dir.path(), &[&args[..], &[&target]].concat()).output().expect("running mpirun");
    let (code, stdout, stderr) = parts(&out);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not one JSON result ({e}): {stdout}"));
    let t = test0(&v);
    let ranks = t["ranks"].as_array().expect("ranks");
    assert_eq!(ranks.len(), 3, "{t}");
    // Each rank ran in its own network namespace, none of them this test's.
    let mine = std::fs::read_link("/proc/self/ns/net").unwrap().display().to_string();
    let spaces: Vec<String> = (0..3).map(|k| read(dir.path(), &format!("netns.{k}"))).collect();
    eprintln!("this test in {mine}; ranks in {spaces:?}");
    assert!(!spaces.contains(&mine) && spaces[0] != spaces[1] && spaces[1] != spaces[2] && spaces[0] != spaces[2]);
    for (k, r) in ranks.iter().enumerate() {
        assert_eq!(u(&r["rank"]), k as u64);
        // The row names the rank's own host, not rank 0's.
        assert_eq!(r["host"], hosts.names[k], "rank {k}");
        assert!(u(&r["ios"]) > 0);
        eprintln!(
            "rank {k}: host {}, {:.0} IOPS, clock offset {:.4} ms, round trip {:.4} ms",
            r["host"],
            f(&r["iops"]),
            f(&r["clock_offset_ms"]),
            f(&r["clock_rtt_ms"])
        );
        if k > 0 {
            assert!(f(&r["clock_rtt_ms"]) > 0.0, "rank {k}: {r}");
        }
    }
    // What ranks 1 and 2 sent rank 0 (their tests, histograms included) crossed their veth
    // pairs and rank 0's.
    let row = |k: usize| serde_json::to_string(&ranks[k]).unwrap().len() as u64;
    let sent: Vec<u64> = (0..3).map(|k| hosts.traffic(k) - before[k]).collect();
    eprintln!("bytes through the veth pairs: {sent:?}; rows of ranks 1, 2: {} B, {} B", row(1), row(2));
    assert!(sent[1] >= row(1) && sent[2] >= row(2) && sent[0] >= row(1) + row(2), "{sent:?}");
    let sum: f64 = ranks.iter().map(|r| f(&r["iops"])).sum();
    let iops = f(&t["total"]["iops"]);
    eprintln!("combined {iops:.1} IOPS, ranks' sum {sum:.1}");
    assert!((iops / sum - 1.0).abs() <= 0.01, "combined {iops:.1} IOPS, ranks' sum {sum:.1}");
    assert_eq!(u(&t["total"]["ios"]), ranks.iter().map(|r| u(&r["ios"])).sum::<u64>());
    assert_eq!(entries(dir.path()).iter().filter(|n| n.starts_with("file.")).count(), 0);
}

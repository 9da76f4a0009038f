//! Hosts for the multi-host tests on one machine: each rank in a network namespace of its own,
//! joined to the others by a veth pair to one bridge in a private /24, with a hostname of its
//! own (a UTS namespace), and OpenMPI's traffic over TCP on those addresses only. Everything is
//! removed when the `Hosts` is dropped, a failed test's included.
//!
//! What OpenMPI needs (found by trying, OpenMPI 4.1 with PMIx 4.2): the ranks reach mpirun's
//! PMIx server over TCP, which listens on loopback only unless told to accept remote
//! connections on the bridge (`PMIX_MCA_ptl_tcp_remote_connections=1`,
//! `PMIX_MCA_ptl_tcp_if_include=SUBNET`; without them every rank fails in MPI_Init with "OPAL
//! ERROR: Unreachable in file ext3x_client.c"); the ranks talk to each other with the TCP BTL
//! on the subnet only (`--mca btl tcp,self`: the shared-memory BTL would work across network
//! namespaces and bypass them).

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

pub struct Hosts {
    /// Unique to this test: the prefix of every name below.
    tag: String,
    pub netns: Vec<String>,
    /// The root's end of each rank's veth pair (its byte counters show the rank's traffic).
    pub veths: Vec<String>,
    pub bridge: String,
    /// "10.77.N.0/24"
    pub subnet: String,
    /// Each rank's address in the subnet.
    pub addrs: Vec<String>,
    /// Each rank's hostname.
    pub names: Vec<String>,
}

fn ip(args: &str) -> Result<(), String> {
    let out = Command::new("ip").args(args.split(' ')).output().map_err(|e| format!("cannot run `ip`: {e}"))?;
    if !out.status.success() {
        return Err(format!("`ip {args}` failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(())
}

fn listing(args: &[&str]) -> String {
    Command::new("ip").args(args).output().map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default()
}

impl Hosts {
    /// `n` namespaces on a bridge; Err when this machine cannot make them (not root, no
    /// `ip`, no CAP_NET_ADMIN).
    pub fn new(n: usize) -> Result<Hosts, String> {
        static SEQ: AtomicU32 = AtomicU32::new(0);
        let seq = SEQ.fetch_add(1, Ordering::Relaxed);
        let pid = std::process::id();
        let tag = format!("iol{}x{seq}", pid % 100_000);
        // A /24 no interface or route of this machine uses yet.
        let used = listing(&["-4", "addr"]) + &listing(&["-4", "route"]);
        let third = (0..250u32)
            .map(|k| (pid.wrapping_mul(7).wrapping_add(seq * 31 + k)) % 250 + 1)
            .find(|t| !used.contains(&format!("10.77.{t}.")))
            .ok_or("no free 10.77.N.0/24")?;
        let net = format!("10.77.{third}");
        let mut h = Hosts {
            bridge: format!("{tag}b"),
            netns: Vec::new(),
            veths: Vec::new(),
            subnet: format!("{net}.0/24"),
            addrs: (0..n).map(|k| format!("{net}.{}", k + 1)).collect(),
            names: (0..n).map(|k| format!("{tag}h{k}")).collect(),
            tag,
        };
        // Whatever was made before a failure goes when `h` is dropped.
        ip(&format!("link add {} type bridge", h.bridge))?;
        ip(&format!("addr add {net}.254/24 dev {}", h.bridge))?;
        ip(&format!("link set {} up", h.bridge))?;
        for k in 0..n {
            let (ns, veth) = (format!("{}n{k}", h.tag), format!("{}v{k}", h.tag));
            ip(&format!("netns add {ns}"))?;
            h.netns.push(ns.clone());
            ip(&format!("link add {veth} type veth peer name eth0 netns {ns}"))?;
            h.veths.push(veth.clone());
            ip(&format!("link set {veth} master {} up", h.bridge))?;
            ip(&format!("-n {ns} addr add {}/24 dev eth0", h.addrs[k]))?;
            ip(&format!("-n {ns} link set eth0 up"))?;
            ip(&format!("-n {ns} link set lo up"))?;
        }
        Ok(h)
    }

    /// Bytes through rank `k`'s veth pair so far, both ways.
    pub fn traffic(&self, k: usize) -> u64 {
        ["rx_bytes", "tx_bytes"]
            .iter()
            .map(|c| {
                let p = format!("/sys/class/net/{}/statistics/{c}", self.veths[k]);
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}")).trim().parse::<u64>().unwrap()
            })
            .sum()
    }

    /// `mpirun` running `iolens ARGS` as one rank in each namespace, under that rank's hostname.
    /// Each rank first writes its network namespace (`readlink /proc/self/ns/net`) to
    /// `dir/netns.K` and its process id (iolens's, as the shell execs it) to `dir/pid.K`.
    pub fn mpirun(&self, dir: &Path, args: &[&str]) -> Command {
        let mut c = Command::new("mpirun");
        c.args(["--allow-run-as-root", "--oversubscribe", "--mca", "btl", "tcp,self"]);
        c.args(["--mca", "btl_tcp_if_include", &self.subnet]);
        c.env("PMIX_MCA_ptl_tcp_remote_connections", "1").env("PMIX_MCA_ptl_tcp_if_include", &self.subnet);
        c.env("IOLENS_STORE", super::test_store());
        let script = r#"hostname "$1" && readlink /proc/self/ns/net > "$2/netns.$3" && echo $$ > "$2/pid.$3" && shift 3 && exec "$@""#;
        for (k, ns) in self.netns.iter().enumerate() {
            if k > 0 {
                c.arg(":");
            }
            c.args(["-np", "1", "ip", "netns", "exec", ns, "unshare", "--uts", "sh", "-c", script, "sh"]);
            c.args([&self.names[k], &dir.display().to_string(), &k.to_string(), env!("CARGO_BIN_EXE_iolens")]);
            c.args(args);
        }
        c
    }
}

impl Drop for Hosts {
    fn drop(&mut self) {
        // Deleting a namespace deletes its end of the veth pair, and with it the pair.
        for ns in &self.netns {
            let _ = ip(&format!("netns del {ns}"));
        }
        let _ = ip(&format!("link del {}", self.bridge));
    }
}

//! `<System>` of `-Rxml`: the machine, the tool, the power policy and the processor topology
//! (one group, its NUMA nodes, sockets, cores and caches), from the facts the host read off the OS;
//! `-Rsxml` prints it alone.

use super::diskspd_time;
use crate::report::diskspd::profile::{mask, XmlOut};
use crate::result::host::CacheKind;
use crate::result::{CpuPlace, Host};
use std::collections::BTreeMap;

/// The release date of this version, in DiskSpd's y/m/d without leading zeros; moves with the
/// version in Cargo.toml.
const VERSION_DATE: &str = "2026/11/25";

pub(super) fn system(x: &mut XmlOut, h: &Host, version: &str, started_at: &str) {
    x.open("System");
    x.leaf("ComputerName", &h.hostname);
    x.leaf("ProcessorName", &h.cpu_model);
    x.open("Tool");
    x.leaf("Version", format!("iolens {version}"));
    x.leaf("VersionDate", VERSION_DATE);
    x.close("Tool");
    x.leaf("RunTime", diskspd_time(started_at));
    // Linux's cpufreq governor stands for Windows' power scheme; it has no GUID.
    x.empty(
        "PowerScheme",
        &[("Name", h.power_scheme.clone().unwrap_or_else(|| "<unknown>".into())), ("Guid", String::new())],
    );
    if let Some(p) = h.page_size {
        x.leaf("PageSize", p);
    }
    x.open_with("ProcessorTopology", &[("Heterogeneous", "false".into())]);
    let all = mask(h.cpus.iter().map(|c| c.cpu)).unwrap_or_else(|| mask(0..h.cores).unwrap_or_default());
    x.empty(
        "Group",
        &[
            ("Group", "0".into()),
            ("MaximumProcessors", h.cores.to_string()),
            ("ActiveProcessors", h.cores.to_string()),
            ("ActiveProcessorMask", all),
        ],
    );
    // Where the host's placement of CPUs was not read (Windows, older results), each CPU is a
    // core of its own on one socket and node: what DiskSpd reports of a VM's flat topology.
    let flat: Vec<CpuPlace>;
    let cpus = if h.cpus.is_empty() {
        flat = (0..h.cores).map(|c| CpuPlace { cpu: c, core: c, socket: 0, node: 0 }).collect();
        &flat
    } else {
        &h.cpus
    };
    grouped(x, cpus, "Node", |c| c.node);
    grouped(x, cpus, "Socket", |c| c.socket);
    let mut cores: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for c in cpus {
        cores.entry(c.core).or_default().push(c.cpu);
    }
    for (core, cpus) in cores {
        x.empty(
            "Core",
            &[
                ("Group", "0".into()),
                ("Core", core.to_string()),
                ("Mask", mask(cpus.into_iter()).unwrap_or_default()),
                ("EfficiencyClass", "0".into()),
            ],
        );
    }
    for c in &h.caches {
        let kind = match c.kind {
            CacheKind::Data => "Data",
            CacheKind::Instruction => "Instruction",
            CacheKind::Unified => "Unified",
        };
        x.open_with(
            "Cache",
            &[
                ("Level", c.level.to_string()),
                // Windows' 0xFF is a fully associative cache.
                ("Associativity", if c.ways == 0 { "255".into() } else { c.ways.to_string() }),
                ("LineSize", c.line_bytes.to_string()),
                ("CacheSize", c.size_bytes.to_string()),
                ("Type", kind.into()),
            ],
        );
        x.empty("Group", &[("Group", "0".into()), ("Mask", mask(c.cpus.iter().copied()).unwrap_or_default())]);
        x.close("Cache");
    }
    x.close("ProcessorTopology");
    x.close("System");
}

/// `<Node Node="0"><Group Group="0" Mask="0x3"/></Node>` and the like for sockets.
fn grouped(x: &mut XmlOut, cpus: &[CpuPlace], name: &str, key: fn(&CpuPlace) -> u32) {
    let mut by: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for c in cpus {
        by.entry(key(c)).or_default().push(c.cpu);
    }
    for (k, members) in by {
        x.open_with(name, &[(name, k.to_string())]);
        x.empty("Group", &[("Group", "0".into()), ("Mask", mask(members.into_iter()).unwrap_or_default())]);
        x.close(name);
    }
}

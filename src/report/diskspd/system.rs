//! The text's "System information", in DiskSpd 2.3's layout: the machine's values in one
//! column, the processor topology counts and the table of CPU caches; `-Rs` prints it alone.

use super::{diskspd_time, file_size};
use crate::result::host::{Cache, CacheKind};
use crate::result::Host;
use crate::workload::cpus::cpu_ranges;
use std::collections::BTreeSet;
use std::fmt::Write;

/// "  computer name:        vm": the label and its colon in 22 columns after two spaces.
fn field(o: &mut String, label: &str, value: impl std::fmt::Display) {
    let _ = writeln!(o, "  {:<22}{value}", format!("{label}:"));
}

pub(super) fn system(o: &mut String, h: &Host, started_at: Option<&str>) {
    let _ = writeln!(o, "System information:\n");
    field(o, "computer name", &h.hostname);
    field(o, "processor name", &h.cpu_model);
    if let Some(t) = started_at {
        field(o, "start time", diskspd_time(t));
    }
    field(o, "active power scheme", h.power_scheme.as_deref().unwrap_or("<unknown>"));
    if let Some(p) = h.page_size {
        field(o, "page size", file_size(p));
    }
    let _ = writeln!(o);
    let count = |f: fn(&crate::result::CpuPlace) -> u32| h.cpus.iter().map(f).collect::<BTreeSet<_>>().len().max(1);
    let cores = if h.cpus.is_empty() { h.cores as usize } else { count(|c| c.core) };
    field(o, "cpu count", h.cores);
    field(o, "core count", cores);
    // Linux has no processor groups: all CPUs are one group, as on Windows up to 64 of them.
    field(o, "group count", 1);
    field(o, "node count", count(|c| c.node));
    field(o, "socket count", count(|c| c.socket));
    // P- and E-cores are not recorded in a result: a machine counts as one of equal cores.
    field(o, "heterogeneous cores", "n");
    if !h.caches.is_empty() {
        let _ = writeln!(o, "\n  cache information:\n");
        caches(o, h);
    }
}

/// One row per kind of cache (level, type, size, line, ways), its instances' CPUs together.
fn caches(o: &mut String, h: &Host) {
    let _ = writeln!(o, "    Cache |   Size   | Line  | Assoc  | CPU\n    {}", "-".repeat(55));
    let key = |c: &Cache| {
        (c.level, c.kind != CacheKind::Data, c.kind == CacheKind::Unified, c.size_bytes, c.line_bytes, c.ways)
    };
    let mut kinds: Vec<&Cache> = Vec::new();
    for c in &h.caches {
        if !kinds.iter().any(|k| key(k) == key(c)) {
            kinds.push(c);
        }
    }
    kinds.sort_by_key(|c| key(c));
    for k in kinds {
        let same: Vec<&Cache> = h.caches.iter().filter(|c| key(c) == key(k)).collect();
        let cpus: Vec<u32> = same.iter().flat_map(|c| c.cpus.iter().copied()).collect();
        let name = format!(
            "L{}{}",
            k.level,
            match k.kind {
                CacheKind::Data => "d",
                CacheKind::Instruction => "i",
                CacheKind::Unified => "",
            }
        );
        let ways = if k.ways == 0 { "full".to_string() } else { format!("{}-way", k.ways) };
        // Instances of one CPU each are DiskSpd's "(per cpu)"; of one core's CPUs, per core.
        let per = if same.len() < 2 {
            ""
        } else if same.iter().all(|c| c.cpus.len() == 1) {
            " (per cpu)"
        } else if same.iter().all(|c| one_core(h, &c.cpus)) {
            " (per core)"
        } else {
            ""
        };
        let _ = writeln!(
            o,
            "    {name:<5} | {:>8} | {:>4}B | {ways:>6} | {}{per}",
            file_size(k.size_bytes),
            k.line_bytes,
            cpu_ranges(&cpus)
        );
    }
}

/// Are these the CPUs of one core?
fn one_core(h: &Host, cpus: &[u32]) -> bool {
    let cores: BTreeSet<u32> = h.cpus.iter().filter(|p| cpus.contains(&p.cpu)).map(|p| p.core).collect();
    cores.len() == 1
}

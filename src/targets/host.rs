//! Facts about the machine and the targets, read where the OS keeps them (/proc, /sys, DMI; on
//! Windows the registry and the volume, in `windows/facts.rs`): the platform half of
//! `result::host`, which only holds the schema.

use crate::result::host::{Host, TargetInfo, TargetKind};
use std::fs;
use std::path::{Path, PathBuf};

fn read_trim(p: impl AsRef<Path>) -> Option<String> {
    let s = fs::read_to_string(p).ok()?;
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

/// A field of /proc/meminfo ("MemTotal:", "MemAvailable:"), in bytes.
#[cfg(unix)]
fn meminfo(field: &str) -> Option<u64> {
    let t = fs::read_to_string("/proc/meminfo").ok()?;
    let line = t.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kib| kib * 1024)
}

/// The memory a run can still take without pushing other programs out, in bytes.
pub fn memory_available() -> Option<u64> {
    #[cfg(unix)]
    {
        meminfo("MemAvailable:")
    }
    #[cfg(windows)]
    {
        super::os::memory_available()
    }
}

/// Do two paths name the same file (existing or about to be created)?
pub fn same_file(a: &Path, b: &Path) -> bool {
    if let Some(same) = super::os::same_file(a, b) {
        return same;
    }
    let norm = |p: &Path| {
        let parent = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        fs::canonicalize(parent).ok().map(|d| d.join(p.file_name().unwrap_or_default()))
    };
    norm(a).is_some() && norm(a) == norm(b)
}

/// The machine running iolens, with the targets it tests.
#[cfg(windows)]
pub fn detect(targets: Vec<TargetInfo>) -> Host {
    super::os::host(targets)
}

/// The machine running iolens, with the targets it tests.
#[cfg(unix)]
pub fn detect(targets: Vec<TargetInfo>) -> Host {
    let cpu_model = fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name") || l.starts_with("Processor"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let memory_bytes = meminfo("MemTotal:").unwrap_or(0);
    Host {
        hostname: read_trim("/proc/sys/kernel/hostname").unwrap_or_else(|| "unknown".into()),
        os: read_trim("/etc/os-release")
            .and_then(|t| {
                t.lines().find_map(|l| l.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_string()))
            })
            .unwrap_or_else(|| std::env::consts::OS.into()),
        kernel: read_trim("/proc/sys/kernel/osrelease").unwrap_or_else(|| "unknown".into()),
        arch: std::env::consts::ARCH.into(),
        cpu_model,
        cores: crate::stats::cpu::online_cpus(),
        memory_bytes,
        vm_vendor: read_trim("/sys/class/dmi/id/sys_vendor"),
        vm_product: read_trim("/sys/class/dmi/id/product_name"),
        targets,
        cpus: cpu_places(),
        power_scheme: read_trim("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        // SAFETY: sysconf has no preconditions.
        page_size: u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok().filter(|&p| p > 0),
        caches: caches(),
    }
}

/// Every cache instance of the online CPUs, from /sys/devices/system/cpu/cpuN/cache/indexK,
/// each once (the first CPU that shares it names it).
#[cfg(unix)]
fn caches() -> Vec<crate::result::host::Cache> {
    use crate::result::host::{Cache, CacheKind};
    let sys = Path::new("/sys/devices/system/cpu");
    let Some(online) = read_trim(sys.join("online")) else { return Vec::new() };
    let mut out: Vec<Cache> = Vec::new();
    for cpu in cpu_list(&online) {
        for k in 0.. {
            let d = sys.join(format!("cpu{cpu}/cache/index{k}"));
            let Some(level) = read_trim(d.join("level")).and_then(|l| l.parse().ok()) else { break };
            let kind = match read_trim(d.join("type")).as_deref() {
                Some("Data") => CacheKind::Data,
                Some("Instruction") => CacheKind::Instruction,
                _ => CacheKind::Unified,
            };
            let num = |f: &str| read_trim(d.join(f)).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            // "48K", "2048K", "300M".
            let size_bytes = read_trim(d.join("size")).map_or(0, |s| {
                let (n, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
                n.parse::<u64>().unwrap_or(0)
                    << match unit {
                        "K" => 10,
                        "M" => 20,
                        "G" => 30,
                        _ => 0,
                    }
            });
            let cpus = read_trim(d.join("shared_cpu_list")).map_or_else(|| vec![cpu], |l| cpu_list(&l));
            let c = Cache {
                level,
                kind,
                size_bytes,
                line_bytes: num("coherency_line_size") as u32,
                ways: num("ways_of_associativity") as u32,
                cpus,
            };
            if !out.iter().any(|o| o.level == c.level && o.kind == c.kind && o.cpus == c.cpus) {
                out.push(c);
            }
        }
    }
    out
}

/// The CPUs Linux counts as efficiency cores on a hybrid processor (Intel's E-cores); empty on
/// others.
#[cfg(unix)]
pub(crate) fn efficiency_cores() -> Vec<u32> {
    read_trim("/sys/devices/cpu_atom/cpus").map(|l| cpu_list(&l)).unwrap_or_default()
}

/// Windows' efficiency classes are not read: every CPU counts as a P-core.
#[cfg(windows)]
pub(crate) fn efficiency_cores() -> Vec<u32> {
    Vec::new()
}

/// Windows' topology is not read: each CPU a core of its own.
#[cfg(windows)]
pub(crate) fn cpu_places() -> Vec<crate::result::CpuPlace> {
    Vec::new()
}

/// Each online CPU's core, socket and NUMA node, from /sys/devices/system/cpu and node.
#[cfg(unix)]
pub(crate) fn cpu_places() -> Vec<crate::result::CpuPlace> {
    let sys = Path::new("/sys/devices/system");
    let Some(online) = read_trim(sys.join("cpu/online")) else { return Vec::new() };
    let mut node_of = std::collections::HashMap::new();
    for entry in fs::read_dir(sys.join("node")).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(node) = name.strip_prefix("node").and_then(|n| n.parse::<u32>().ok()) else { continue };
        for cpu in read_trim(entry.path().join("cpulist")).map(|l| cpu_list(&l)).unwrap_or_default() {
            node_of.insert(cpu, node);
        }
    }
    // Linux's core_id repeats across sockets and may skip numbers; DiskSpd counts cores 0, 1, ….
    let mut cores: Vec<(u32, u32)> = Vec::new();
    cpu_list(&online)
        .into_iter()
        .map(|cpu| {
            let topo = sys.join(format!("cpu/cpu{cpu}/topology"));
            let num = |f: &str| read_trim(topo.join(f)).and_then(|v| v.parse::<u32>().ok()).unwrap_or(0);
            let key = (num("physical_package_id"), num("core_id"));
            let core = cores.iter().position(|c| *c == key).unwrap_or_else(|| {
                cores.push(key);
                cores.len() - 1
            });
            crate::result::CpuPlace {
                cpu,
                core: core as u32,
                socket: key.0,
                node: node_of.get(&cpu).copied().unwrap_or(0),
            }
        })
        .collect()
}

/// "0-3,8,10-11" → [0, 1, 2, 3, 8, 10, 11].
#[cfg(unix)]
fn cpu_list(s: &str) -> Vec<u32> {
    s.split(',')
        .filter_map(|r| {
            let (a, b) = r.split_once('-').unwrap_or((r, r));
            Some(a.trim().parse::<u32>().ok()?..=b.trim().parse::<u32>().ok()?)
        })
        .flatten()
        .collect()
}

pub fn is_block_device(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| super::os::is_block_device(&m))
}

/// Describes a target that exists (a file iolens may just have created, or a device).
pub fn describe(path: &Path, size_bytes: u64, created: bool) -> TargetInfo {
    let meta = fs::metadata(path).ok();
    let is_block = meta.as_ref().is_some_and(super::os::is_block_device);
    let dev = meta.as_ref().and_then(super::os::device_number);
    let sys = dev.and_then(sys_block_dir);
    let queue = sys.as_ref().map(|d| d.join("queue"));
    let canon = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mount = if is_block { None } else { mount_of(&canon) };
    #[allow(unused_mut)] // Windows fills the volume's facts in.
    let mut t = TargetInfo {
        path: path.display().to_string(),
        kind: if is_block { TargetKind::BlockDevice } else { TargetKind::File },
        size_bytes,
        created,
        device: sys.as_ref().and_then(|d| d.file_name()).map(|n| n.to_string_lossy().into_owned()),
        model: sys.as_ref().and_then(|d| device_model(d)),
        scheduler: queue.as_ref().and_then(|q| read_trim(q.join("scheduler"))).map(|s| {
            s.split_whitespace()
                .find(|w| w.starts_with('['))
                .map(|w| w.trim_matches(|c| c == '[' || c == ']').to_string())
                .unwrap_or(s)
        }),
        rotational: queue.as_ref().and_then(|q| read_trim(q.join("rotational"))).map(|r| r == "1"),
        logical_block_size: queue.as_ref().and_then(|q| read_trim(q.join("logical_block_size"))?.parse().ok()),
        filesystem: mount.as_ref().map(|m| m.1.clone()),
        mount_point: mount.map(|m| m.0),
        cluster_bytes: None,
        bus: None,
    };
    #[cfg(windows)]
    super::os::describe_volume(&mut t, path);
    t
}

/// "Msft Virtual Disk", "Amazon Elastic Block Store", "virtio block device", "loop on /x.img".
fn device_model(d: &Path) -> Option<String> {
    let vendor = read_trim(d.join("device/vendor"));
    if let Some(model) = read_trim(d.join("device/model")) {
        return Some(match vendor {
            Some(v) if !v.starts_with("0x") && !model.starts_with(&v) => format!("{v} {model}"),
            _ => model,
        });
    }
    if let Some(b) = read_trim(d.join("loop/backing_file")) {
        return Some(format!("loop on {b}"));
    }
    match vendor.as_deref() {
        // Red Hat's PCI vendor id: virtio devices name no model of their own.
        Some("0x1af4") => Some("virtio block device".into()),
        _ => vendor,
    }
}

/// /sys/block/<disk> for a device number; a partition resolves to its whole disk, which is
/// where the queue settings live.
#[cfg(unix)]
fn sys_block_dir(dev: u64) -> Option<PathBuf> {
    let (maj, min) = super::os::major_minor(dev);
    let link = fs::canonicalize(format!("/sys/dev/block/{maj}:{min}")).ok()?;
    if link.join("queue").exists() {
        Some(link)
    } else if link.join("partition").exists() {
        link.parent().map(Path::to_path_buf)
    } else {
        Some(link)
    }
}

/// The logical sector size of the device `path` is on (a new file: its directory's), which
/// unbuffered I/O must align to; None where it cannot be told.
pub fn sector_size(path: &Path) -> Option<u64> {
    #[cfg(windows)]
    if super::os::is_device_name(path) {
        return super::os::sector_size(path);
    }
    let existing = if path.exists() { path } else { path.parent().filter(|p| !p.as_os_str().is_empty())? };
    #[cfg(unix)]
    {
        let dev = super::os::device_number(&fs::metadata(existing).ok()?)?;
        read_trim(sys_block_dir(dev)?.join("queue/logical_block_size"))?.parse().ok()
    }
    #[cfg(windows)]
    {
        super::os::sector_size(existing)
    }
}

/// Windows has no sysfs (and no device numbers to look one up by).
#[cfg(windows)]
fn sys_block_dir(_: u64) -> Option<PathBuf> {
    None
}

/// (mount point, filesystem type) of the longest mount point containing `path`.
#[cfg(unix)]
fn mount_of(path: &Path) -> Option<(String, String)> {
    let text = fs::read_to_string("/proc/self/mountinfo").ok()?;
    let mut best: Option<(String, String)> = None;
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let Some(sep) = f.iter().position(|x| *x == "-") else { continue };
        let (Some(mp), Some(fstype)) = (f.get(4), f.get(sep + 1)) else { continue };
        let mp = mp.replace("\\040", " ");
        if path.starts_with(&mp) && best.as_ref().is_none_or(|b| mp.len() >= b.0.len()) {
            best = Some((mp, fstype.to_string()));
        }
    }
    best
}

/// Under wine /proc is readable through drive Z:, but it is the Linux host's: the volume's
/// facts come from Windows (`describe_volume`).
#[cfg(windows)]
fn mount_of(_: &Path) -> Option<(String, String)> {
    None
}

/// Is this block device (or a partition of it) mounted? Writes to it are then refused.
#[cfg(unix)]
pub fn device_mounted(dev_path: &Path) -> Option<String> {
    let rdev = super::os::device_number(&fs::metadata(dev_path).ok()?)?;
    let (maj, min) = super::os::major_minor(rdev);
    let whole = sys_block_dir(rdev)?;
    let text = fs::read_to_string("/proc/self/mountinfo").ok()?;
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let Some((a, b)) = f.get(2).and_then(|d| d.split_once(':')) else { continue };
        let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) else { continue };
        let same = (a, b) == (maj, min);
        let part_of = fs::canonicalize(format!("/sys/dev/block/{a}:{b}"))
            .ok()
            .is_some_and(|p| p.parent() == Some(whole.as_path()) && p != whole);
        let is_whole_of_us = fs::canonicalize(format!("/sys/dev/block/{a}:{b}")).ok().as_deref()
            == Some(whole.as_path())
            && (maj, min) != (a, b);
        if same || part_of || is_whole_of_us {
            return Some(f.get(4).unwrap_or(&"?").to_string());
        }
    }
    None
}

/// Windows's disks and volumes are refused before this is asked (`plan`): there is no block
/// device to be mounted.
#[cfg(windows)]
pub fn device_mounted(_: &Path) -> Option<String> {
    None
}

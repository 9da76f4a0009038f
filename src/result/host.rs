//! Who ran the test and on what: enough to tell runs from different machines apart and to
//! recognise a cloud VM (Azure, AWS and GCP identify themselves through DMI). The schema only:
//! `targets::host` reads these facts off the machine.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Host {
    pub hostname: String,
    pub os: String,
    pub kernel: String,
    pub arch: String,
    pub cpu_model: String,
    pub cores: u32,
    pub memory_bytes: u64,
    /// DMI system vendor: "Microsoft Corporation" (Azure, Hyper-V), "Amazon EC2", "Google", "VMware, Inc." …
    pub vm_vendor: Option<String>,
    /// DMI product: "Virtual Machine", "m5.large", "Google Compute Engine" …
    pub vm_product: Option<String>,
    pub targets: Vec<TargetInfo>,
    /// Where each online CPU sits (DiskSpd's processor topology); empty where the OS does not say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cpus: Vec<CpuPlace>,
    /// The active power policy: Linux's cpufreq governor ("performance", "schedutil"), Windows'
    /// power scheme; absent where the OS has none to report (many VMs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_scheme: Option<String>,
    /// The memory page size, bytes; absent in results from before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<u64>,
    /// Each CPU cache instance (an L1d per core, one L3 for a socket …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub caches: Vec<Cache>,
}

impl Host {
    /// A machine known only by its name (another tool's result): every other fact unknown.
    pub fn named(hostname: &str, targets: Vec<TargetInfo>) -> Host {
        Host {
            hostname: hostname.to_string(),
            os: String::new(),
            kernel: String::new(),
            arch: String::new(),
            cpu_model: String::new(),
            cores: 0,
            memory_bytes: 0,
            vm_vendor: None,
            vm_product: None,
            targets,
            cpus: Vec::new(),
            power_scheme: None,
            page_size: None,
            caches: Vec::new(),
        }
    }
}

/// One CPU cache and the CPUs that share it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cache {
    pub level: u8,
    pub kind: CacheKind,
    pub size_bytes: u64,
    pub line_bytes: u32,
    /// Ways of associativity; 0 where the OS does not say (or fully associative).
    pub ways: u32,
    pub cpus: Vec<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheKind {
    Data,
    Instruction,
    Unified,
}

/// One online CPU's place in the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpuPlace {
    pub cpu: u32,
    /// The physical core, numbered 0, 1, … in order of first appearance across sockets; SMT
    /// siblings share one.
    pub core: u32,
    pub socket: u32,
    pub node: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetInfo {
    pub path: String,
    pub kind: TargetKind,
    /// Bytes tested on this target.
    pub size_bytes: u64,
    /// True when iolens created (and filled) the file for this run.
    pub created: bool,
    /// Kernel name of the block device holding it: "vda", "nvme0n1", "loop0"; on Windows the
    /// disk under the volume, "PhysicalDrive2".
    pub device: Option<String>,
    pub model: Option<String>,
    pub scheduler: Option<String>,
    pub rotational: Option<bool>,
    pub logical_block_size: Option<u32>,
    pub filesystem: Option<String>,
    pub mount_point: Option<String>,
    /// The file system's allocation unit, bytes (NTFS and ReFS clusters; Windows only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster_bytes: Option<u64>,
    /// The bus of the device under the volume, as Windows names it: "SAS", "NVMe", "Virtual",
    /// "Spaces" (a Storage Spaces virtual disk). Windows only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bus: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    File,
    BlockDevice,
}

/// What `targets` (a host's, every test's) recorded of test `t`'s target `i`: the one of that
/// path, else a file made inside it when it is a directory (the one at the same index first),
/// else the one at that index. A thread's target indexes its own test's targets, which in a
/// job file of several jobs are not the host's list.
pub fn target_of<'a>(targets: &'a [TargetInfo], t: &super::TestResult, i: usize) -> Option<&'a TargetInfo> {
    use std::path::{Component, Path};
    fn same(a: &str, b: &str) -> bool {
        let parts = |p| Path::new(p).components().filter(|c| *c != Component::CurDir);
        parts(a).eq(parts(b))
    }
    let Some(want) = t.spec.targets.get(i) else { return targets.get(i) };
    let inside = |x: &&TargetInfo| Path::new(&x.path).parent().is_some_and(|d| same(&d.to_string_lossy(), want));
    targets
        .iter()
        .find(|x| same(&x.path, want))
        .or_else(|| targets.get(i).filter(inside))
        .or_else(|| targets.iter().find(inside))
        .or_else(|| targets.get(i))
}

impl TargetKind {
    /// As stored: "file", "block_device".
    pub fn as_str(&self) -> &'static str {
        match self {
            TargetKind::File => "file",
            TargetKind::BlockDevice => "block_device",
        }
    }
}

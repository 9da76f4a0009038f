//! What Windows says of the machine and of the volume under a target, read where DiskSpd reads
//! it: the registry (edition, CPU model, BIOS), kernel32 (computer name, memory, the volume's
//! file system and clusters) and the storage stack's property queries (bus, model, sectors).
//! Any of them may be refused (under wine, without administrator rights): the fact is then left
//! out, and the run goes on.

use crate::result::host::{Host, TargetInfo};
use crate::stats::system::physical_memory;
use std::ffi::c_void;
use std::fs::{File, OpenOptions};
use std::mem::{offset_of, size_of};
use std::os::windows::fs::OpenOptionsExt;
use std::os::windows::io::AsRawHandle;
use std::path::Path;
use windows_sys::Wdk::System::SystemServices::RtlGetVersion;
use windows_sys::Win32::Foundation::ERROR_SUCCESS;
use windows_sys::Win32::Storage::FileSystem::{
    GetDiskFreeSpaceW, GetVolumeInformationW, GetVolumeNameForVolumeMountPointW, FILE_SHARE_READ, FILE_SHARE_WRITE,
    STORAGE_BUS_TYPE,
};
use windows_sys::Win32::System::Ioctl::{
    PropertyStandardQuery, StorageAccessAlignmentProperty, StorageDeviceProperty, StorageDeviceSeekPenaltyProperty,
    DEVICE_SEEK_PENALTY_DESCRIPTOR, IOCTL_STORAGE_GET_DEVICE_NUMBER, IOCTL_STORAGE_QUERY_PROPERTY,
    STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR, STORAGE_DEVICE_DESCRIPTOR, STORAGE_DEVICE_NUMBER, STORAGE_PROPERTY_ID,
    STORAGE_PROPERTY_QUERY,
};
use windows_sys::Win32::System::Registry::{RegGetValueW, HKEY_LOCAL_MACHINE, RRF_RT_REG_DWORD, RRF_RT_REG_SZ};
use windows_sys::Win32::System::SystemInformation::{
    ComputerNamePhysicalDnsHostname, GetComputerNameExW, OSVERSIONINFOW,
};
use windows_sys::Win32::System::IO::DeviceIoControl;

const CURRENT_VERSION: &str = r"SOFTWARE\Microsoft\Windows NT\CurrentVersion";
const BIOS: &str = r"HARDWARE\DESCRIPTION\System\BIOS";
const CPU0: &str = r"HARDWARE\DESCRIPTION\System\CentralProcessor\0";

/// The text of a NUL-terminated (or full) UTF-16 buffer, trimmed; None when empty.
fn text(buf: &[u16]) -> Option<String> {
    let end = buf.iter().position(|&c| c == 0).unwrap_or(buf.len());
    let s = String::from_utf16_lossy(&buf[..end]);
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

fn wide(s: &str) -> Vec<u16> {
    s.encode_utf16().chain(Some(0)).collect()
}

/// A REG_SZ value under HKLM.
fn reg_string(key: &str, name: &str) -> Option<String> {
    let (key, name) = (wide(key), wide(name));
    let mut buf = [0u16; 512];
    let mut bytes = (buf.len() * 2) as u32;
    // SAFETY: NUL-terminated names and a buffer whose size in bytes is passed.
    let r = unsafe {
        RegGetValueW(
            HKEY_LOCAL_MACHINE,
            key.as_ptr(),
            name.as_ptr(),
            RRF_RT_REG_SZ,
            std::ptr::null_mut(),
            buf.as_mut_ptr().cast(),
            &mut bytes,
        )
    };
    (r == ERROR_SUCCESS).then(|| text(&buf[..bytes as usize / 2]))?
}

/// A REG_DWORD value under HKLM.
fn reg_dword(key: &str, name: &str) -> Option<u32> {
    let (key, name) = (wide(key), wide(name));
    let (mut v, mut bytes) = (0u32, 4u32);
    // SAFETY: NUL-terminated names and a u32 to fill.
    let r = unsafe {
        RegGetValueW(
            HKEY_LOCAL_MACHINE,
            key.as_ptr(),
            name.as_ptr(),
            RRF_RT_REG_DWORD,
            std::ptr::null_mut(),
            (&mut v as *mut u32).cast(),
            &mut bytes,
        )
    };
    (r == ERROR_SUCCESS).then_some(v)
}

/// The machine running iolens, with the targets it tests.
pub(super) fn host(targets: Vec<TargetInfo>) -> Host {
    let (os, kernel) = os_version();
    Host {
        hostname: computer_name().unwrap_or_else(|| "unknown".into()),
        os,
        kernel,
        arch: std::env::consts::ARCH.into(),
        cpu_model: reg_string(CPU0, "ProcessorNameString").unwrap_or_else(|| "unknown".into()),
        cores: crate::stats::cpu::online_cpus(),
        memory_bytes: physical_memory().map_or(0, |(total, _)| total),
        vm_vendor: reg_string(BIOS, "SystemManufacturer"),
        vm_product: reg_string(BIOS, "SystemProductName"),
        targets,
        // Windows' own topology and power scheme APIs are not read yet.
        cpus: Vec::new(),
        power_scheme: None,
        page_size: super::caches::page_size(),
        caches: super::caches::caches(),
    }
}

pub(super) fn memory_available() -> Option<u64> {
    physical_memory().map(|(_, available)| available)
}

/// The node's own name, not a cluster's virtual one.
fn computer_name() -> Option<String> {
    let mut buf = [0u16; 256];
    let mut len = buf.len() as u32;
    // SAFETY: a buffer and its length in characters.
    let ok = unsafe { GetComputerNameExW(ComputerNamePhysicalDnsHostname, buf.as_mut_ptr(), &mut len) };
    (ok != 0).then(|| text(&buf[..len as usize]))?
}

/// (OS, kernel): ("Windows Server 2022 Datacenter 21H2", "10.0.20348.2340").
fn os_version() -> (String, String) {
    let mut v = OSVERSIONINFOW { dwOSVersionInfoSize: size_of::<OSVERSIONINFOW>() as u32, ..Default::default() };
    // SAFETY: a struct whose first field names its size. RtlGetVersion answers the real
    // version where GetVersionEx answers what the program's manifest declares.
    let rtl = (unsafe { RtlGetVersion(&mut v) } >= 0).then_some((v.dwMajorVersion, v.dwMinorVersion, v.dwBuildNumber));
    let reg_build = reg_string(CURRENT_VERSION, "CurrentBuildNumber").and_then(|b| b.parse().ok());
    let version = match rtl {
        Some(v) => v,
        None => (
            reg_dword(CURRENT_VERSION, "CurrentMajorVersionNumber").unwrap_or(10),
            reg_dword(CURRENT_VERSION, "CurrentMinorVersionNumber").unwrap_or(0),
            reg_build.unwrap_or(0),
        ),
    };
    let release = reg_string(CURRENT_VERSION, "DisplayVersion").or_else(|| reg_string(CURRENT_VERSION, "ReleaseId"));
    os_name(
        reg_string(CURRENT_VERSION, "ProductName").as_deref(),
        release.as_deref(),
        version,
        reg_dword(CURRENT_VERSION, "UBR"),
    )
}

/// (OS, kernel) from the registry's names and the version numbers.
fn os_name(
    product: Option<&str>,
    release: Option<&str>,
    version: (u32, u32, u32),
    ubr: Option<u32>,
) -> (String, String) {
    let (major, minor, build) = version;
    let build = match ubr {
        Some(u) => format!("{build}.{u}"),
        None => build.to_string(),
    };
    let edition = match product {
        // Windows 11 kept Windows 10's ProductName; only the build tells them apart.
        Some(p) if version.2 >= 22000 && p.contains("Windows 10") => p.replacen("Windows 10", "Windows 11", 1),
        Some(p) => p.to_string(),
        None => format!("Windows {major}.{minor}"),
    };
    // The build goes in the kernel only, as Linux's release does: reports print both.
    let release = release.map(|r| format!(" {r}")).unwrap_or_default();
    (format!("{edition}{release}"), format!("{major}.{minor}.{build}"))
}

/// Fills the facts of the volume under `path` (which exists) that Windows gives.
pub(super) fn describe(t: &mut TargetInfo, path: &Path) {
    let Ok(root) = super::volume_root(path) else { return };
    t.mount_point = text(&root);
    t.filesystem = filesystem(&root);
    let geometry = geometry(&root);
    t.cluster_bytes = geometry.map(|(per_cluster, bytes)| u64::from(per_cluster) * u64::from(bytes));
    t.logical_block_size = geometry.map(|(_, bytes)| bytes);
    let Some(volume) = open_volume(&root) else { return };
    t.logical_block_size = logical_sector(&volume).or(t.logical_block_size);
    t.rotational = seek_penalty(&volume);
    (t.bus, t.model) = device(&volume).unwrap_or_default();
    t.device = disk_number(&volume).map(|n| format!("PhysicalDrive{n}"));
}

/// The sector unbuffered I/O must align to under `path` (a file or directory that exists, or a
/// disk or volume): the storage access-alignment property of the device, else the volume's
/// bytes per sector.
pub(super) fn sector_size(path: &Path) -> Option<u64> {
    if super::is_device_name(path) {
        let device = OpenOptions::new().access_mode(0).share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE).open(path);
        return device.ok().as_ref().and_then(logical_sector).map(u64::from);
    }
    let root = super::volume_root(path).ok()?;
    let aligned = open_volume(&root).as_ref().and_then(logical_sector);
    aligned.or_else(|| geometry(&root).map(|(_, bytes)| bytes)).map(u64::from)
}

/// "NTFS", "ReFS", "FAT32".
fn filesystem(root: &[u16]) -> Option<String> {
    let mut name = [0u16; 64];
    use std::ptr::null_mut as null;
    // SAFETY: a NUL-terminated root; only the file system's name is asked for.
    let ok = unsafe {
        GetVolumeInformationW(root.as_ptr(), null(), 0, null(), null(), null(), name.as_mut_ptr(), name.len() as u32)
    };
    (ok != 0).then(|| text(&name))?
}

/// (sectors per cluster, bytes per sector) of the volume.
fn geometry(root: &[u16]) -> Option<(u32, u32)> {
    let (mut per_cluster, mut bytes, mut free, mut total) = (0u32, 0u32, 0u32, 0u32);
    // SAFETY: a NUL-terminated root and four counts to fill.
    let ok = unsafe { GetDiskFreeSpaceW(root.as_ptr(), &mut per_cluster, &mut bytes, &mut free, &mut total) };
    (ok != 0 && per_cluster > 0 && bytes > 0).then_some((per_cluster, bytes))
}

/// The volume as a device (`\\?\Volume{…}`, or `\\.\F:` where the mount manager names no
/// GUID), opened with no access: enough for property queries, and allowed without
/// administrator rights.
fn open_volume(root: &[u16]) -> Option<File> {
    let mut guid = [0u16; 64];
    // SAFETY: a NUL-terminated root and a buffer of the stated length.
    let named = unsafe { GetVolumeNameForVolumeMountPointW(root.as_ptr(), guid.as_mut_ptr(), guid.len() as u32) };
    let name = match (named != 0).then(|| text(&guid)).flatten() {
        Some(g) => g.trim_end_matches('\\').to_string(),
        None => {
            let r = text(root)?;
            let letter = r.strip_suffix(":\\").filter(|l| l.len() == 1)?;
            format!(r"\\.\{letter}:")
        }
    };
    OpenOptions::new().access_mode(0).share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE).open(name).ok()
}

/// One IOCTL on a volume or disk into a zeroed buffer; the bytes returned (none is an error).
pub(super) fn ioctl(volume: &File, code: u32, input: &[u8], out: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0u32;
    // SAFETY: an open handle, and input and output buffers with their lengths; no overlapped.
    let ok = unsafe {
        DeviceIoControl(
            volume.as_raw_handle(),
            code,
            input.as_ptr().cast::<c_void>(),
            input.len() as u32,
            out.as_mut_ptr().cast(),
            out.len() as u32,
            &mut got,
            std::ptr::null_mut(),
        )
    };
    match (ok, got) {
        (0, _) => Err(std::io::Error::last_os_error()),
        (_, 0) => Err(std::io::Error::other("the device answered with nothing")),
        _ => Ok(got as usize),
    }
}

/// A storage property of the device under the volume into `out`; the bytes returned.
fn property(volume: &File, id: STORAGE_PROPERTY_ID, out: &mut [u8]) -> Option<usize> {
    let q = STORAGE_PROPERTY_QUERY { PropertyId: id, QueryType: PropertyStandardQuery, AdditionalParameters: [0] };
    // SAFETY: the query is plain data, viewed as its bytes for the call.
    let input =
        unsafe { std::slice::from_raw_parts((&q as *const STORAGE_PROPERTY_QUERY).cast::<u8>(), size_of_val(&q)) };
    ioctl(volume, IOCTL_STORAGE_QUERY_PROPERTY, input, out).ok().map(|got| got.min(out.len()))
}

/// A field of a returned descriptor, read by its offset: descriptors are read field by field,
/// since their BOOLEANs need not be valid Rust bools.
fn u32_at(out: &[u8], got: usize, offset: usize) -> Option<u32> {
    let b = out[..got].get(offset..offset + 4)?;
    Some(u32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
}

fn logical_sector(volume: &File) -> Option<u32> {
    let mut out = [0u8; size_of::<STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR>()];
    let got = property(volume, StorageAccessAlignmentProperty, &mut out)?;
    u32_at(&out, got, offset_of!(STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR, BytesPerLogicalSector)).filter(|&b| b > 0)
}

/// Whether the device seeks (a spinning disk), as Windows's defragmenter decides TRIM or not.
fn seek_penalty(volume: &File) -> Option<bool> {
    let mut out = [0u8; size_of::<DEVICE_SEEK_PENALTY_DESCRIPTOR>()];
    let got = property(volume, StorageDeviceSeekPenaltyProperty, &mut out)?;
    out[..got].get(offset_of!(DEVICE_SEEK_PENALTY_DESCRIPTOR, IncursSeekPenalty)).map(|&b| b != 0)
}

/// (bus, model) of the device under the volume: ("SAS", "Msft Virtual Disk").
fn device(volume: &File) -> Option<(Option<String>, Option<String>)> {
    let mut out = [0u8; 1024];
    let got = property(volume, StorageDeviceProperty, &mut out)?;
    let field = |offset| u32_at(&out, got, offset);
    // The strings follow the descriptor, NUL-terminated; offset 0 means absent.
    let at = |offset: Option<u32>| {
        let o = offset.filter(|&o| o > 0)? as usize;
        let s = out[..got].get(o..)?;
        let s = String::from_utf8_lossy(&s[..s.iter().position(|&b| b == 0).unwrap_or(s.len())]).trim().to_string();
        (!s.is_empty()).then_some(s)
    };
    let bus = field(offset_of!(STORAGE_DEVICE_DESCRIPTOR, BusType))?;
    let vendor = at(field(offset_of!(STORAGE_DEVICE_DESCRIPTOR, VendorIdOffset)));
    let product = at(field(offset_of!(STORAGE_DEVICE_DESCRIPTOR, ProductIdOffset)));
    Some((bus_name(bus as STORAGE_BUS_TYPE).map(String::from), model(vendor, product)))
}

/// "Msft" + "Virtual Disk"; NVMe devices name no vendor of their own, and some repeat it.
fn model(vendor: Option<String>, product: Option<String>) -> Option<String> {
    match (vendor, product) {
        (Some(v), Some(p)) if !p.starts_with(&v) => Some(format!("{v} {p}")),
        (_, Some(p)) => Some(p),
        (v, None) => v,
    }
}

/// The disk number of a volume on one disk (`\\.\PhysicalDrive2`); None when it spans several.
fn disk_number(volume: &File) -> Option<u32> {
    let mut out = [0u8; size_of::<STORAGE_DEVICE_NUMBER>()];
    let got = ioctl(volume, IOCTL_STORAGE_GET_DEVICE_NUMBER, &[], &mut out).ok()?.min(out.len());
    u32_at(&out, got, offset_of!(STORAGE_DEVICE_NUMBER, DeviceNumber))
}

/// STORAGE_BUS_TYPE as Windows's own tools (Get-PhysicalDisk's BusType) name it; "Spaces" is a
/// Storage Spaces virtual disk. None for unknown or unnamed types.
fn bus_name(bus: STORAGE_BUS_TYPE) -> Option<&'static str> {
    const NAMES: [&str; 21] = [
        "",
        "SCSI",
        "ATAPI",
        "ATA",
        "1394",
        "SSA",
        "Fibre Channel",
        "USB",
        "RAID",
        "iSCSI",
        "SAS",
        "SATA",
        "SD",
        "MMC",
        "Virtual",
        "FileBackedVirtual",
        "Spaces",
        "NVMe",
        "SCM",
        "UFS",
        "NVMe-oF",
    ];
    usize::try_from(bus).ok().and_then(|i| NAMES.get(i)).copied().filter(|n| !n.is_empty())
}

#[cfg(test)]
mod tests;

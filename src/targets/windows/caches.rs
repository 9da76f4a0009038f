//! The processor's caches and the memory page size as Windows reports them
//! (GetLogicalProcessorInformationEx, GetSystemInfo), for DiskSpd's "cache information" and
//! "page size".

use crate::result::host::{Cache, CacheKind};
use windows_sys::Win32::System::SystemInformation::{
    CacheData, CacheInstruction, GetLogicalProcessorInformationEx, GetSystemInfo, RelationCache, SYSTEM_INFO,
    SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX,
};

pub(super) fn page_size() -> Option<u64> {
    let mut info = SYSTEM_INFO::default();
    // SAFETY: a struct to fill.
    unsafe { GetSystemInfo(&mut info) };
    (info.dwPageSize > 0).then_some(info.dwPageSize as u64)
}

/// Every cache instance, with the CPUs of group 0 that share it.
pub(super) fn caches() -> Vec<Cache> {
    let mut len = 0u32;
    // SAFETY: asking for the length with no buffer, as documented.
    unsafe { GetLogicalProcessorInformationEx(RelationCache, std::ptr::null_mut(), &mut len) };
    if len == 0 {
        return Vec::new();
    }
    // u64s keep the records (which hold pointer-sized masks) aligned.
    let mut buf = vec![0u64; (len as usize).div_ceil(8)];
    // SAFETY: a buffer of at least `len` bytes.
    if unsafe { GetLogicalProcessorInformationEx(RelationCache, buf.as_mut_ptr().cast(), &mut len) } == 0 {
        return Vec::new();
    }
    let base = buf.as_ptr().cast::<u8>();
    let (mut off, mut out) = (0usize, Vec::new());
    while off + std::mem::size_of::<SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX>() <= len as usize {
        // SAFETY: Windows wrote whole records up to `len`, each `Size` bytes long; records start
        // at 8-byte-aligned offsets.
        let rec = unsafe { &*base.add(off).cast::<SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX>() };
        if rec.Size == 0 {
            break;
        }
        if rec.Relationship == RelationCache {
            // SAFETY: a RelationCache record holds the Cache member of the union.
            let c = unsafe { rec.Anonymous.Cache };
            // SAFETY: GroupMask is the first of GroupCount masks.
            let m = unsafe { c.Anonymous.GroupMask };
            let cpus = (0..usize::BITS).filter(|&b| m.Group == 0 && m.Mask & (1usize << b) != 0).collect();
            out.push(Cache {
                level: c.Level,
                kind: match c.Type {
                    t if t == CacheData => CacheKind::Data,
                    t if t == CacheInstruction => CacheKind::Instruction,
                    _ => CacheKind::Unified,
                },
                size_bytes: c.CacheSize as u64,
                line_bytes: c.LineSize as u32,
                // 0xFF: fully associative.
                ways: if c.Associativity == 0xFF { 0 } else { c.Associativity as u32 },
                cpus,
            });
        }
        off += rec.Size as usize;
    }
    out
}

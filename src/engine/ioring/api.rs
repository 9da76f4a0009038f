//! The IoRing calls, found at run time: a program that imported them would not start on a
//! Windows without them (Windows 10, Server 2019, wine), and there iocp must run instead.

use std::sync::OnceLock;
use windows_sys::core::HRESULT;
use windows_sys::Win32::Foundation::HANDLE;
use windows_sys::Win32::Storage::FileSystem::{
    HIORING, IORING_BUFFER_INFO, IORING_BUFFER_REF, IORING_CAPABILITIES, IORING_CQE, IORING_CREATE_FLAGS,
    IORING_HANDLE_REF, IORING_SQE_FLAGS, IORING_VERSION,
};
use windows_sys::Win32::System::LibraryLoader::{GetModuleHandleW, GetProcAddress};

pub type Caps = unsafe extern "system" fn(*mut IORING_CAPABILITIES) -> HRESULT;
pub type Create = unsafe extern "system" fn(IORING_VERSION, IORING_CREATE_FLAGS, u32, u32, *mut HIORING) -> HRESULT;
pub type Read = unsafe extern "system" fn(
    HIORING,
    IORING_HANDLE_REF,
    IORING_BUFFER_REF,
    u32,
    u64,
    usize,
    IORING_SQE_FLAGS,
) -> HRESULT;
pub type Write = unsafe extern "system" fn(
    HIORING,
    IORING_HANDLE_REF,
    IORING_BUFFER_REF,
    u32,
    u64,
    i32,
    usize,
    IORING_SQE_FLAGS,
) -> HRESULT;
pub type Register = unsafe extern "system" fn(HIORING, u32, *const IORING_BUFFER_INFO, usize) -> HRESULT;
pub type Submit = unsafe extern "system" fn(HIORING, u32, u32, *mut u32) -> HRESULT;
pub type Pop = unsafe extern "system" fn(HIORING, *mut IORING_CQE) -> HRESULT;
pub type Close = unsafe extern "system" fn(HIORING) -> HRESULT;

/// The entry points the engine uses. Tests hand the engine a model of them, so the ring's
/// bookkeeping is checked where Windows has no ring.
pub struct Api {
    pub caps: Caps,
    pub create: Create,
    pub read: Read,
    pub write: Write,
    pub register: Register,
    pub submit: Submit,
    pub pop: Pop,
    pub close: Close,
}

/// Writes came with IORING_VERSION_3 (Windows 11 22H2); DiskSpd 2.3 asks for it too.
pub const VERSION: IORING_VERSION = windows_sys::Win32::Storage::FileSystem::IORING_VERSION_3;

/// This Windows's IoRing, or why there is none.
pub fn get() -> Result<&'static Api, String> {
    static API: OnceLock<Result<Api, String>> = OnceLock::new();
    API.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn load() -> Result<Api, String> {
    let modules: Vec<HANDLE> = ["kernelbase.dll", "kernel32.dll"]
        .iter()
        .map(|m| {
            let w: Vec<u16> = m.encode_utf16().chain([0]).collect();
            // SAFETY: a NUL-terminated name; both modules are loaded in every process.
            unsafe { GetModuleHandleW(w.as_ptr()) }
        })
        .filter(|h| !h.is_null())
        .collect();
    let find = |name: &str| {
        let c: Vec<u8> = name.bytes().chain([0]).collect();
        // SAFETY: valid module handles and a NUL-terminated name.
        modules
            .iter()
            .find_map(|&m| unsafe { GetProcAddress(m, c.as_ptr()) })
            .ok_or_else(|| format!("this Windows has no {name}: IoRing needs Windows 11 22H2 or Server 2025"))
    };
    // SAFETY: each symbol is the documented function of the type it is cast to.
    unsafe {
        let api = Api {
            caps: std::mem::transmute::<unsafe extern "system" fn() -> isize, Caps>(find("QueryIoRingCapabilities")?),
            create: std::mem::transmute::<unsafe extern "system" fn() -> isize, Create>(find("CreateIoRing")?),
            read: std::mem::transmute::<unsafe extern "system" fn() -> isize, Read>(find("BuildIoRingReadFile")?),
            write: std::mem::transmute::<unsafe extern "system" fn() -> isize, Write>(find("BuildIoRingWriteFile")?),
            register: std::mem::transmute::<unsafe extern "system" fn() -> isize, Register>(find(
                "BuildIoRingRegisterBuffers",
            )?),
            submit: std::mem::transmute::<unsafe extern "system" fn() -> isize, Submit>(find("SubmitIoRing")?),
            pop: std::mem::transmute::<unsafe extern "system" fn() -> isize, Pop>(find("PopIoRingCompletion")?),
            close: std::mem::transmute::<unsafe extern "system" fn() -> isize, Close>(find("CloseIoRing")?),
        };
        let mut caps = IORING_CAPABILITIES::default();
        let hr = (api.caps)(&mut caps);
        if hr < 0 || caps.MaxVersion < VERSION {
            return Err(format!("this Windows's IoRing is version {}; writes need version 3 (22H2)", caps.MaxVersion));
        }
        Ok(api)
    }
}

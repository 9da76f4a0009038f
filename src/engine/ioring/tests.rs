//! The engine on a model of Windows's ring, since wine has none: entries wait until submitted,
//! a submission completes the operations it is asked to wait for (and no more, so that others
//! stay in progress as on a busy disk), and completions come back in no promised order. The
//! I/O itself is real, on a real file.

use super::*;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read as _, Seek, SeekFrom};
use std::path::PathBuf;
use windows_sys::Win32::Foundation::GetLastError;
use windows_sys::Win32::Storage::FileSystem::{ReadFile, WriteFile, IORING_CAPABILITIES, IORING_VERSION};
use windows_sys::Win32::System::IO::{GetOverlappedResult, OVERLAPPED};

#[derive(Clone, Copy)]
struct Sqe {
    write: bool,
    file: HANDLE,
    buf: IORING_BUFFER_REF,
    len: u32,
    offset: u64,
    user: usize,
}

#[derive(Default)]
struct Model {
    built: Vec<Sqe>,
    pool: VecDeque<Sqe>,
    posted: VecDeque<IORING_CQE>,
    regs: Vec<IORING_BUFFER_INFO>,
    /// Operations submitted and not yet popped, seen by each submission after it took the
    /// built entries.
    inflight_at_submit: Vec<usize>,
    kinds: Vec<i32>,
}

thread_local! {
    static MODEL: RefCell<Model> = RefCell::new(Model::default());
}

fn with<T>(f: impl FnOnce(&mut Model) -> T) -> T {
    MODEL.with(|m| f(&mut m.borrow_mut()))
}

fn hresult_of_win32(code: u32) -> HRESULT {
    (0x8007_0000 | code) as HRESULT
}

/// One operation, done now on its (overlapped) handle.
fn perform(m: &Model, e: &Sqe) -> IORING_CQE {
    // SAFETY: the union arm is the one `Kind` names.
    let addr = unsafe {
        if e.buf.Kind == IORING_REF_REGISTERED {
            let r = e.buf.Buffer.IndexAndOffset;
            (m.regs[r.BufferIndex as usize].Address as *mut u8).add(r.Offset as usize)
        } else {
            e.buf.Buffer.Address as *mut u8
        }
    };
    // SAFETY: all-zero is a valid OVERLAPPED; the buffer belongs to the engine's slot.
    let mut o: OVERLAPPED = unsafe { std::mem::zeroed() };
    o.Anonymous.Anonymous.Offset = e.offset as u32;
    o.Anonymous.Anonymous.OffsetHigh = (e.offset >> 32) as u32;
    let mut n = 0u32;
    // SAFETY: as above; the call is waited for before the OVERLAPPED goes out of scope.
    let ok = unsafe {
        let started = if e.write {
            WriteFile(e.file, addr, e.len, std::ptr::null_mut(), &mut o)
        } else {
            ReadFile(e.file, addr.cast(), e.len, std::ptr::null_mut(), &mut o)
        };
        (started != 0 || GetLastError() == 997) && GetOverlappedResult(e.file, &o, &mut n, 1) != 0
    };
    // SAFETY: reads the thread's last error.
    let code = if ok { 0 } else { hresult_of_win32(unsafe { GetLastError() }) };
    IORING_CQE { UserData: e.user, ResultCode: code, Information: n as usize }
}

unsafe extern "system" fn caps(c: *mut IORING_CAPABILITIES) -> HRESULT {
    (*c).MaxVersion = api::VERSION;
    0
}
unsafe extern "system" fn create(
    _: IORING_VERSION,
    _: IORING_CREATE_FLAGS,
    _: u32,
    _: u32,
    h: *mut HIORING,
) -> HRESULT {
    with(|m| *m = Model::default());
    *h = std::ptr::NonNull::<u8>::dangling().as_ptr().cast();
    0
}
unsafe extern "system" fn read(
    _: HIORING,
    f: IORING_HANDLE_REF,
    b: IORING_BUFFER_REF,
    len: u32,
    offset: u64,
    user: usize,
    _: i32,
) -> HRESULT {
    with(|m| m.built.push(Sqe { write: false, file: f.Handle.Handle, buf: b, len, offset, user }));
    0
}
#[allow(clippy::too_many_arguments)]
unsafe extern "system" fn write(
    _: HIORING,
    f: IORING_HANDLE_REF,
    b: IORING_BUFFER_REF,
    len: u32,
    offset: u64,
    _: i32,
    user: usize,
    _: i32,
) -> HRESULT {
    with(|m| m.built.push(Sqe { write: true, file: f.Handle.Handle, buf: b, len, offset, user }));
    0
}
unsafe extern "system" fn register(_: HIORING, n: u32, b: *const IORING_BUFFER_INFO, user: usize) -> HRESULT {
    let infos = std::slice::from_raw_parts(b, n as usize).to_vec();
    with(|m| {
        m.regs = infos;
        m.posted.push_back(IORING_CQE { UserData: user, ResultCode: 0, Information: 0 });
    });
    0
}
unsafe extern "system" fn submit(_: HIORING, wait: u32, _: u32, _: *mut u32) -> HRESULT {
    with(|m| {
        let built = std::mem::take(&mut m.built);
        m.kinds.extend(built.iter().map(|e| e.buf.Kind));
        m.pool.extend(built);
        m.inflight_at_submit.push(m.pool.len() + m.posted.len());
        // The newest first: completions keep no order.
        while m.posted.len() < wait as usize {
            let Some(e) = m.pool.pop_back() else { break };
            let c = perform(m, &e);
            m.posted.push_back(c);
        }
    });
    0
}
unsafe extern "system" fn pop(_: HIORING, c: *mut IORING_CQE) -> HRESULT {
    match with(|m| m.posted.pop_front()) {
        Some(cqe) => {
            *c = cqe;
            0
        }
        None => S_FALSE,
    }
}
unsafe extern "system" fn close(_: HIORING) -> HRESULT {
    0
}

static MODEL_API: Api = Api { caps, create, read, write, register, submit, pop, close };

/// A file of `blocks` 4 KiB blocks, block k filled with byte k.
fn file(blocks: u8) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ring.dat");
    let data: Vec<u8> = (0..blocks).flat_map(|k| [k; 4096]).collect();
    std::fs::write(&path, data).unwrap();
    (dir, path)
}

fn engine(path: &PathBuf, depth: u32, register: bool) -> (IoRingEngine, Vec<File>) {
    let files = vec![std::fs::OpenOptions::new().read(true).write(true).open(path).unwrap()];
    let paths = [path.clone()];
    let setup = EngineSetup {
        files: &files,
        paths: &paths,
        depth,
        buf_size: 4096,
        apart: 0,
        mixed: true,
        direct: false,
        write_through: false,
        writes: true,
        hint: crate::workload::AccessHint::None,
        bypass: None,
        register,
    };
    (IoRingEngine::with_api(&setup, &MODEL_API).unwrap(), files)
}

fn req(slot: u32, op: OpKind, block: u64) -> IoReq {
    IoReq { slot, file: 0, op, offset: block * 4096, len: 4096, ioprio: 0 }
}

#[test]
fn reads_fill_their_slots_and_writes_reach_the_file_in_one_submission() {
    let (_dir, path) = file(16);
    for register in [true, false] {
        let (mut e, _files) = engine(&path, 4, register);
        e.buffer(3).fill(0xab);
        for (slot, block) in [(0, 3), (1, 5), (2, 7)] {
            e.queue(req(slot, OpKind::Read, block));
        }
        e.queue(req(3, OpKind::Write, 1));
        let mut out = [Completion::default(); 4];
        assert_eq!(e.submit_and_reap(&mut out, 4, None).unwrap(), 4);
        assert!(out.iter().all(|c| c.result == 4096), "{out:?}");
        let mut slots: Vec<u32> = out.iter().map(|c| c.slot).collect();
        slots.sort();
        assert_eq!(slots, [0, 1, 2, 3]);
        // A read lands in the slot's read buffer, apart from the write's (the job mixes both).
        for (slot, block) in [(0u32, 3u8), (1, 5), (2, 7)] {
            let at = e.depth as usize + slot as usize;
            assert!(e.bufs.slot(at).iter().all(|&b| b == block), "slot {slot}");
        }
        assert_eq!(e.take_submits(), 1, "one SubmitIoRing for the four");
        let kind = if register { IORING_REF_REGISTERED } else { IORING_REF_RAW };
        assert!(with(|m| m.kinds.iter().all(|&k| k == kind)));
        drop(e);
        let mut block = [0u8; 4096];
        let mut f = File::open(&path).unwrap();
        f.seek(SeekFrom::Start(4096)).unwrap();
        f.read_exact(&mut block).unwrap();
        assert!(block.iter().all(|&b| b == 0xab));
    }
}

#[test]
fn a_loop_that_refills_each_slot_before_it_waits_keeps_the_depth_in_flight() {
    let (_dir, path) = file(64);
    let (mut e, _files) = engine(&path, 8, true);
    // The buffer registration's own submission is not the loop's.
    with(|m| m.inflight_at_submit.clear());
    for slot in 0..8 {
        e.queue(req(slot, OpKind::Read, slot as u64));
    }
    let mut out = [Completion::default(); 1];
    let mut done = 0u64;
    while done < 400 {
        // The runner's discipline: one completion, its slot refilled before the next wait.
        assert_eq!(e.submit_and_reap(&mut out, 1, None).unwrap(), 1);
        assert_eq!(out[0].result, 4096);
        done += 1;
        e.queue(req(out[0].slot, OpKind::Read, done % 64));
    }
    let seen = with(|m| m.inflight_at_submit.clone());
    assert!(seen.len() >= 400, "{} submissions", seen.len());
    assert!(seen.iter().all(|&n| n == 8), "in flight at each submission: {seen:?}");
    assert_eq!(e.take_submits(), seen.len() as u64);
}

#[test]
fn failures_are_negative_win32_codes_and_the_end_of_the_file_an_empty_read() {
    let (_dir, path) = file(2);
    let (mut e, _files) = engine(&path, 2, true);
    e.queue(req(0, OpKind::Read, 9));
    e.queue(req(1, OpKind::Trim, 0));
    let mut out = [Completion::default(); 2];
    assert_eq!(e.submit_and_reap(&mut out, 2, None).unwrap(), 2);
    out.sort_by_key(|c| c.slot);
    assert_eq!(out[0].result, 0, "a read past the end moves nothing");
    assert_eq!(out[1].result, -(ERROR_NOT_SUPPORTED as i64));
    assert_eq!(result(hresult_of_win32(5), 0), -5);
    assert_eq!(result(0x8046_0002_u32 as HRESULT, 0), -0x8046_0002);
    assert_eq!(result(0, 512), 512);
}

#[test]
fn windows_without_a_ring_is_named_and_iocp_runs_instead() {
    let (kind, _, notices) = crate::engine::choose(crate::workload::EngineKind::IoRing, 4);
    match api::get() {
        Ok(_) => assert_eq!(kind, crate::workload::EngineKind::IoRing),
        Err(why) => {
            assert!(why.contains("IoRing needs Windows 11 22H2"), "{why}");
            assert_eq!(kind, crate::workload::EngineKind::Iocp);
            assert!(notices.iter().any(|n| n.contains(&why) && n.ends_with("using I/O Completion Ports (iocp)")));
        }
    }
}

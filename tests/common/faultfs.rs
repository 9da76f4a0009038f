//! A FUSE file system, kept in a backing directory (one backing file per file), that breaks a
//! chosen fraction of the reads or writes the kernel hands it: the same faults as
//! `run --inject`, but below the VFS, so iolens sees them through the real kernel path
//! (O_DIRECT → FUSE → this process) and not through anything of its own. Files are created,
//! cut, grown, allocated and removed as on any file system, so `iolens simdb` runs on it too.
//!
//! Mounted in-process with a background session (the `fuser` crate over /dev/fuse; as root it
//! mounts with mount(2) itself, fusermount3 is only needed otherwise). Every open is answered
//! with FOPEN_DIRECT_IO, so iolens's O_DIRECT reads and writes reach this file system one for
//! one, at their own offsets and lengths.
//!
//! Eligible are requests of exactly `page` bytes (0: any length) to files whose name contains
//! `file` (None: any file): iolens stamps its files in 1 MiB writes first, which must land
//! whole. The faults:
//! - lost: a write answered as done, not stored;
//! - torn: only the first half of the request (whole 512-byte units) stored, answered as done;
//! - misdirect: a read served from the neighbouring page (the one before, but for the first);
//! - bitflip: a read served with one bit flipped;
//! - unread: a read answered as done with the caller's buffer as it was: iolens marks every
//!   unit of a buffer before reading into it, so the answer carries that marker (a device
//!   that did not transfer leaves exactly that behind);
//! - delay: a read answered right, `delay` late (from a thread of its own: only that I/O waits);
//! - eio: a read answered with EIO, as a failing device.
//!
//! Every fault is logged with its file and offset. A read fault is seen by the reader at once;
//! a write fault stays on the medium until a read of its range sees it, or a later write
//! covering the range (or a cut of the file) hides it for good; one whose file is removed
//! first stays pending.

use fuser::{
    Config, Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags, INodeNo, LockOwner, MountOption, OpenFlags,
    ReplyAttr, ReplyCreate, ReplyData, ReplyDirectory, ReplyEmpty, ReplyEntry, ReplyOpen, ReplyStatfs, ReplyWrite,
    Request, TimeOrNow, WriteFlags,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[path = "faultfs_faults.rs"]
mod faults;
use faults::State;
pub use faults::{Fate, Faults, KINDS};

struct Fs {
    dir: PathBuf,
    capacity: u64,
    state: Arc<Mutex<State>>,
    /// Shared by every transfer, taken alone by a misdirected read: the neighbouring page it
    /// serves is never caught half-written by a write of its own.
    io: std::sync::RwLock<()>,
}

const TTL: Duration = Duration::from_secs(1);

fn attr(ino: INodeNo, size: u64) -> FileAttr {
    let (kind, perm, nlink) =
        if ino == INodeNo::ROOT { (FileType::Directory, 0o755, 2) } else { (FileType::RegularFile, 0o644, 1) };
    FileAttr {
        ino,
        size,
        blocks: size.div_ceil(512),
        atime: UNIX_EPOCH,
        mtime: UNIX_EPOCH,
        ctime: UNIX_EPOCH,
        crtime: UNIX_EPOCH,
        kind,
        perm,
        nlink,
        uid: 0,
        gid: 0,
        rdev: 0,
        flags: 0,
        blksize: 4096,
    }
}

fn errno(e: std::io::Error) -> Errno {
    Errno::from_i32(e.raw_os_error().unwrap_or(libc::EIO))
}

impl Fs {
    /// The file behind `ino`: its name, backing file and size.
    fn node(&self, ino: INodeNo) -> Option<(String, Arc<File>, u64)> {
        let st = self.state.lock().unwrap();
        st.nodes.get(&ino.0).map(|n| (n.name.clone(), Arc::clone(&n.file), n.size))
    }

    /// Sets a file's size, the backing file's with it; faults past a cut are hidden.
    fn resize(&self, ino: INodeNo, size: u64) -> Result<(), Errno> {
        let mut st = self.state.lock().unwrap();
        let n = st.nodes.get_mut(&ino.0).ok_or(Errno::ENOENT)?;
        n.file.set_len(size).map_err(errno)?;
        n.size = size;
        let name = n.name.clone();
        st.settle(&name, Fate::Hidden, |o, l| o + l > size);
        Ok(())
    }
}

impl Filesystem for Fs {
    fn lookup(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        let st = self.state.lock().unwrap();
        match st.nodes.iter().find(|(_, n)| parent == INodeNo::ROOT && n.name.as_str() == name) {
            Some((&ino, n)) => reply.entry(&TTL, &attr(INodeNo(ino), n.size), fuser::Generation(0)),
            None => reply.error(Errno::ENOENT),
        }
    }

    fn getattr(&self, _req: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        if ino == INodeNo::ROOT {
            return reply.attr(&TTL, &attr(ino, 0));
        }
        match self.node(ino) {
            Some((_, _, size)) => reply.attr(&TTL, &attr(ino, size)),
            None => reply.error(Errno::ENOENT),
        }
    }

    fn setattr(
        &self,
        _req: &Request,
        ino: INodeNo,
        _mode: Option<u32>,
        _uid: Option<u32>,
        _gid: Option<u32>,
        size: Option<u64>,
        _atime: Option<TimeOrNow>,
        _mtime: Option<TimeOrNow>,
        _ctime: Option<SystemTime>,
        _fh: Option<FileHandle>,
        _crtime: Option<SystemTime>,
        _chgtime: Option<SystemTime>,
        _bkuptime: Option<SystemTime>,
        _flags: Option<fuser::BsdFileFlags>,
        reply: ReplyAttr,
    ) {
        if let Some(size) = size {
            if let Err(e) = self.resize(ino, size) {
                return reply.error(e);
            }
        }
        match self.node(ino) {
            Some((_, _, size)) => reply.attr(&TTL, &attr(ino, size)),
            None if ino == INodeNo::ROOT => reply.attr(&TTL, &attr(ino, 0)),
            None => reply.error(Errno::ENOENT),
        }
    }

    fn create(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        _mode: u32,
        _umask: u32,
        _flags: i32,
        reply: ReplyCreate,
    ) {
        let (Some(name), true) = (name.to_str(), parent == INodeNo::ROOT) else { return reply.error(Errno::EINVAL) };
        let made = self.state.lock().unwrap().create(&self.dir, name);
        match made {
            Ok((ino, size)) => reply.created(
                &TTL,
                &attr(INodeNo(ino), size),
                fuser::Generation(0),
                FileHandle(0),
                FopenFlags::FOPEN_DIRECT_IO,
            ),
            Err(e) => reply.error(errno(e)),
        }
    }

    fn open(&self, _req: &Request, _ino: INodeNo, _flags: OpenFlags, reply: ReplyOpen) {
        reply.opened(FileHandle(0), FopenFlags::FOPEN_DIRECT_IO);
    }

    fn read(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock: Option<LockOwner>,
        reply: ReplyData,
    ) {
        let Some((name, file, fsize)) = self.node(ino) else { return reply.error(Errno::ENOENT) };
        let len = (size as u64).min(fsize.saturating_sub(offset)) as usize;
        let fault = self.state.lock().unwrap().draw(&name, offset, len, false);
        if fault == Some("eio") {
            return reply.error(Errno::EIO);
        }
        let from = match fault {
            Some("misdirect") if offset >= len as u64 => offset - len as u64,
            Some("misdirect") => offset + len as u64,
            _ => offset,
        };
        let mut buf = vec![0u8; len];
        let read = if fault == Some("misdirect") {
            let _alone = self.io.write().unwrap();
            file.read_exact_at(&mut buf, from)
        } else {
            let _shared = self.io.read().unwrap();
            file.read_exact_at(&mut buf, from)
        };
        if let Err(e) = read {
            return reply.error(errno(e));
        }
        match fault {
            Some("bitflip") => {
                let bit = self.state.lock().unwrap().rng.random_range(0..len * 8);
                buf[bit / 8] ^= 1 << (bit % 8);
            }
            Some("unread") => iolens::verify::mark_unread(&mut buf, 512),
            Some("delay") => {
                let d = self.state.lock().unwrap().faults.delay;
                std::thread::spawn(move || {
                    std::thread::sleep(d);
                    reply.data(&buf);
                });
                return;
            }
            _ => {}
        }
        reply.data(&buf);
    }

    fn write(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        data: &[u8],
        _wf: WriteFlags,
        _flags: OpenFlags,
        _lock: Option<LockOwner>,
        reply: ReplyWrite,
    ) {
        let Some((name, file, fsize)) = self.node(ino) else { return reply.error(Errno::ENOENT) };
        let end = offset + data.len() as u64;
        if end > fsize {
            if let Err(e) = self.resize(ino, end) {
                return reply.error(e);
            }
        }
        let stored = match self.state.lock().unwrap().draw(&name, offset, data.len(), true) {
            Some("lost") => &data[..0],
            Some("torn") => &data[..data.len() / 2 / 512 * 512],
            _ => data,
        };
        let _shared = self.io.read().unwrap();
        match file.write_all_at(stored, offset) {
            Ok(()) => reply.written(data.len() as u32),
            Err(e) => reply.error(errno(e)),
        }
    }

    fn fallocate(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        length: u64,
        mode: i32,
        reply: ReplyEmpty,
    ) {
        let Some((_, _, size)) = self.node(ino) else { return reply.error(Errno::ENOENT) };
        // Space is not reserved (the backing file is sparse); only the size follows.
        let grow = mode & libc::FALLOC_FL_KEEP_SIZE == 0 && offset + length > size;
        match if grow { self.resize(ino, offset + length) } else { Ok(()) } {
            Ok(()) => reply.ok(),
            Err(e) => reply.error(e),
        }
    }

    fn unlink(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEmpty) {
        let mut st = self.state.lock().unwrap();
        let Some(ino) = st.nodes.iter().find(|(_, n)| parent == INodeNo::ROOT && n.name.as_str() == name).map(|e| *e.0)
        else {
            return reply.error(Errno::ENOENT);
        };
        let n = st.nodes.remove(&ino).unwrap();
        // No read can meet them now; they stay Pending in the log, the mark of a fault left
        // unread.
        let st = &mut *st;
        let log = &st.faults.log;
        st.pending.retain(|&i| log[i].file != n.name);
        let _ = std::fs::remove_file(self.dir.join(ino.to_string()));
        reply.ok();
    }

    fn readdir(&self, _req: &Request, ino: INodeNo, _fh: FileHandle, offset: u64, mut reply: ReplyDirectory) {
        if ino != INodeNo::ROOT {
            return reply.error(Errno::ENOTDIR);
        }
        let st = self.state.lock().unwrap();
        let mut all = vec![(INodeNo::ROOT, FileType::Directory, ".".to_string())];
        all.push((INodeNo::ROOT, FileType::Directory, "..".to_string()));
        all.extend(st.nodes.iter().map(|(&i, n)| (INodeNo(i), FileType::RegularFile, n.name.clone())));
        for (i, (ino, kind, name)) in all.into_iter().enumerate().skip(offset as usize) {
            if reply.add(ino, i as u64 + 1, kind, name) {
                break;
            }
        }
        reply.ok();
    }

    fn statfs(&self, _req: &Request, _ino: INodeNo, reply: ReplyStatfs) {
        let used: u64 = self.state.lock().unwrap().nodes.values().map(|n| n.size).sum();
        let (blocks, free) = (self.capacity / 4096, self.capacity.saturating_sub(used) / 4096);
        reply.statfs(blocks, free, free, 1 << 20, 1 << 20, 4096, 255, 4096);
    }

    fn flush(&self, _req: &Request, _ino: INodeNo, _fh: FileHandle, _lock: LockOwner, reply: ReplyEmpty) {
        reply.ok();
    }

    fn fsync(&self, _req: &Request, _ino: INodeNo, _fh: FileHandle, _datasync: bool, reply: ReplyEmpty) {
        reply.ok();
    }
}

/// A mounted fault file system; unmounted when dropped.
pub struct FaultFs {
    state: Arc<Mutex<State>>,
    _session: fuser::BackgroundSession,
    pub mountpoint: PathBuf,
}

impl FaultFs {
    /// Mounts on `mountpoint` a file system of 1 GiB kept in the directory `backing`
    /// (created), holding a file `data` of `size` bytes unless `size` is 0.
    pub fn mount(mountpoint: &Path, backing: &Path, size: u64, seed: u64) -> std::io::Result<FaultFs> {
        std::fs::create_dir_all(backing)?;
        let state = Arc::new(Mutex::new(State {
            faults: Faults::default(),
            rng: SmallRng::seed_from_u64(seed),
            nodes: BTreeMap::new(),
            next_ino: 2,
            pending: Vec::new(),
        }));
        if size > 0 {
            let (ino, _) = state.lock().unwrap().create(backing, "data")?;
            let mut st = state.lock().unwrap();
            let n = st.nodes.get_mut(&ino).unwrap();
            n.file.set_len(size)?;
            n.size = size;
        }
        let fs =
            Fs { dir: backing.to_path_buf(), capacity: 1 << 30, state: Arc::clone(&state), io: Default::default() };
        let mut config = Config::default();
        config.mount_options = vec![MountOption::FSName("iolens-faultfs".into()), MountOption::RW];
        config.n_threads = Some(4);
        let session = fuser::spawn_mount(fs, mountpoint, &config)?;
        Ok(FaultFs { state, _session: session, mountpoint: mountpoint.to_path_buf() })
    }

    pub fn data(&self) -> PathBuf {
        self.mountpoint.join("data")
    }

    /// Breaks `rate` of the eligible page-sized requests with `kind` from now on (None: none).
    pub fn set(&self, kind: Option<&'static str>, rate: f64, page: u32) {
        self.arm(Faults { kind, rate, page, ..Default::default() });
    }

    /// Breaks requests as `f` says (its counts and log are not used) from now on.
    pub fn arm(&self, f: Faults) {
        let mut st = self.state.lock().unwrap();
        let keep = std::mem::take(&mut st.faults);
        st.faults =
            Faults { eligible: 0, injected: keep.injected, reads: keep.reads, writes: keep.writes, log: keep.log, ..f };
    }

    /// The counts and the log so far, and starts them afresh (write faults still pending
    /// are no longer followed).
    pub fn take(&self) -> Faults {
        let mut st = self.state.lock().unwrap();
        let f = st.faults.clone();
        st.faults.injected = [0; 7];
        st.faults.reads = 0;
        st.faults.writes = 0;
        st.faults.log.clear();
        st.pending.clear();
        f
    }
}

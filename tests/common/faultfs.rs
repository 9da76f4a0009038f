//! A FUSE file system with one file, `data`, kept in a backing file, that breaks a chosen
//! fraction of page-sized reads or writes the kernel hands it: the same five faults as
//! `run --inject`, but below the VFS, so iolens sees them through the real kernel path
//! (O_DIRECT → FUSE → this process) and not through anything of its own.
//!
//! Mounted in-process with a background session (the `fuser` crate over /dev/fuse; as root it
//! mounts with mount(2) itself, fusermount3 is only needed otherwise). Every open is answered
//! with FOPEN_DIRECT_IO, so iolens's O_DIRECT reads and writes reach this file system one for
//! one, at their own offsets and lengths; iolens runs on the mount with its default O_DIRECT.
//!
//! Only requests of exactly `page` bytes are eligible: iolens stamps the file in 1 MiB writes
//! first, which must land whole. The faults:
//! - lost: a write answered as done, not stored;
//! - torn: only the first half of the page (whole 512-byte units) stored, answered as done;
//! - misdirect: a read served from the neighbouring page;
//! - bitflip: a read served with one bit flipped;
//! - unread: a read answered as done with the caller's buffer as it was: iolens marks every
//!   unit of a buffer before reading into it, so the answer carries that marker (a device
//!   that did not transfer leaves exactly that behind).

use fuser::{
    Config, Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags, INodeNo, LockOwner, MountOption, OpenFlags,
    ReplyAttr, ReplyData, ReplyEmpty, ReplyEntry, ReplyOpen, ReplyWrite, Request, WriteFlags,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::ffi::OsStr;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, UNIX_EPOCH};

pub const KINDS: [&str; 5] = ["lost", "torn", "misdirect", "bitflip", "unread"];

/// What to break, how often, and what was broken.
#[derive(Debug, Clone, Default)]
pub struct Faults {
    /// One of KINDS, or None for a healthy file system.
    pub kind: Option<&'static str>,
    pub rate: f64,
    /// Only requests of this many bytes are eligible.
    pub page: u32,
    /// Faults injected, by kind (KINDS order).
    pub injected: [u64; 5],
    /// Page-sized reads and writes served.
    pub reads: u64,
    pub writes: u64,
}

struct Fs {
    backing: File,
    size: u64,
    state: Arc<Mutex<(Faults, SmallRng)>>,
}

const TTL: Duration = Duration::from_secs(1);
const DATA: INodeNo = INodeNo(2);

fn attr(ino: INodeNo, size: u64) -> FileAttr {
    let (kind, perm, nlink) =
        if ino == INodeNo::ROOT { (FileType::Directory, 0o755, 2) } else { (FileType::RegularFile, 0o644, 1) };
    FileAttr {
        ino,
        size,
        blocks: size / 512,
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

impl Fs {
    /// The fault to apply to this request, counted; None for most.
    fn draw(&self, len: usize, write: bool) -> Option<&'static str> {
        let mut st = self.state.lock().unwrap();
        let (f, rng) = &mut *st;
        if len != f.page as usize {
            return None;
        }
        if write {
            f.writes += 1;
        } else {
            f.reads += 1;
        }
        let kind = f.kind?;
        let for_writes = matches!(kind, "lost" | "torn");
        if for_writes != write || !rng.random_bool(f.rate) {
            return None;
        }
        f.injected[KINDS.iter().position(|k| *k == kind).unwrap()] += 1;
        Some(kind)
    }

    fn neighbour(&self, offset: u64, len: u64) -> u64 {
        if offset + 2 * len <= self.size {
            offset + len
        } else {
            offset - len
        }
    }
}

impl Filesystem for Fs {
    fn lookup(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        if parent == INodeNo::ROOT && name == "data" {
            reply.entry(&TTL, &attr(DATA, self.size), fuser::Generation(0));
        } else {
            reply.error(Errno::ENOENT);
        }
    }

    fn getattr(&self, _req: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        match ino {
            INodeNo::ROOT => reply.attr(&TTL, &attr(ino, 0)),
            DATA => reply.attr(&TTL, &attr(ino, self.size)),
            _ => reply.error(Errno::ENOENT),
        }
    }

    fn open(&self, _req: &Request, _ino: INodeNo, _flags: OpenFlags, reply: ReplyOpen) {
        reply.opened(FileHandle(0), FopenFlags::FOPEN_DIRECT_IO);
    }

    fn read(
        &self,
        _req: &Request,
        _ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock: Option<LockOwner>,
        reply: ReplyData,
    ) {
        let len = (size as u64).min(self.size.saturating_sub(offset)) as usize;
        let fault = self.draw(len, false);
        let from = if fault == Some("misdirect") { self.neighbour(offset, len as u64) } else { offset };
        let mut buf = vec![0u8; len];
        if let Err(e) = self.backing.read_exact_at(&mut buf, from) {
            return reply.error(Errno::from_i32(e.raw_os_error().unwrap_or(libc::EIO)));
        }
        match fault {
            Some("bitflip") => {
                let bit = self.state.lock().unwrap().1.random_range(0..len * 8);
                buf[bit / 8] ^= 1 << (bit % 8);
            }
            Some("unread") => iolens::verify::mark_unread(&mut buf, 512),
            _ => {}
        }
        reply.data(&buf);
    }

    fn write(
        &self,
        _req: &Request,
        _ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        data: &[u8],
        _wf: WriteFlags,
        _flags: OpenFlags,
        _lock: Option<LockOwner>,
        reply: ReplyWrite,
    ) {
        if offset + data.len() as u64 > self.size {
            return reply.error(Errno::ENOSPC);
        }
        let stored = match self.draw(data.len(), true) {
            Some("lost") => &data[..0],
            Some("torn") => &data[..data.len() / 2 / 512 * 512],
            _ => data,
        };
        match self.backing.write_all_at(stored, offset) {
            Ok(()) => reply.written(data.len() as u32),
            Err(e) => reply.error(Errno::from_i32(e.raw_os_error().unwrap_or(libc::EIO))),
        }
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
    state: Arc<Mutex<(Faults, SmallRng)>>,
    _session: fuser::BackgroundSession,
    pub mountpoint: std::path::PathBuf,
}

impl FaultFs {
    /// Mounts on `mountpoint` a file `data` of `size` bytes kept in `backing` (created).
    pub fn mount(mountpoint: &Path, backing: &Path, size: u64, seed: u64) -> std::io::Result<FaultFs> {
        let file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(true).open(backing)?;
        file.set_len(size)?;
        let state = Arc::new(Mutex::new((Faults::default(), SmallRng::seed_from_u64(seed))));
        let fs = Fs { backing: file, size, state: Arc::clone(&state) };
        let mut config = Config::default();
        config.mount_options = vec![MountOption::FSName("iolens-faultfs".into()), MountOption::RW];
        let session = fuser::spawn_mount(fs, mountpoint, &config)?;
        Ok(FaultFs { state, _session: session, mountpoint: mountpoint.to_path_buf() })
    }

    pub fn data(&self) -> std::path::PathBuf {
        self.mountpoint.join("data")
    }

    /// Breaks `rate` of the eligible page-sized requests with `kind` from now on (None: none).
    pub fn set(&self, kind: Option<&'static str>, rate: f64, page: u32) {
        let mut st = self.state.lock().unwrap();
        st.0.kind = kind;
        st.0.rate = rate;
        st.0.page = page;
    }

    /// The counts so far, and zeroes them.
    pub fn take(&self) -> Faults {
        let mut st = self.state.lock().unwrap();
        let f = st.0.clone();
        st.0.injected = [0; 5];
        st.0.reads = 0;
        st.0.writes = 0;
        f
    }
}

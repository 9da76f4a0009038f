//! fio's file and directory engines (filecreate, filestat, filedelete, dircreate, dirstat,
//! dirdelete): each I/O is one operation on its file's name, carried out inside the submitting
//! call so that the I/O's latency is the operation's, and no data moves. Directories a stat or
//! delete works on are made when the engine is set up, as fio's engine setup makes them.

use super::{BufPool, Completion, Engine, EngineSetup, IoReq};
use crate::workload::MetaOp;
use std::fs::{self, File};
use std::io;
use std::path::PathBuf;
use std::time::Duration;

pub struct MetaEngine {
    op: MetaOp,
    paths: Vec<PathBuf>,
    bufs: BufPool,
    queued: Vec<IoReq>,
    done: super::null::Ready,
    /// The file the last create opened: closed before the next operation is timed, as fio
    /// closes it apart from the create it measures.
    created: Option<File>,
}

impl MetaEngine {
    pub fn new(setup: &EngineSetup, op: MetaOp) -> io::Result<Self> {
        if matches!(op, MetaOp::DirStat | MetaOp::DirDelete) {
            for p in setup.paths {
                match fs::create_dir(p) {
                    Err(e) if e.kind() != io::ErrorKind::AlreadyExists => {
                        return Err(io::Error::new(e.kind(), format!("creating directory {}: {e}", p.display())))
                    }
                    _ => {}
                }
            }
        }
        Ok(MetaEngine {
            op,
            paths: setup.paths.to_vec(),
            bufs: BufPool::apart(setup.depth as usize, setup.buf_size, setup.apart)?,
            queued: Vec::with_capacity(setup.depth as usize),
            done: super::null::Ready::with_capacity(setup.depth as usize),
            created: None,
        })
    }

    fn run(&mut self, file: u32) -> io::Result<()> {
        let p = &self.paths[file as usize % self.paths.len()];
        match self.op {
            // O_CREAT|O_RDWR, as fio opens it: an existing file keeps its contents.
            MetaOp::FileCreate => {
                self.created = Some(File::options().create(true).truncate(false).read(true).write(true).open(p)?)
            }
            // std's metadata is statx where the kernel has it, stat elsewhere.
            MetaOp::FileStat | MetaOp::DirStat => {
                fs::metadata(p)?;
            }
            MetaOp::FileDelete => fs::remove_file(p)?,
            MetaOp::DirCreate => fs::create_dir(p)?,
            MetaOp::DirDelete => fs::remove_dir(p)?,
        }
        Ok(())
    }
}

impl Engine for MetaEngine {
    fn depth_for(requested: u32) -> (u32, Option<String>) {
        // Each operation is a system call that blocks its thread, as fio's engines are sync.
        let why = (requested > 1).then(|| {
            format!("the file and directory engines run one operation at a time per thread; --qd {requested} acts as 1")
        });
        (1, why)
    }

    fn max_depth(&self) -> u32 {
        self.bufs.count() as u32
    }

    fn synchronous(&self) -> bool {
        true
    }

    fn buffer(&mut self, slot: u32) -> &mut [u8] {
        self.bufs.slot(slot as usize)
    }

    fn queue(&mut self, req: IoReq) {
        self.created = None;
        self.queued.push(req);
    }

    fn submit_and_reap(
        &mut self,
        out: &mut [Completion],
        _min: usize,
        _timeout: Option<Duration>,
    ) -> io::Result<usize> {
        for i in 0..self.queued.len() {
            let req = self.queued[i];
            let result = match req.op {
                super::OpKind::Flush | super::OpKind::Trim => 0,
                _ => match self.run(req.file) {
                    Ok(()) => req.len as i64,
                    Err(e) => -(e.raw_os_error().unwrap_or(5) as i64),
                },
            };
            self.done.push(Completion { slot: req.slot, result });
        }
        self.queued.clear();
        Ok(self.done.move_into(out))
    }
}

#[cfg(test)]
mod tests;

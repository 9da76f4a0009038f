//! fio's ioengines as iolens runs them: io_uring and psync for the engines that do the same
//! I/O on local files and block devices (with a note where one stands in for another), fio's
//! file and directory operation engines as they are, and a one-line refusal naming any other.

use crate::workload::EngineKind;

type R<T> = Result<T, String>;

/// The iolens engine for a fio ioengine on local files and block devices, with a note when it
/// is a stand-in; any other engine (network, object stores, special devices) is refused by
/// name.
pub(super) fn engine(v: &str) -> R<(EngineKind, Option<String>)> {
    let stand_in = |k, how: &str| Ok((k, Some(format!("ioengine={v}: iolens runs it on {how}"))));
    match v {
        "io_uring" => Ok((EngineKind::IoUring, None)),
        "psync" | "sync" | "pvsync" => Ok((EngineKind::Psync, None)),
        "libaio" | "posixaio" => stand_in(EngineKind::IoUring, "io_uring"),
        // fio's Windows engine is overlapped I/O on a completion port, which iocp is.
        "windowsaio" => Ok((EngineKind::Iocp, None)),
        "vsync" | "pvsync2" | "mmap" | "splice" => stand_in(EngineKind::Psync, "psync (pread/pwrite)"),
        "null" => Ok((EngineKind::Null, None)),
        _ => match crate::workload::MetaOp::ALL.into_iter().find(|o| o.name() == v) {
            Some(op) => Ok((EngineKind::Meta(op), None)),
            None => Err(refused(v)),
        },
    }
}

/// What the job's I/O is: fio's file and directory engines operate once per file each time it
/// is opened, so one I/O per file per pass, the file its block (and how data files are laid
/// out and kept open does not touch an operation on names, so those notes go); other engines
/// move data, through the page cache unless direct=1.
pub(super) fn settle_io(s: &mut crate::workload::Spec, notes: &mut Vec<String>) {
    if let EngineKind::Meta(_) = s.engine {
        s.blocks = vec![crate::workload::BlockShare { size: s.size.max(1), pct: 100 }];
        s.write_blocks = None;
        let layout = ["create_on_open=", "fallocate=", "openfiles="];
        notes.retain(|n| !layout.iter().any(|k| n.starts_with(k)));
    } else if !s.direct {
        notes.push("direct=0 (fio's default): buffered I/O through the page cache".into());
    }
}

/// fio's name for the engine iolens runs.
pub fn fio_name(kind: EngineKind) -> &'static str {
    match kind {
        EngineKind::Iocp => "windowsaio",
        EngineKind::Psync => "psync",
        k => k.name(),
    }
}

/// The one line refusing an engine iolens does not have.
pub(super) fn refused(v: &str) -> String {
    format!(
        "ioengine={v}: iolens has no {v} engine; it measures local files and block devices with io_uring, \
         libaio, posixaio, windowsaio, psync, sync, vsync, pvsync, pvsync2, mmap, splice or null, and file \
         and directory operations with filecreate, filestat, filedelete, dircreate, dirstat or dirdelete"
    )
}

use super::*;
use crate::engine::OpKind;

fn engine(op: MetaOp, paths: &[PathBuf]) -> MetaEngine {
    let setup = EngineSetup {
        files: &[],
        paths,
        depth: 1,
        buf_size: 4096,
        apart: 0,
        mixed: false,
        direct: false,
        write_through: false,
        writes: false,
        hint: crate::workload::AccessHint::None,
        bypass: None,
        register: true,
    };
    MetaEngine::new(&setup, op).unwrap()
}

/// One operation on file `file`: its completion's result.
fn op(e: &mut MetaEngine, file: u32) -> i64 {
    e.queue(IoReq { slot: 0, file, op: OpKind::Read, offset: 0, len: 4096, ioprio: 0 });
    let mut out = [Completion::default(); 1];
    assert_eq!(e.submit_and_reap(&mut out, 1, None).unwrap(), 1);
    out[0].result
}

#[test]
fn each_operation_does_what_its_engine_names_once_per_io() {
    let dir = tempfile::tempdir().unwrap();
    let paths = [dir.path().join("a"), dir.path().join("b")];
    let mut e = engine(MetaOp::FileCreate, &paths);
    assert_eq!((op(&mut e, 0), op(&mut e, 1)), (4096, 4096));
    assert!(paths.iter().all(|p| p.is_file() && p.metadata().unwrap().len() == 0), "created, empty");
    let mut e = engine(MetaOp::FileStat, &paths);
    assert_eq!(op(&mut e, 1), 4096);
    let mut e = engine(MetaOp::FileDelete, &paths);
    assert_eq!(op(&mut e, 0), 4096);
    assert!(!paths[0].exists() && paths[1].exists());
    // A second delete of the same file fails as the system call does: ENOENT.
    assert_eq!(op(&mut e, 0), -2);
    let mut e = engine(MetaOp::FileStat, &paths);
    assert_eq!(op(&mut e, 0), -2);
    let dirs = [dir.path().join("d")];
    let mut e = engine(MetaOp::DirCreate, &dirs);
    assert_eq!(op(&mut e, 0), 4096);
    assert!(dirs[0].is_dir());
    let mut e = engine(MetaOp::DirDelete, &dirs);
    assert_eq!(op(&mut e, 0), 4096);
    assert!(!dirs[0].exists());
    // A stat or delete of directories makes them at set-up, as fio's engine does.
    let e = engine(MetaOp::DirStat, &dirs);
    assert!(dirs[0].is_dir());
    drop(e);
}

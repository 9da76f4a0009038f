use super::*;

#[test]
fn every_pattern_builds_for_every_database() {
    let base = Spec { targets: vec!["f".into()], ..Spec::default() };
    for db in [Db::SqlServer, Db::Postgres, Db::Db2 { page: 16384 }] {
        for name in NAMES {
            let p = pattern(name, db, &base).unwrap();
            assert_eq!(p.spec.blocks.iter().map(|b| b.pct).sum::<u32>(), 100, "{name}");
            assert!(p.description.starts_with(name));
        }
    }
}

#[test]
fn sizes_follow_the_database() {
    let base = Spec { targets: vec!["f".into()], ..Spec::default() };
    let oltp = pattern("oltp", Db::SqlServer, &base).unwrap().spec;
    assert_eq!((oltp.blocks[0].size, oltp.read_pct, oltp.pattern), (8192, 70, Pattern::Random));
    let log = pattern("log", Db::SqlServer, &base).unwrap().spec;
    assert_eq!((log.min_block(), log.max_block(), log.qd, log.write_through), (512, 61440, 1, true));
    assert_eq!(pattern("oltp", Db::Db2 { page: 32768 }, &base).unwrap().spec.blocks[0].size, 32768);
    assert_eq!(pattern("readahead", Db::Db2 { page: 4096 }, &base).unwrap().spec.blocks[0].size, 131072);
    assert_eq!(pattern("log", Db::Postgres, &base).unwrap().spec.min_block(), 8192);
    assert_eq!(pattern("restore", Db::SqlServer, &base).unwrap().spec.read_pct, 0);
    assert_eq!(pattern("nosql", Db::SqlServer, &base).unwrap_err().option, "PATTERN");
    assert_eq!(Db::parse("db2", Some(12288)).unwrap_err().option, "--page-size");
    assert_eq!(Db::parse("oracle", None).unwrap_err().option, "--db");
}

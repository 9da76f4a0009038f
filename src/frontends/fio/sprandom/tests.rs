use crate::frontends::fio::{parse_job_text, FioJob};
use crate::workload::sprandom::Settings;
use crate::workload::RandomDist;
use std::path::Path;

fn parse(text: &str) -> Result<Vec<FioJob>, String> {
    parse_job_text(text, Path::new("."), &|_| None).map_err(|e| e.to_string())
}

#[test]
fn sprandom_replaces_the_random_map_with_its_stream_as_fio_sets_it() {
    let base = "[j]\nfilename=f\nsize=32m\nrw=randwrite\nsprandom=1\n";
    let j = &parse(&format!("{base}spr_op=0.1\nspr_num_regions=50\nspr_cs=32k\n")).unwrap()[0];
    assert_eq!(j.spec.random_dist, RandomDist::SpRandom(Settings { op: 0.1, regions: 50, cache: 32 << 10 }));
    assert!(!j.spec.random_map);
    assert!(j.notes.iter().any(|n| n == "sprandom sets random_generator=lfsr"), "{:?}", j.notes);
    // fio's defaults: 15 % over-provisioning, 100 regions, no cache.
    let j = &parse(&format!("{base}random_generator=lfsr\nnorandommap=1\n")).unwrap()[0];
    assert_eq!(j.spec.random_dist, RandomDist::SpRandom(Settings { op: 0.15, regions: 100, cache: 0 }));
    assert!(!j.notes.iter().any(|n| n.starts_with("sprandom sets")), "{:?}", j.notes);
}

#[test]
fn what_fio_requires_with_sprandom_is_named() {
    let base = "[j]\nfilename=f\nsize=32m\nsprandom=1\n";
    for (more, says) in [
        ("rw=randread", "needs random writes"),
        ("rw=write", "needs random writes"),
        ("rw=randwrite\nrandom_generator=tausworthe", "requires random_generator=lfsr"),
        ("rw=randwrite\nnorandommap=0", "requires norandommap=1"),
        ("rw=randwrite\nnrfiles=2", "supports only one file"),
    ] {
        let e = parse(&format!("{base}{more}\n")).unwrap_err();
        assert!(e.contains(&format!("sprandom: {says}")), "{more}: {e}");
    }
}

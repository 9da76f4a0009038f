//! DiskSpd 2.3's switches, each as its own documentation writes them.

use super::super::{parse, DiskspdJob, R};

fn p(line: &str) -> R<DiskspdJob> {
    parse(&line.split_whitespace().map(String::from).collect::<Vec<_>>())
}

fn err(line: &str) -> (String, String) {
    let e = p(line).expect_err(line);
    (e.option, e.message)
}

#[test]
fn ioring_batches_a_share_of_the_queue_or_a_count() {
    let batch = |sw: &str| p(&format!("-o8 {sw} -c1M t.dat")).unwrap().spec.batch;
    // 25 % of -o by default, a count, a percentage, and n (no registered buffers) alike.
    assert_eq!([batch("-u"), batch("-u3"), batch("-u50p"), batch("-un8"), batch("-u99")], [2, 3, 4, 8, 8]);
    let j = p("-u -c1M t.dat").unwrap();
    assert!(
        j.notes.iter().any(|n| n.starts_with("-u: ") && n.ends_with("submitting 1 I/Os at a time")),
        "{:?}",
        j.notes
    );
    assert!(err("-u0 -c1M t.dat").1.contains("'-u0'"));
    assert!(err("-u101p -c1M t.dat").1.contains("percentage must be 1-100"));
}

#[test]
fn bypass_io_needs_unbuffered_io_and_is_refused_by_the_switch_typed() {
    assert_eq!(err("-Sy -c1M t.dat").1, "ERROR: BypassIO (-SY or -Sy) requires unbuffered IO (-Su)");
    let (option, why) = err("-Suy -c1M t.dat");
    assert!(option.contains("-Suy") || why.contains("'-Suy'"), "{option}: {why}");
    assert!(why.contains("BypassIO is not supported"), "{why}");
    assert!(err("-SY -Su -c1M t.dat").1.contains("'-SY'"));
}

#[test]
fn affinity_orders_buffer_separation_and_completion_depth_run_with_a_note() {
    for sw in ["-ac", "-as", "-ap", "-aP", "-ae", "-aE", "-aup", "-acs", "-ag0,0-1", "-a0,1"] {
        let j = p(&format!("{sw} -c1M t.dat")).unwrap_or_else(|e| panic!("{sw}: {e}"));
        assert!(j.notes.iter().any(|n| n.starts_with(&format!("{sw}: CPU affinity"))), "{sw}: {:?}", j.notes);
    }
    assert!(err("-a0- -c1M t.dat").1.contains("syntax error parsing affinity"));
    let j = p("-bsn -b8k -oc4 -c1M t.dat").unwrap();
    assert_eq!(j.spec.blocks[0].size, 8192, "-bsn is no block size");
    assert!(j.notes.iter().any(|n| n.starts_with("-bsn: ")) && j.notes.iter().any(|n| n.starts_with("-oc4: ")));
    assert!(err("-bsx -c1M t.dat").1.contains("invalid buffer separation passed to -bs"));
    assert!(err("-oc17 -c1M t.dat").1.contains("completion depth (-oc) must be 1-16"));
    assert!(err("-Rs").1.contains("system information alone is not supported"));
}

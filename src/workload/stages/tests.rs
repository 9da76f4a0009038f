use super::*;

fn block(s: &str) -> Result<u64, String> {
    match s {
        "64k" => Ok(65536),
        "1024k" => Ok(1 << 20),
        _ => Err(format!("'{s}' is not a size")),
    }
}

#[test]
fn bssplit_shares_take_their_own_class_or_the_jobs_and_zero_shares_are_dropped() {
    // fio's latency_percentiles test 21.
    let v = CmdPrio::parse_bssplit("64k/25/1/1:64k/75/3/2:1024k/0", CLASS_RT, 0, block).unwrap();
    assert_eq!(
        v,
        [
            PrioShare { bs: Some(65536), pct: 25, ioprio: (1 << 13) | 1 },
            PrioShare { bs: Some(65536), pct: 75, ioprio: (3 << 13) | 2 },
        ]
    );
    let v = CmdPrio::parse_bssplit("64k/40", 3, 5, block).unwrap();
    assert_eq!(v[0].ioprio, (3 << 13) | 5);
    assert!(CmdPrio::parse_bssplit("64k/50/1", CLASS_RT, 0, block).is_err());
    assert!(CmdPrio::parse_bssplit("9q/50", CLASS_RT, 0, block).is_err());
    // Class 0 is fio's "none given": best effort.
    assert_eq!(ioprio(0, 4), (2 << 13) | 4);
}

#[test]
fn a_draw_picks_the_stacked_share_of_its_size_else_the_default() {
    let p = CmdPrio {
        read: CmdPrio::parse_bssplit("64k/25/1/1:64k/75/3/2", CLASS_RT, 0, block).unwrap(),
        write: vec![PrioShare { bs: None, pct: 50, ioprio: 1 << 13 }],
    };
    assert_eq!(p.pick(false, 65536, 0), (1 << 13) | 1);
    assert_eq!(p.pick(false, 65536, 24), (1 << 13) | 1);
    assert_eq!(p.pick(false, 65536, 25), (3 << 13) | 2);
    assert_eq!(p.pick(false, 65536, 99), (3 << 13) | 2);
    assert_eq!(p.pick(false, 1 << 20, 0), 0, "a size without shares keeps the default");
    assert_eq!((p.pick(true, 4096, 49), p.pick(true, 4096, 50)), (1 << 13, 0));
    assert_eq!(p.levels(), [0, (1 << 13) | 1, (3 << 13) | 2, 1 << 13]);
}

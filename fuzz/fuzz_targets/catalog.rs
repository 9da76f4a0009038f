//! A `--catalog` TOML file of disk and VM limits → a catalog or a one-line error; every disk
//! and VM of an accepted one answers the questions `plan` and `explain` ask of it, and plans
//! and matches are made from it.
#![no_main]

use iolens::analyze::matching::matches;
use iolens::analyze::plan::{plan, Target};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(c) = iolens::analyze::catalog::parse(text, "--catalog fuzz.toml") else { return };
    for d in &c.disks {
        for gib in [0.0, 1.0, 128.0, 65536.0] {
            let _ = d.caps(gib, None);
            let _ = d.caps(gib, Some(1e6));
            let _ = d.max_iops_at(gib);
        }
        let _ = c.disk(&d.name);
    }
    for v in &c.vms {
        let _ = (v.caps(true), v.caps(false));
        let _ = c.vm(&v.name, v.disk.as_deref());
    }
    // What `plan` and `explain` do with the rows: configurations for a need, matches for caps.
    for (iops, mbps, size_gib) in [(5000.0, 200.0, None), (1e6, 1e4, Some(1e5)), (0.0, 0.0, Some(0.0))] {
        let t = Target { iops, mbps, clouds: Vec::new(), max_disks: 4, size_gib, generations_together: false };
        let _ = plan(&c.priced_in(&[]), &t);
        let _ = plan(&c, &t);
        let _ = matches(&c, Some(iops), Some(mbps), 0.1, &Default::default());
    }
});

//! Traces for `iolens replay` (fio iolog v2/v3, iolens's CSV) → the I/Os to replay or a one-line
//! error; what the replay then derives from them (shaping, extents, span) must not panic either.
#![no_main]

use iolens::workload::replay::{parse, Replay};
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, text)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let Ok((format, files, ios)) = parse(text, "trace") else { return };
    let mut r = Replay {
        trace: "trace".into(),
        format: format.name().into(),
        files,
        no_stall: false,
        time_scale: [1, 50, 100, 200, u32::MAX][knobs as usize % 5],
        scale: 1 + (knobs as u64 >> 4),
        align: 1 << (knobs & 15),
        redirect: (knobs & 1 == 1).then(|| "x".into()),
        ios: Arc::new(ios),
    };
    r.shape();
    for f in 0..r.target_count() as u32 {
        let _ = r.extent(f);
    }
    let _ = (r.span_ns(), r.max_len(), r.read_pct());
});

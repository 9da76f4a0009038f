//! Traces for `iolens replay` (fio iolog v2/v3, iolens's CSV and its timed form, blktrace's
//! binary per-CPU files) → the I/Os to replay or a one-line error; what the replay then derives
//! from them (shaping, extents, span) must not panic either.
#![no_main]

use iolens::frontends::replay::{is_blktrace, parse, parse_blktrace, Parsed, Replay};
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, data)) = data.split_first() else { return };
    let parsed = if is_blktrace(data) {
        // Two per-CPU files: the input cut in two where the knobs say.
        let cut = (knobs as usize * 48).min(data.len());
        parse_blktrace(&[("trace.0", &data[..cut]), ("trace.1", &data[cut..])])
    } else {
        let Ok(text) = std::str::from_utf8(data) else { return };
        parse(text, "trace")
    };
    let Ok(Parsed { format, files, ios, capture_ns }) = parsed else { return };
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
        capture_ns: Arc::new(capture_ns),
        redirect_name: "--redirect".into(),
    };
    for f in &r.files {
        let _ = r.device(f);
    }
    r.shape();
    for f in 0..r.target_count() as u32 {
        let _ = r.extent(f);
    }
    let _ = (r.span_ns(), r.max_len(knobs & 2 == 2), r.read_pct());
});

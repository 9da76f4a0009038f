//! The fio options iolens accepts without applying: each such option yields one note saying
//! what iolens does instead, so a job file written for fio runs and its report says where the
//! run differs.

/// fio options accepted and not applied, with what iolens does instead. `""` means the option
/// only tunes fio's own bookkeeping or output and is accepted silently.
const UNAPPLIED: &[(&str, &str)] = &[
    // fio's own bookkeeping, output and logs: nothing about the I/O changes.
    ("description", ""),
    ("percentile_list", "iolens reports its own fixed percentiles"),
    ("block_error_percentiles", ""),
    ("disable_lat", "iolens still times every I/O"),
    ("disable_clat", "iolens still times every I/O"),
    ("disable_slat", "iolens still times every I/O"),
    ("disable_bw_measurement", ""),
    ("gtod_reduce", "iolens still times every I/O"),
    ("clocksource", ""),
    ("threads", ""),
    ("create_serialize", ""),
    ("error_dump", ""),
    ("serialize_overlap", "iolens does not hold back an I/O that overlaps one in flight"),
    ("lockmem", "iolens does not lock memory away from the page cache"),
    // How fio submits: iolens' own submission path is the same either way.
    ("io_submit_mode", "iolens submits from the worker threads (fio's inline mode)"),
    ("iodepth_batch_complete", ""),
    ("iodepth_batch_complete_min", ""),
    ("iodepth_batch_complete_max", ""),
    ("iodepth_low", ""),
    ("sqthread_poll", "io_uring SQ polling is not used"),
    ("sqthread_poll_cpu", ""),
    ("nonvectored", ""),
    ("cpus_allowed", "workers are not pinned to CPUs"),
    ("cpus_allowed_policy", ""),
    ("cpumask", "workers are not pinned to CPUs"),
    ("numa_cpu_nodes", "workers are not bound to NUMA nodes"),
    ("numa_mem_policy", "buffers are not bound to NUMA nodes"),
    ("nice", "workers run at the default priority"),
    ("prio", "I/O priorities are not set"),
    ("prioclass", "I/O priorities are not set"),
    // Workload shaping iolens does not do: said in the note, the run goes ahead without it.
    ("flow_watermark", "fio itself has stopped using it"),
    ("latency_target", "fio searches for the queue depth meeting it; iolens runs at the iodepth given"),
    ("latency_window", ""),
    ("latency_percentile", ""),
    ("fill_device", "iolens writes the given size, not until the device is full"),
    ("max_open_zones", "iolens does not handle zoned block devices (zonemode=zbd)"),
    ("read_beyond_wp", ""),
    ("percentage_random", "the pattern is all random or all sequential in iolens"),
    ("openfiles", ""),
    ("pre_read", "iolens does not read the files into the cache first"),
    ("scramble_buffers", "iolens re-stamps every written block anyway"),
    ("dedupe_percentage", "iolens writes no duplicate blocks"),
    ("dedupe_mode", ""),
    ("dedupe_global", ""),
    ("dedupe_working_set_percentage", ""),
    ("fallocate", "iolens reserves new files with posix_fallocate and fills them"),
    ("create_on_open", "iolens creates and fills its files before the run"),
];

/// The fio name of an option iolens accepts without applying.
pub(super) fn unapplied(key: &str) -> Option<&'static str> {
    UNAPPLIED.iter().find(|(k, _)| *k == key).map(|(k, _)| *k)
}

/// The note for an accepted, unapplied option set to `v`, if it needs one. Settings that are
/// fio's default, or switch the feature off, need none.
pub(super) fn unapplied_note(key: &str, v: Option<&str>) -> Option<String> {
    let text = UNAPPLIED.iter().find(|(k, _)| *k == key)?.1;
    let v = v.map(str::trim);
    let quiet = match key {
        "fallocate" => matches!(v, Some("native" | "posix" | "1")),
        _ => matches!(v, Some("0" | "none" | "" | "inline" | "tausworthe" | "tausworthe64")),
    };
    (!text.is_empty() && !quiet).then(|| format!("{key}={}: {text}", v.unwrap_or("1")))
}

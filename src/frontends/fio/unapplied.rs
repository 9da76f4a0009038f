//! The fio options iolens accepts without applying: each such option yields one note saying
//! what iolens does instead, so a job file written for fio runs and its report says where the
//! run differs.

/// fio options accepted and not applied, with what iolens does instead. `""` (a description)
/// changes nothing but the report, which carries it among the job's options.
const UNAPPLIED: &[(&str, &str)] = &[
    // fio's own bookkeeping, output and logs: nothing about the I/O changes.
    ("description", ""),
    ("percentile_list", "iolens reports its own fixed percentiles"),
    ("block_error_percentiles", "iolens reports no trim block error percentiles"),
    ("disable_lat", "iolens still times every I/O"),
    ("disable_clat", "iolens still times every I/O"),
    ("disable_slat", "iolens still times every I/O"),
    ("disable_bw_measurement", "iolens still measures bandwidth"),
    ("gtod_reduce", "iolens still times every I/O"),
    ("clocksource", "iolens times with the monotonic clock"),
    ("threads", "iolens workers are always threads"),
    ("create_serialize", "iolens lays out a job's files before it starts"),
    ("error_dump", "iolens reports each error kind once with its count"),
    ("serialize_overlap", "iolens does not hold back an I/O that overlaps one in flight"),
    ("lockmem", "iolens does not lock memory away from the page cache"),
    // How fio submits: iolens' own submission path is the same either way.
    ("io_submit_mode", "iolens submits from the worker threads (fio's inline mode)"),
    ("iodepth_batch_complete", "iolens waits for one completion at a time (fio's default)"),
    ("iodepth_batch_complete_min", "iolens waits for one completion at a time (fio's default)"),
    ("iodepth_batch_complete_max", "iolens reaps one completion and refills its slot at once (fio's default)"),
    ("iodepth_low", "iolens refills the queue as I/Os complete"),
    ("sqthread_poll", "io_uring SQ polling is not used"),
    ("sqthread_poll_cpu", "io_uring SQ polling is not used"),
    ("nonvectored", "iolens chooses its io_uring operations itself"),
    ("cpus_allowed", "workers are not pinned to CPUs"),
    ("cpus_allowed_policy", "workers are not pinned to CPUs"),
    ("cpumask", "workers are not pinned to CPUs"),
    ("numa_cpu_nodes", "workers are not bound to NUMA nodes"),
    ("numa_mem_policy", "buffers are not bound to NUMA nodes"),
    ("nice", "workers run at the default priority"),
    ("prio", "I/O priorities are not set"),
    ("prioclass", "I/O priorities are not set"),
    // Workload shaping iolens does not do: said in the note, the run goes ahead without it.
    ("flow_watermark", "fio itself has stopped using it"),
    ("latency_target", "fio searches for the queue depth meeting it; iolens runs at the iodepth given"),
    ("latency_window", "fio searches for the queue depth meeting a latency target; iolens runs at the iodepth given"),
    (
        "latency_percentile",
        "fio searches for the queue depth meeting a latency target; iolens runs at the iodepth given",
    ),
    ("fill_device", "iolens writes the given size, not until the device is full"),
    ("max_open_zones", "iolens does not handle zoned block devices (zonemode=zbd)"),
    ("read_beyond_wp", "iolens does not handle zoned block devices (zonemode=zbd)"),
    ("percentage_random", "the pattern is all random or all sequential in iolens"),
    ("openfiles", "iolens keeps every file of the job open"),
    ("pre_read", "iolens does not read the files into the cache first"),
    ("scramble_buffers", "iolens re-stamps every written block anyway"),
    ("dedupe_percentage", "iolens writes no duplicate blocks"),
    ("dedupe_mode", "iolens writes no duplicate blocks"),
    ("dedupe_global", "iolens writes no duplicate blocks"),
    ("dedupe_working_set_percentage", "iolens writes no duplicate blocks"),
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
        "iodepth_batch_complete" | "iodepth_batch_complete_min" | "iodepth_batch_complete_max" => {
            matches!(v, Some("0" | "1"))
        }
        _ => matches!(v, Some("0" | "none" | "" | "inline" | "tausworthe" | "tausworthe64")),
    };
    (!text.is_empty() && !quiet).then(|| format!("{key}={}: {text}", v.unwrap_or("1")))
}

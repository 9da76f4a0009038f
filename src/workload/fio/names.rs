//! The fio options iolens reads, by the names fio knows them (aliases folded), and the fio
//! option behind each of iolens' own option names, so errors speak the job file's words.

use super::unapplied::noted;

/// fio options that may stand alone (fio's FIO_OPT_STR_SET); `=0` turns them off.
pub(super) const FLAGS: &[&str] = &[
    "time_based",
    "group_reporting",
    "stonewall",
    "new_group",
    "norandommap",
    "thread",
    "refill_buffers",
    "zero_buffers",
    "hipri",
    "fixedbufs",
    "registerfiles",
    "exitall",
    "do_verify",
    "verify_fatal",
];

const VALUES: &[&str] = &[
    "name",
    "filename",
    "directory",
    "size",
    "filesize",
    "offset",
    "rw",
    "rwmixread",
    "rwmixwrite",
    "bs",
    "bssplit",
    "bsrange",
    "ba",
    "iodepth",
    "iodepth_batch",
    "numjobs",
    "runtime",
    "ramp_time",
    "direct",
    "buffered",
    "sync",
    "fsync",
    "rate",
    "rate_iops",
    "randrepeat",
    "randseed",
    "random_distribution",
    "ioengine",
    "buffer_compress_percentage",
    "end_fsync",
    "invalidate",
    "loops",
    "kb_base",
    "nrfiles",
    "rate_min",
    "rate_iops_min",
    "rate_cycle",
    "buffer_pattern",
    "exit_what",
    "wait_for",
    "allow_file_create",
    "filename_format",
    "thinktime",
    "thinktime_blocks",
    "thinktime_spin",
    "thinktime_iotime",
    "thinktime_blocks_type",
    "startdelay",
    "offset_increment",
    "io_size",
    "number_ios",
    "continue_on_error",
    "ignore_error",
    "rate_process",
    "verify",
    "verify_backlog",
    "verify_interval",
    "verify_offset",
    "verify_pattern",
    "verify_async",
    "flow",
    "flow_id",
    "flow_sleep",
];

/// The fio name of an option iolens maps, aliases folded (`readwrite` → `rw`); `None` otherwise.
pub(super) fn canonical(key: &str) -> Option<&'static str> {
    let k = match key {
        "readwrite" => "rw",
        "blocksize" => "bs",
        "blocksize_range" => "bsrange",
        "blockalign" => "ba",
        "wait_for_previous" => "stonewall",
        "iodepth_batch_submit" => "iodepth_batch",
        "timeout" => "runtime",
        "fileoffset" => "offset",
        "allrandrepeat" => "randrepeat",
        "nr_files" => "nrfiles",
        "ratemin" => "rate_min",
        "ratecycle" => "rate_cycle",
        "io_limit" => "io_size",
        k => k,
    };
    FLAGS.iter().chain(VALUES).find(|&&n| n == k).copied().or_else(|| noted(k))
}

pub(super) fn is_flag(key: &str) -> bool {
    canonical(key).is_some_and(|k| FLAGS.contains(&k))
}

/// The fio option behind a `Spec::validate` complaint.
pub(super) fn fio_name(option: &str) -> &str {
    match option {
        "--qd" => "iodepth",
        "--threads" => "numjobs",
        "--batch" => "iodepth_batch",
        "--bs" => "bs",
        "--offset" => "offset",
        "--size" => "size",
        "--duration" => "runtime",
        "--warmup" => "ramp_time",
        "--rate-iops" => "rate_iops",
        "--rate-mbps" => "rate",
        "--read-pct" => "rwmixread",
        "--rw" => "rw",
        "--align" => "ba",
        "--thinktime" => "thinktime",
        "--thinktime-spin" => "thinktime_spin",
        "--thinktime-blocks" => "thinktime_blocks",
        "--start-delay" => "startdelay",
        "--io-limit" => "io_size",
        "--number-ios" => "number_ios",
        "--rate-process" => "rate_process",
        "--rate-cycle" => "rate_cycle",
        "--offset-increment" => "offset_increment",
        "TARGET" => "filename",
        o => o,
    }
}

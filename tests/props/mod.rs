//! The generators of tests/properties.rs: inputs built from the words each parser knows, with
//! values chosen to sit on and past its limits (zero, negative, 2^64, 1e308, junk).

use proptest::prelude::*;
use proptest::sample::{select, Index};
use serde_json::Value;

mod diskspd;
pub use diskspd::{diskspd_line, diskspd_profile};

/// Pieces of every syntax the parsers read, so random text reaches past the first check.
const TOKENS: &[&str] = &[
    "[",
    "]",
    "[global]",
    "[job]",
    "=",
    "\n",
    " ",
    "include ",
    "${X}",
    "$pagesize",
    "$ncpus*",
    ";",
    "#",
    "<",
    ">",
    "</",
    "<Profile>",
    "<TimeSpan>",
    "&amp;",
    "&#0;",
    "{",
    "}",
    "\"",
    ":",
    ",",
    "-",
    "--",
    "-X",
    "0",
    "1",
    "-1",
    "4k",
    "1e308",
    "18446744073709551616",
    "rw=",
    "bs=",
    "size=",
    "name=",
    "disks",
    "[[disks]]",
    "\"fio version\"",
    "jobs",
    "nan",
    "inf",
    "é",
    "\u{0}",
];

/// Any text: arbitrary characters, or a soup of the tokens above.
pub fn text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), prop::collection::vec(select(TOKENS), 0..40).prop_map(|t| t.concat()),]
}

/// Values for any option: well-formed ones of every kind, limits, and junk.
const VALUES: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "-5",
    "100",
    "50",
    "4k",
    "512",
    "64k",
    "1m",
    "1g",
    "16m",
    "4t",
    "10%",
    "0%",
    "100%",
    "0x10",
    "1e308",
    "9999999999999",
    "18446744073709551615",
    "18446744073709551616",
    "abc",
    "",
    " ",
    "4k/50:64k/50",
    "4k/0",
    "4k-64k",
    "1:2",
    "1,2",
    "read",
    "write",
    "randread",
    "randrw",
    "rw",
    "trim",
    "io_uring",
    "psync",
    "null",
    "libaio",
    "crc32c",
    "md5",
    "zipf:1.2",
    "zipf:0",
    "pareto:0.5",
    "normal:10",
    "random",
    "roundrobin",
    "sequential",
    "1s",
    "100ms",
    "5m",
    "iops:5%",
    "bw:1%",
    "$ncpus*2",
    "(1+2)*4k",
    "1/0",
    "${UNSET}",
    "fuzz.dat",
    "a:b",
    "/dev/null",
    "0xdeadbeef",
    "\"abc\"",
    "linear",
    "poisson",
    "all",
    "1000",
    "1024",
];

const FIO_OPTIONS: &[&str] = &[
    "time_based",
    "group_reporting",
    "stonewall",
    "new_group",
    "norandommap",
    "zero_buffers",
    "exitall",
    "unlink",
    "do_verify",
    "verify_only",
    "name",
    "kb_base",
    "filename",
    "filename_format",
    "allow_file_create",
    "nrfiles",
    "file_service_type",
    "size",
    "filesize",
    "offset",
    "offset_increment",
    "io_size",
    "number_ios",
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
    "ioengine",
    "direct",
    "buffered",
    "fsync",
    "end_fsync",
    "randrepeat",
    "randseed",
    "random_distribution",
    "buffer_pattern",
    "buffer_compress_percentage",
    "runtime",
    "ramp_time",
    "startdelay",
    "loops",
    "rate",
    "rate_iops",
    "rate_min",
    "rate_cycle",
    "rate_process",
    "thinktime",
    "thinktime_blocks",
    "flow",
    "flow_id",
    "zonemode",
    "zonesize",
    "zoneskip",
    "steadystate",
    "steadystate_duration",
    "write_bw_log",
    "write_iops_log",
    "write_lat_log",
    "write_iolog",
    "log_avg_msec",
    "log_offset",
    "log_store_compressed",
    "log_compression",
    "continue_on_error",
    "ignore_error",
    "wait_for",
    "verify",
    "verify_backlog",
    "verify_interval",
    "verify_offset",
    "verify_pattern",
    "cmdprio_percentage",
    "cmdprio_bssplit",
    "unified_rw_reporting",
    "no_such_option",
];

fn fio_option() -> impl Strategy<Value = (&'static str, Option<&'static str>)> {
    (select(FIO_OPTIONS), prop::option::weighted(0.85, select(VALUES)))
}

/// Job files of up to five sections (global ones among them) with up to eight options each.
pub fn fio_job_file() -> impl Strategy<Value = String> {
    let section = (select(&["global", "a", "b", "global-2", "a"][..]), prop::collection::vec(fio_option(), 0..8));
    prop::collection::vec(section, 1..5).prop_map(|sections| {
        let mut t = String::new();
        for (name, opts) in sections {
            t.push_str(&format!("[{name}]\n"));
            for (k, v) in opts {
                t.push_str(&v.map_or(format!("{k}\n"), |v| format!("{k}={v}\n")));
            }
        }
        t
    })
}

/// fio's command line: options as `--k=v`, `--k v` or `--k`, jobs opened by `--name`.
pub fn fio_command_line() -> impl Strategy<Value = Vec<String>> {
    let arg = (fio_option(), any::<bool>()).prop_map(|((k, v), split)| match v {
        Some(v) if split => vec![format!("--{k}"), v.to_string()],
        Some(v) => vec![format!("--{k}={v}")],
        None => vec![format!("--{k}")],
    });
    prop::collection::vec(arg, 0..14).prop_map(|a| a.concat())
}

const FIGURES: &[&str] = &["0", "1", "-1", "0.25", "128", "1e308", "-1e308", "nan", "inf", "-inf", "9e15", "3000"];
const DISK_FIELDS: &[&str] = &[
    "size_gib",
    "iops",
    "mbps",
    "burst_iops",
    "burst_mbps",
    "min_gib",
    "max_gib",
    "base_iops",
    "min_iops",
    "iops_per_gib",
    "max_iops",
    "base_mbps",
    "mbps_per_gib",
    "mbps_per_iops",
    "max_mbps",
    "step_gib",
    "step_mbps",
];

/// Catalog rows with figures anywhere from NaN to 1e308, in either unit.
pub fn catalog() -> impl Strategy<Value = String> {
    let field = (select(DISK_FIELDS), select(FIGURES)).prop_map(|(k, v)| format!(", {k} = {v}"));
    let disk = (select(&["MB/s", "MiB/s", "GB/s"][..]), any::<bool>(), prop::collection::vec(field, 0..6));
    prop::collection::vec(disk, 0..4).prop_map(|disks| {
        let rows: Vec<String> = disks
            .into_iter()
            .enumerate()
            .map(|(i, (unit, prov, fields))| {
                format!(
                    "  {{ cloud = \"c\", kind = \"k\", name = \"d{i}\", unit = \"{unit}\", provisioned = {prov}, source = \"s\"{} }},\n",
                    fields.concat()
                )
            })
            .collect();
        format!("disks = [\n{}]\n", rows.concat())
    })
}

/// Every place in `v` that holds a number, as JSON pointers.
fn numbers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Number(_) => out.push(at),
        Value::Array(xs) => xs.iter().enumerate().for_each(|(i, x)| numbers(x, format!("{at}/{i}"), out)),
        Value::Object(kv) => {
            kv.iter().for_each(|(k, x)| numbers(x, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out))
        }
        _ => {}
    }
}

fn replacement() -> impl Strategy<Value = Value> {
    prop_oneof![
        select(vec![0.0, -0.5, 0.5, 1.5, 1e300, -1e300, 9e15, 9.1e15, 5e-324, f64::MAX]).prop_map(Value::from),
        select(vec![u64::MAX, 0, 1, 3, 1 << 53, (1 << 53) + 1]).prop_map(Value::from),
        select(vec![i64::MIN, -1, -2]).prop_map(Value::from),
        Just(Value::Null),
        Just(Value::from("12")),
        Just(Value::Array(vec![])),
    ]
}

/// `doc` with up to eight of its numbers replaced.
fn changed(doc: &'static str) -> impl Strategy<Value = String> {
    let v: Value = serde_json::from_str(doc).expect("the document is JSON");
    let mut places = Vec::new();
    numbers(&v, String::new(), &mut places);
    prop::collection::vec((any::<Index>(), replacement()), 0..8).prop_map(move |changes| {
        let mut v = v.clone();
        for (i, new) in changes {
            *v.pointer_mut(i.get::<String>(&places)).expect("a place found above") = new;
        }
        v.to_string()
    })
}

/// fio 3.33's JSON (three groups, jobs of two threads; a mixed job) with its figures changed.
pub fn changed_fio_json() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => changed(include_str!("../../src/frontends/fio/testdata/fio-3.33-three-groups.json")),
        3 => changed(include_str!("../../fuzz/seeds/fio_json/null-randrw.json")),
    ]
}

/// iolens' own result JSON (a mixed run; a verified run) with its figures changed.
pub fn changed_iolens_json() -> impl Strategy<Value = String> {
    prop_oneof![
        changed(include_str!("../../fuzz/seeds/iolens_json/run-randrw.json")),
        changed(include_str!("../../fuzz/seeds/iolens_json/run-verify.json")),
    ]
}

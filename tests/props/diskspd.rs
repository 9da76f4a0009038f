//! DiskSpd lines and -X profiles, built from the flags and elements DiskSpd knows.

use proptest::prelude::*;
use proptest::sample::select;

const DISKSPD_FLAGS: &[&str] = &[
    "-b", "-t", "-o", "-r", "-w", "-d", "-W", "-C", "-c", "-B", "-f", "-s", "-si", "-g", "-z", "-Z", "-Zr", "-Zs",
    "-T", "-F", "-S", "-Sh", "-Su", "-Sw", "-Sb", "-h", "-L", "-D", "-n", "-a", "-ag", "-R", "-Rxml", "-Rtext", "-Rp",
    "-v", "-I", "-x", "-l", "-e", "-N", "-p", "-P", "-i", "-j", "-k", "-q", "-y", "-U",
];

const DISKSPD_VALUES: &[&str] = &[
    "",
    "4K",
    "4k",
    "1",
    "0",
    "2",
    "8",
    "64M",
    "1G",
    "1T",
    "4096",
    "32",
    "100",
    "25",
    "-1",
    "99999999999999999999",
    "8b",
    "2i",
    "1.5",
    "X",
    "K",
    "500",
    "18446744073709551615",
    "65536",
    "3",
    "1000",
    "7",
    "0,1",
];

const DISKSPD_TARGETS: &[&str] =
    &["f.dat", "F:\\IO.dat", "C:", "#1", "\\\\.\\PhysicalDrive0", "a.dat", "C:\\", "..", "dir/x.dat", "-late"];

/// DiskSpd lines: flags with their values glued on, then up to three targets.
pub fn diskspd_line() -> impl Strategy<Value = Vec<String>> {
    let flag = (select(DISKSPD_FLAGS), select(DISKSPD_VALUES)).prop_map(|(f, v)| format!("{f}{v}"));
    (prop::collection::vec(flag, 0..10), prop::collection::vec(select(DISKSPD_TARGETS), 0..3)).prop_map(
        |(mut flags, targets)| {
            flags.extend(targets.into_iter().map(str::to_string));
            flags
        },
    )
}

const XML_NUMBERS: &[&str] =
    &["0", "1", "2", "4096", "65536", "1048576", "67108864", "100", "32", "-1", "18446744073709551615", "1e9", "x", ""];
const XML_BOOLS: &[&str] = &["true", "false", "1", "0", "TRUE", "maybe"];

fn time_span() -> impl Strategy<Value = String> {
    let n = || select(XML_NUMBERS);
    let b = || select(XML_BOOLS);
    let head = (b(), b(), n(), n(), n(), n(), n(), n());
    let target = (select(&["*1", "*2", "f.dat", "F:\\IO.dat", ""][..]), n(), n(), b(), b(), n(), n(), n());
    let more = (select(&["sequential", "zero", "random", "x"][..]), n(), n(), n(), n());
    (head, target, more).prop_map(|((lat, dev, dur, warm, cool, thr, req, seed), t, m)| {
        let (path, bs, base, random_access, no_cache, size, random, wr) = t;
        let (pattern, per_file, tput, max, prio) = m;
        format!(
            "<TimeSpan><MeasureLatency>{lat}</MeasureLatency><CalculateIopsStdDev>{dev}</CalculateIopsStdDev>\
             <Duration>{dur}</Duration><Warmup>{warm}</Warmup><Cooldown>{cool}</Cooldown>\
             <ThreadCount>{thr}</ThreadCount><RequestCount>{req}</RequestCount><RandSeed>{seed}</RandSeed>\
             <Targets><Target><Path>{path}</Path><BlockSize>{bs}</BlockSize><BaseFileOffset>{base}</BaseFileOffset>\
             <RandomAccess>{random_access}</RandomAccess><DisableOSCache>{no_cache}</DisableOSCache>\
             <WriteBufferContent><Pattern>{pattern}</Pattern></WriteBufferContent><FileSize>{size}</FileSize>\
             <Random>{random}</Random><MaxFileSize>{max}</MaxFileSize><WriteRatio>{wr}</WriteRatio>\
             <Throughput>{tput}</Throughput><ThreadsPerFile>{per_file}</ThreadsPerFile><IOPriority>{prio}</IOPriority>\
             </Target></Targets></TimeSpan>"
        )
    })
}

/// A profile of one or two time spans, with options and targets added on the command line.
pub fn diskspd_profile() -> impl Strategy<Value = (Vec<String>, String)> {
    let added = select(&["-d1", "-W0", "-C0", "-Rxml", "-Rtext", "-z5", "-v", "-b4k", "-t2", "-Xq.xml"][..]);
    let args = (prop::collection::vec(added, 0..3), prop::collection::vec(select(&["t1.dat", "t2.dat"][..]), 0..3));
    let format = select(&["text", "xml", "csv"][..]);
    (args, format, prop::collection::vec(time_span(), 1..3)).prop_map(|((added, targets), format, spans)| {
        let mut args = vec!["-Xp.xml".to_string()];
        args.extend(added.into_iter().chain(targets).map(str::to_string));
        let xml = format!(
            "<Profile><ResultFormat>{format}</ResultFormat><TimeSpans>{}</TimeSpans></Profile>",
            spans.concat()
        );
        (args, xml)
    })
}

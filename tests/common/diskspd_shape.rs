//! The shape of DiskSpd's output, to compare iolens' with the real DiskSpd's for the same
//! line: the text's section headings in order, its table headers and rules, the latency
//! table's percentile rows, and every indented line's label with its indentation and the column
//! its value starts in; the XML's set of element and attribute paths. Figures, paths and times
//! are left out: the shape is what a script that reads DiskSpd's output relies on.
#![allow(dead_code)]

use quick_xml::events::Event;
use quick_xml::Reader;
use std::collections::BTreeSet;
use std::path::Path;

/// The recorded outputs of the real DiskSpd 2.3 in tests/data/diskspd-2.3 (see its README):
/// file name, the line DiskSpd ran (without its target) and the target's file name.
pub const SAMPLES: [(&str, &str, &str); 12] = [
    ("a.txt", "-t2 -o32 -b4k -r4k -w25 -d3 -Sh -D -L -c64M", "IO.dat"),
    ("b.xml", "-t2 -o32 -b4k -r4k -w25 -d3 -Sh -D -L -c64M -Rxml", "IO.dat"),
    ("c.txt", "-b8K -d3 -o8 -t4 -h -r -w30 -L -c64M", "t.dat"),
    ("d-base.txt", "-d3 -c64M", "d.dat"),
    ("d-ac.txt", "-ac -d3 -c64M", "d.dat"),
    ("d-as.txt", "-as -d3 -c64M", "d.dat"),
    ("d-aP.txt", "-aP -d3 -c64M", "d.dat"),
    ("d-ae.txt", "-ae -d3 -c64M", "d.dat"),
    ("d-aup.txt", "-aup -d3 -c64M", "d.dat"),
    ("d-bsn.txt", "-bsn -d3 -c64M", "d.dat"),
    ("d-oc4.txt", "-oc4 -d3 -c64M", "d.dat"),
    ("e-vs.txt", "-vs -t2 -o4 -L -d3 -c64M", "d.dat"),
];

/// Lines DiskSpd prints alone, without running: (file, line, target); `-Rp` renders a profile,
/// `-Rs` the system information.
pub const UNRUN: [(&str, &str, &str); 8] = [
    ("d-u-Rp.txt", "-u -Rp -d3 -c64M", "d.dat"),
    ("e-a01-Rp.txt", "-a0,1 -Rp -d3 -c64M", "d.dat"),
    ("d-un8-Rp.xml", "-un8 -Rpxml -d3 -c64M", "d.dat"),
    ("d-oc4-Rp.xml", "-oc4 -bsn -acs -Rpxml -d3 -c64M", "d.dat"),
    ("e-a01-Rp.xml", "-a0,1 -Rpxml -d3 -c64M", "d.dat"),
    ("d-SY-Su-Rp.xml", "-SY -Su -Rpxml -d3 -c64M", "d.dat"),
    ("d-Rs.txt", "-Rs", ""),
    ("d-Rs.xml", "-Rsxml", ""),
];

/// iolens' labels as DiskSpd's would be for the same line, where iolens says what it does
/// differently: it names the engine that ran where DiskSpd names its completion ports, and it
/// writes fresh random data by default (DiskSpd's -Zr, which prints "generating random data …").
pub fn labels_as_diskspd(have: &[String], want: &[String]) -> Vec<String> {
    const RANDOM: &str = "    generating random data for each write IO";
    have.iter()
        .filter(|l| l.as_str() != RANDOM || want.iter().any(|w| w == RANDOM))
        .map(
            |l| {
                if l.starts_with("      using io_uring") {
                    "      using I/O Completion Ports".into()
                } else {
                    l.clone()
                }
            },
        )
        .collect()
}

/// Paths iolens writes that DiskSpd leaves out for the samples' lines, each for a reason;
/// anything else on one side only fails.
pub const IOLENS_ONLY: [(&str, &str); 1] = [(
    "Results/Profile/TimeSpans/TimeSpan/RandomWriteData",
    "iolens writes fresh random data by default, which DiskSpd spells -Zr and records so",
)];

/// A recorded DiskSpd output, line endings as LF.
pub fn sample(name: &str) -> String {
    let dir = if name.starts_with("e.") { "tests/data/diskspd-2.2" } else { "tests/data/diskspd-2.3" };
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())).replace("\r\n", "\n")
}

/// A sample's line for a shorter run: one measured second and no warm-up (times are figures,
/// not shape).
pub fn shortened(line: &str) -> String {
    line.replace("-d3", "-d1 -W0")
}

/// The text layout's structure, in order.
#[derive(Debug, PartialEq, Eq)]
pub struct TextShape {
    /// Unindented lines without a table bar, up to their first ':' ("Input parameters:",
    /// "actual test time:", "Total IO").
    pub headings: Vec<String>,
    /// Lines with a bar and no digit (a table's column header), and the rules under them as
    /// their length ("-" × 114).
    pub tables: Vec<String>,
    /// The first cell of each row of the latency distribution ("min", "25th", … "max").
    pub percentiles: Vec<String>,
    /// Indented lines outside tables up to where their value starts, indentation kept
    /// ("  computer name:        ", "      block size: "); a line without a value whole.
    pub labels: Vec<String>,
}

pub fn text_shape(text: &str) -> TextShape {
    let (mut headings, mut tables, mut percentiles, mut labels) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut in_latency = false;
    for line in text.lines().map(str::trim_end) {
        if line.is_empty() {
            in_latency = false;
            continue;
        }
        if line.starts_with(|c: char| c.is_ascii_alphabetic()) && !line.contains('|') {
            headings.push(line.split_inclusive(':').next().unwrap_or(line).to_string());
        } else if line.contains('|') && !line.contains(|c: char| c.is_ascii_digit()) {
            in_latency = line.contains("%-ile");
            tables.push(line.split_whitespace().collect::<Vec<_>>().join(" "));
        } else if !line.is_empty() && line.chars().all(|c| c == '-') {
            tables.push(format!("- x {}", line.len()));
        } else if in_latency {
            percentiles.push(line.split('|').next().unwrap_or("").trim().to_string());
        } else if line.starts_with([' ', '\t']) && !line.contains('|') {
            labels.push(match line.find(": ") {
                Some(at) => {
                    let value = at + 2 + line[at + 2..].len() - line[at + 2..].trim_start().len();
                    line[..value].to_string()
                }
                None => line.to_string(),
            });
        }
    }
    TextShape { headings, tables, percentiles, labels }
}

/// Every element ("Results/System/Tool/Version") and attribute ("…/Bucket/@Read") path.
pub fn xml_paths(xml: &str) -> BTreeSet<String> {
    // Wine's stub answer for the power scheme leaves DiskSpd's line with a bare '<'.
    let xml = xml.replace(r#"Name="<unknown>""#, r#"Name="&lt;unknown&gt;""#);
    let mut r = Reader::from_str(&xml);
    let (mut path, mut out) = (Vec::<String>::new(), BTreeSet::new());
    loop {
        let (e, open) = match r.read_event().unwrap_or_else(|e| panic!("XML does not parse: {e}\n{xml}")) {
            Event::Start(e) => (e, true),
            Event::Empty(e) => (e, false),
            Event::End(_) => {
                path.pop();
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let name = e.name().into_inner().to_string();
        let here = if path.is_empty() { name.clone() } else { format!("{}/{name}", path.join("/")) };
        for a in e.attributes() {
            let a = a.expect("well-formed attribute");
            out.insert(format!("{here}/@{}", a.key.into_inner()));
        }
        out.insert(here);
        if open {
            path.push(name);
        }
    }
    out
}

/// Writes' share of all I/Os in a `-Rxml` result, %, from its threads' counts.
pub fn write_share(xml: &str) -> f64 {
    let count = |tag: &str| -> u64 {
        xml.match_indices(&format!("<{tag}>"))
            .map(|(i, m)| {
                let rest = &xml[i + m.len()..];
                rest[..rest.find('<').unwrap_or(0)].trim().parse::<u64>().unwrap_or(0)
            })
            .sum()
    };
    let (w, all) = (count("WriteCount"), count("IOCount"));
    assert!(all > 0, "no I/O in\n{xml}");
    w as f64 * 100.0 / all as f64
}

/// Writes' share of all I/Os in a text result, %, from the `total:` rows of its Total IO and
/// Write IO tables.
pub fn text_write_share(text: &str) -> f64 {
    let totals: Vec<u64> = text
        .lines()
        .filter(|l| l.starts_with("total:"))
        .map(|l| l.split('|').nth(1).and_then(|c| c.trim().parse().ok()).unwrap_or_else(|| panic!("I/Os in {l:?}")))
        .collect();
    assert_eq!(totals.len(), 3, "Total, Read and Write IO rows in\n{text}");
    assert!(totals[0] > 0, "no I/O in\n{text}");
    totals[2] as f64 * 100.0 / totals[0] as f64
}

/// What `have` and `want` do not share, each side's extras listed.
pub fn path_diff(have: &BTreeSet<String>, want: &BTreeSet<String>) -> (Vec<String>, Vec<String>) {
    (have.difference(want).cloned().collect(), want.difference(have).cloned().collect())
}

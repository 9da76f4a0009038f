//! Specs → DiskSpd's XML `<Profile>`, the element DiskSpd's `-Rxml` echoes and `-X` reads, in
//! the shape of DiskSpd's `Profile::GetXml`. It says only what the DiskSpd command line could
//! say, so that `-X` reads it back into the same specs.

use crate::frontends::diskspd::{Extras, ResultsFormat};
use crate::workload::{DataPattern, Pattern, Spec};
use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;
use std::fmt::Display;

/// An indented XML document built in memory; text and attribute values are escaped by quick-xml.
pub struct XmlOut(Writer<Vec<u8>>);

impl Default for XmlOut {
    fn default() -> Self {
        XmlOut(Writer::new_with_indent(Vec::new(), b' ', 2))
    }
}

// Writing into a Vec cannot fail; quick-xml's io::Result is for other sinks.
const MEM: &str = "writing XML to memory";

impl XmlOut {
    pub fn open(&mut self, name: &str) {
        self.open_with(name, &[]);
    }

    pub fn open_with(&mut self, name: &str, attrs: &[(&str, String)]) {
        let start = BytesStart::new(name).with_attributes(attrs.iter().map(|(k, v)| (*k, v.as_str())));
        self.0.write_event(Event::Start(start)).expect(MEM);
    }

    pub fn close(&mut self, name: &str) {
        self.0.write_event(Event::End(BytesEnd::new(name))).expect(MEM);
    }

    /// `<name>value</name>`.
    pub fn leaf(&mut self, name: &str, value: impl Display) {
        self.leaf_with(name, &[], value);
    }

    pub fn leaf_with(&mut self, name: &str, attrs: &[(&str, String)], value: impl Display) {
        let text = value.to_string();
        let e = self.0.create_element(name).with_attributes(attrs.iter().map(|(k, v)| (*k, v.as_str())));
        e.write_text_content(BytesText::new(&text)).expect(MEM);
    }

    /// `<name a="…"/>`.
    pub fn empty(&mut self, name: &str, attrs: &[(&str, String)]) {
        self.0
            .create_element(name)
            .with_attributes(attrs.iter().map(|(k, v)| (*k, v.as_str())))
            .write_empty()
            .expect(MEM);
    }

    pub fn finish(self) -> String {
        let mut s = String::from_utf8(self.0.into_inner()).expect("XML built from str is UTF-8");
        s.push('\n');
        s
    }
}

/// One `<TimeSpan>` of a profile: a spec and the size its targets are created at (DiskSpd's
/// `-c`, `<FileSize>`), if they are.
pub struct ProfileSpan<'a> {
    pub spec: &'a Spec,
    pub create_size: Option<u64>,
    /// DiskSpd 2.3's affinity, buffer, IoRing and BypassIO settings of the line.
    pub extras: &'a Extras,
}

/// Writes `<Profile>` with one `<TimeSpan>` per span.
pub fn write_profile(x: &mut XmlOut, spans: &[ProfileSpan], format: ResultsFormat) {
    x.open("Profile");
    x.leaf("Progress", 0);
    x.leaf("ResultFormat", if format == ResultsFormat::Xml { "xml" } else { "text" });
    let extras = spans.first().map(|s| s.extras);
    x.leaf("Verbose", extras.is_some_and(|e| e.verbose));
    if extras.is_some_and(|e| e.wait_stats) {
        // As DiskSpd: only when asked for, so that older readers are not shown it.
        x.leaf("VerboseStats", true);
    }
    x.open("TimeSpans");
    for span in spans {
        time_span(x, span);
    }
    x.close("TimeSpans");
    x.close("Profile");
}

fn time_span(x: &mut XmlOut, span: &ProfileSpan) {
    let s = span.spec;
    x.open("TimeSpan");
    x.leaf("CompletionRoutines", false);
    // iolens always measures latency and per-second IOPS, so the profile says so.
    x.leaf("MeasureLatency", true);
    x.leaf("CalculateIopsStdDev", true);
    x.leaf("Duration", s.duration);
    x.leaf("Warmup", s.warmup);
    x.leaf("Cooldown", s.cooldown);
    x.leaf("ThreadCount", 0);
    x.leaf("RequestCount", 0);
    x.leaf("IoBucketDuration", 1000);
    x.leaf("RandSeed", s.seed);
    // DiskSpd's -Zr: fresh random data per write, which is what iolens writes by default.
    if s.data != DataPattern::Zero {
        x.leaf("RandomWriteData", true);
    }
    extras(x, span.extras);
    x.open("Targets");
    for path in &s.targets {
        target(x, s, path, span.create_size, span.extras.bypass_full);
    }
    x.close("Targets");
    x.close("TimeSpan");
}

/// 2.3's elements after `<RandSeed>`: the IoRing, the affinity and the buffer layout.
fn extras(x: &mut XmlOut, e: &Extras) {
    if let Some(ring) = e.ioring {
        x.open("IoRing");
        x.leaf_with("IoRingBatchSize", &[("Percent", ring.percent.to_string())], ring.batch);
        x.leaf("UseRegBuffer", ring.registered);
        x.close("IoRing");
    }
    let a = &e.affinity;
    x.leaf("DisableAffinity", a.disabled);
    if !a.disabled {
        let (group, efficiency, order) = a.traversal();
        x.leaf_with("AffinityTraversal", &[("Group", group.into()), ("Efficiency", efficiency.into())], order);
    }
    if !a.cpus.is_empty() {
        x.open("Affinity");
        x.empty("Group", &[("Group", "0".into()), ("Mask", mask(a.cpus.iter().copied()).unwrap_or_default())]);
        x.close("Affinity");
    }
    x.leaf("BufferSeparation", if e.buffer_separation { "PDECacheLine" } else { "SystemDefault" });
    if let Some(n) = e.completion_depth {
        x.leaf("CompletionDepth", n);
    }
}

fn target(x: &mut XmlOut, s: &Spec, path: &str, create_size: Option<u64>, bypass_full: Option<bool>) {
    x.open("Target");
    x.leaf("Path", path);
    x.leaf("BlockSize", s.min_block());
    x.leaf("BaseFileOffset", s.offset);
    for hint in ["SequentialScan", "RandomAccess", "TemporaryFile", "UseLargePages"] {
        x.leaf(hint, false);
    }
    if s.direct {
        x.leaf("DisableOSCache", true);
    }
    if s.write_through {
        x.leaf("WriteThrough", true);
    }
    if let Some(full) = bypass_full {
        x.leaf("BypassIO", if full { "Full" } else { "Partial" });
    }
    x.open("WriteBufferContent");
    // "sequential" is DiskSpd's name for its default buffer; <RandomWriteData> above overrides it.
    x.leaf("Pattern", if s.data == DataPattern::Zero { "zero" } else { "sequential" });
    x.close("WriteBufferContent");
    x.leaf("ParallelAsyncIO", false);
    if let Some(size) = create_size {
        x.leaf("FileSize", size);
    }
    match s.pattern {
        Pattern::Random => x.leaf("Random", s.effective_align()),
        Pattern::Sequential => {
            x.leaf("StrideSize", s.min_block());
            x.leaf("InterlockedSequential", s.shared_seq);
        }
    }
    x.leaf("ThreadStride", 0);
    x.leaf("MaxFileSize", s.range.map_or(0, |r| s.end_asked.unwrap_or(s.offset + r)));
    x.leaf("RequestCount", s.qd);
    x.leaf("WriteRatio", 100 - s.read_pct);
    // DiskSpd throttles each thread on each target; iolens' rates are totals over all of them.
    let workers = (s.threads as usize * s.targets.len()).max(1) as f64;
    match (s.rate_iops, s.rate_mbps) {
        (Some(iops), _) => x.leaf_with("Throughput", &[("unit", "IOPS".into())], (iops / workers).round()),
        (None, Some(mbps)) => x.leaf("Throughput", (mbps * 1e3 / workers).round()),
        (None, None) => x.leaf("Throughput", 0),
    }
    x.leaf("ThreadsPerFile", s.threads);
    x.leaf("IOPriority", 3);
    x.leaf("Weight", 1);
    x.close("Target");
}

/// "0x3" for CPUs 0 and 1; None for no CPUs. CPUs past 63 do not fit DiskSpd's 64-bit group
/// mask and are left out of it.
pub fn mask(cpus: impl Iterator<Item = u32>) -> Option<String> {
    let mut m = 0u64;
    let mut any = false;
    for c in cpus.filter(|&c| c < 64) {
        m |= 1 << c;
        any = true;
    }
    any.then(|| format!("0x{m:x}"))
}

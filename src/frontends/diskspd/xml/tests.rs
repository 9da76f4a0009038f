//! Tests of `-X` profiles: a profile in DiskSpd's own shape, the round trip through the profile
//! iolens echoes, and the one-line errors.

use super::super::{parse, DiskspdJob, ResultsFormat};
use crate::error::UsageError;
use crate::report::diskspd::profile::{write_profile, ProfileSpan, XmlOut};
use crate::workload::{DataPattern, Pattern};

/// A profile as DiskSpd users write them: a 4 KiB random 70/30 mix on two template targets,
/// then a 64 KiB sequential read; comments, an XML declaration and an entity included.
const PROFILE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- OLTP-ish, then a backup scan -->
<Profile>
  <Progress>0</Progress>
  <ResultFormat>xml</ResultFormat>
  <Verbose>false</Verbose>
  <TimeSpans>
    <TimeSpan>
      <CompletionRoutines>false</CompletionRoutines>
      <MeasureLatency>true</MeasureLatency>
      <CalculateIopsStdDev>true</CalculateIopsStdDev>
      <DisableAffinity>false</DisableAffinity>
      <Duration>30</Duration>
      <Warmup>3</Warmup>
      <Cooldown>1</Cooldown>
      <ThreadCount>0</ThreadCount>
      <RequestCount>0</RequestCount>
      <IoBucketDuration>1000</IoBucketDuration>
      <RandSeed>42</RandSeed>
      <Targets>
        <Target>
          <Path>*1</Path>
          <BlockSize>4096</BlockSize>
          <BaseFileOffset>0</BaseFileOffset>
          <DisableOSCache>true</DisableOSCache>
          <WriteThrough>true</WriteThrough>
          <WriteBufferContent><Pattern>zero</Pattern></WriteBufferContent>
          <FileSize>1073741824</FileSize>
          <Random>8192</Random>
          <RequestCount>16</RequestCount>
          <WriteRatio>30</WriteRatio>
          <Throughput unit="IOPS">500</Throughput>
          <ThreadsPerFile>4</ThreadsPerFile>
          <IOPriority>3</IOPriority>
          <Weight>1</Weight>
        </Target>
        <Target>
          <Path>*2</Path>
          <BlockSize>4096</BlockSize>
          <DisableOSCache>true</DisableOSCache>
          <WriteThrough>true</WriteThrough>
          <WriteBufferContent><Pattern>zero</Pattern></WriteBufferContent>
          <FileSize>1073741824</FileSize>
          <Random>8192</Random>
          <RequestCount>16</RequestCount>
          <WriteRatio>30</WriteRatio>
          <Throughput unit="IOPS">500</Throughput>
          <ThreadsPerFile>4</ThreadsPerFile>
        </Target>
      </Targets>
    </TimeSpan>
    <TimeSpan>
      <Duration>20</Duration>
      <Targets>
        <Target>
          <Path>*1</Path>
          <BlockSize>65536</BlockSize>
          <FileSize>1073741824</FileSize>
          <StrideSize>65536</StrideSize>
          <RequestCount>8</RequestCount>
          <ThreadsPerFile>1</ThreadsPerFile>
        </Target>
        <Target>
          <Path>*2</Path>
          <BlockSize>65536</BlockSize>
          <FileSize>1073741824</FileSize>
          <StrideSize>65536</StrideSize>
          <RequestCount>8</RequestCount>
        </Target>
      </Targets>
    </TimeSpan>
  </TimeSpans>
</Profile>
"#;

fn with_profile(xml: &str, extra: &str) -> (tempfile::TempDir, Result<DiskspdJob, UsageError>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.xml");
    std::fs::write(&path, xml).unwrap();
    let mut args = vec![format!("-X{}", path.display())];
    args.extend(extra.split_whitespace().map(String::from));
    let job = parse(&args);
    (dir, job)
}

#[test]
fn a_written_profile_reads_as_its_command_line() {
    let (_d, job) = with_profile(PROFILE, "a.dat b.dat");
    let j = job.unwrap();
    let s = &j.spec;
    assert_eq!(s.targets, ["a.dat", "b.dat"]);
    assert_eq!((s.min_block(), s.pattern, s.align, s.read_pct), (4096, Pattern::Random, Some(8192), 70));
    assert_eq!((s.threads, s.qd, s.duration, s.warmup, s.cooldown, s.seed), (4, 16, 30.0, 3.0, 1.0, 42));
    assert!(s.direct && s.write_through && s.data == DataPattern::Zero);
    // 500 IOPS per thread, 4 threads on each of 2 targets.
    assert_eq!((s.rate_iops, j.create_size), (Some(4000.0), Some(1 << 30)));
    assert_eq!((j.results, j.latency, j.iops_stddev), (Some(ResultsFormat::Xml), true, true));
    // The second time span keeps DiskSpd's defaults where it says nothing.
    assert_eq!(j.later.len(), 1);
    let t = &j.later[0];
    assert_eq!((t.min_block(), t.pattern, t.qd, t.threads, t.read_pct), (65536, Pattern::Sequential, 8, 1, 100));
    assert_eq!((t.duration, t.warmup, t.direct, t.seed, t.rate_iops), (20.0, 5.0, false, 0, None));
    assert_eq!(t.targets, s.targets);
}

#[test]
fn added_options_override_the_profile() {
    let (_d, job) = with_profile(PROFILE, "-d5 -W0 -z7 -Rtext a.dat b.dat");
    let j = job.unwrap();
    assert_eq!((j.spec.duration, j.spec.warmup, j.spec.seed), (5.0, 0.0, 7));
    assert_eq!((j.later[0].duration, j.results), (5.0, Some(ResultsFormat::Text)));
    let (_d, job) = with_profile(PROFILE, "-Rpxml a.dat b.dat");
    assert!(job.unwrap().profile_only);
}

/// What `-Rxml` echoes as `<Profile>`, read back by `-X`, is the spec that ran.
#[test]
fn the_echoed_profile_reads_back_to_the_same_specs() {
    let lines = [
        "-t2 -o32 -b4k -r4k -w25 -d120 -Sh -L -c1G IO.dat",
        "-t1 -o4 -b64k -s -w100 -d10 -W2 -C1 -Z -B1M -f64M -c128M a.dat b.dat",
        "-F4 -o8 -b8k -r -Su -g2000 -z9 -Zr -w50 f.dat",
        "-b1M -Sw -g100i -t3 -vs x.dat",
        "-v -vs -t1 y.dat",
    ];
    for line in lines {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        let job = parse(&args).unwrap();
        let mut x = XmlOut::default();
        let spans = [
            ProfileSpan { spec: &job.spec, create_size: job.create_size, extras: &job.extras },
            ProfileSpan { spec: &job.spec, create_size: job.create_size, extras: &job.extras },
        ];
        write_profile(&mut x, &spans, ResultsFormat::Xml);
        let xml = x.finish();
        let (_d, back) = with_profile(&xml, "");
        let back = back.unwrap_or_else(|e| panic!("{line}: {e}\n{xml}"));
        assert_eq!(back.spec, job.spec, "{line}\n{xml}");
        assert_eq!(back.later, vec![job.spec.clone()], "{line}");
        assert_eq!(back.create_size, job.create_size, "{line}");
        assert_eq!(back.extras, job.extras, "{line}");
    }
}

#[test]
fn a_results_file_is_read_for_its_profile() {
    let results =
        format!("<Results><System><ComputerName>h</ComputerName></System>{PROFILE_BODY}<TimeSpan/></Results>");
    let (_d, job) = with_profile(&results, "");
    assert_eq!(job.unwrap().spec.targets, ["x & y.dat"]);
}

const PROFILE_BODY: &str = "<Profile><TimeSpans><TimeSpan><Targets><Target><Path> x &amp; y.dat\n</Path></Target>\
                            </Targets></TimeSpan></TimeSpans></Profile>";

#[test]
fn errors_are_one_line_and_name_the_element() {
    let swap = |from: &str, to: &str| PROFILE.replacen(from, to, 1);
    let cases = [
        (swap("<Weight>1</Weight>", "<Colour>red</Colour>"), "<Colour>: is not an element of DiskSpd's <Target>"),
        (swap("<Weight>1</Weight>", "<MemoryMappedIo>true</MemoryMappedIo>"), "memory-mapped I/O is not supported"),
        (swap("<Weight>1</Weight>", "<MemoryMappedIo>false</MemoryMappedIo>"), ""),
        (swap("<RequestCount>16</RequestCount>", "<RequestCount>0</RequestCount>"), "<TimeSpan> 1: <RequestCount>: "),
        (
            swap("<BlockSize>4096</BlockSize>", "<BlockSize>4x</BlockSize>"),
            "<TimeSpan> 1: <BlockSize>: Invalid size 'x'",
        ),
        (
            PROFILE.replacen("<WriteRatio>30</WriteRatio>", "<WriteRatio>40</WriteRatio>", 2).replacen(
                "<WriteRatio>40</WriteRatio>",
                "<WriteRatio>30</WriteRatio>",
                1,
            ),
            "<Target> b.dat is set up differently from a.dat",
        ),
        (
            swap("<Random>8192</Random>", "<StrideSize>8192</StrideSize>"),
            "<StrideSize>: strides other than the block size",
        ),
        (swap("<Targets>", "<Targets><Bogus/>"), "<Bogus>: is not an element of DiskSpd's <Targets>"),
        (swap("</Profile>", ""), "not well-formed XML"),
        (swap("<Profile>", "<Profil>"), "not well-formed XML"),
        (
            swap(
                "<RandSeed>42</RandSeed>",
                "<Affinity><AffinityGroupAssignment Group=\"0\" Processor=\"1\"/></Affinity>",
            ),
            "",
        ),
        (swap("<Path>*2</Path>", "<Path>c.dat</Path>"), "b.dat: is not used"),
        ("<Results/>".to_string(), "a <Results> without its <Profile>"),
        ("<Target/>".to_string(), "the root element is <Target>, not DiskSpd's <Profile>"),
        ("<Profile><TimeSpans/></Profile>".to_string(), "<TimeSpans>: the profile has no <TimeSpan>"),
    ];
    for (xml, want) in cases {
        let (_d, job) = with_profile(&xml, "a.dat b.dat");
        match (job, want) {
            (Ok(_), "") => {}
            (Ok(_), _) => panic!("accepted; wanted '{want}'"),
            (Err(e), _) if want.is_empty() => panic!("refused: {e}"),
            (Err(e), _) => {
                let shown = e.to_string();
                assert!(shown.contains(want), "'{shown}' lacks '{want}'");
                assert!(!shown.contains('\n'), "{shown}");
                assert_eq!(e.option, if want.ends_with("is not used") { "b.dat" } else { "-X" }, "{shown}");
            }
        }
    }
}

#[test]
fn command_line_rules_around_x() {
    let (_d, job) = with_profile(PROFILE, "-t2 a.dat b.dat");
    assert_eq!(job.unwrap_err().option, "-t2");
    let (_d, job) = with_profile(PROFILE, "-d1.5 a.dat b.dat");
    assert_eq!(job.unwrap_err().option, "-d");
    let (_d, job) = with_profile(PROFILE, "a.dat");
    let e = job.unwrap_err();
    assert!(e.message.contains("*2; give its target"), "{e}");
    let missing = parse(&["-Xno/such/profile.xml".to_string()]).unwrap_err();
    assert_eq!(missing.option, "-X");
    assert!(missing.message.starts_with("no/such/profile.xml: cannot be read"), "{missing}");
    assert_eq!(parse(&["-X".to_string()]).unwrap_err().option, "-X");
}

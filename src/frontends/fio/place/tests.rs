use super::*;

fn place(line: usize) -> Option<Place> {
    Some(Place { file: "j.fio".into(), line })
}

fn opt(k: &str, v: &str) -> Opt {
    (k.to_string(), Some(v.to_string()))
}

#[test]
fn an_error_is_placed_by_its_kind_never_by_its_text() {
    let opts = [opt("size", "1m"), opt("rate", "1m"), opt("ratemin", "1k"), opt("rate_iops", "100")];
    let places = [place(2), place(3), place(4), place(5)];
    let header = place(1);
    let loc = Located { job: "j", opts: &opts, places: &places, header: header.as_ref() };
    // An option of the job at the heart of a clash: at its line, by its canonical name.
    let e = loc.place(JobError::of("rate_iops", "rate and rate_iops are mutually exclusive"));
    assert_eq!(e.to_string(), "j.fio:5: [j] rate_iops: rate and rate_iops are mutually exclusive");
    let e = loc.place(JobError::of("rate_min", "not met"));
    assert_eq!(e.to_string(), "j.fio:4: [j] ratemin: not met", "an alias is the option it stands for");
    // The job as a whole, even when its text begins like an option's: at the section's line.
    let e = loc.place(JobError::Job("rate: looks like an option, is not placed as one".into()));
    assert_eq!(e.to_string(), "j.fio:1: [j]: rate: looks like an option, is not placed as one");
    // An option the job does not have: at the section's line, named in the text.
    let e = loc.place(JobError::of("filesize", "needed"));
    assert_eq!(e.to_string(), "j.fio:1: [j]: filesize: needed");
    // The option being applied: at its own line, whatever it names.
    let e = loc.place(JobError::of("size", "x").at(1));
    assert_eq!(e.to_string(), "j.fio:3: [j] rate: size: x");
}

//! What is wrong with a job, typed by where it belongs: the option being applied, an option
//! at the heart of the job as a whole, or the job. `place.rs` puts each at its line of the job
//! file by its kind, never by reading its text.

/// A job's error before it is placed in the job file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JobError {
    /// Why the option being applied is refused; the text does not name it.
    #[error("{0}")]
    Value(String),
    /// Why the option at this index of the job's options is refused.
    #[error("{1}")]
    At(usize, String),
    /// The job as a whole, one of its options at the heart of it: placed at that option's
    /// last line, the one that counted.
    #[error("{option}: {why}")]
    Option { option: String, why: String },
    /// The job as a whole.
    #[error("{0}")]
    Job(String),
}

impl JobError {
    /// The job's error with `option` at its heart.
    pub fn of(option: impl Into<String>, why: impl Into<String>) -> JobError {
        JobError::Option { option: option.into(), why: why.into() }
    }

    /// As an error of the option at `index`, where it was the option being applied: whatever
    /// it names, it is that option's.
    pub fn at(self, index: usize) -> JobError {
        match self {
            JobError::At(..) => self,
            e => JobError::At(index, e.to_string()),
        }
    }

    /// As an error of the job as a whole, where no option was being applied.
    pub fn of_job(self) -> JobError {
        match self {
            JobError::Value(m) => JobError::Job(m),
            e => e,
        }
    }
}

impl From<String> for JobError {
    fn from(m: String) -> JobError {
        JobError::Value(m)
    }
}

impl From<&str> for JobError {
    fn from(m: &str) -> JobError {
        JobError::Value(m.to_string())
    }
}

pub type R<T> = Result<T, JobError>;

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

//! fio's verification options, mapped onto iolens's one checker: whatever checksum a job file
//! names, iolens stamps every unit with its own CRC-32C, file, address and write generation,
//! which also tells lost, torn and misdirected writes apart from corruption.

use crate::workload::verify::VerifySpec;

type R<T> = Result<T, String>;

/// fio's verify= methods: all checked the same way by iolens.
const METHODS: &[&str] = &[
    "md5",
    "crc64",
    "crc32c",
    "crc32c-intel",
    "crc32",
    "crc16",
    "crc7",
    "xxhash",
    "sha512",
    "sha256",
    "sha1",
    "sha3-224",
    "sha3-256",
    "sha3-384",
    "sha3-512",
    "meta",
    "pattern",
];

/// What a job's verify options said.
#[derive(Debug, Clone)]
pub(super) struct FioVerify {
    method: Option<String>,
    do_verify: bool,
    backlog: u32,
    fatal: bool,
}

impl Default for FioVerify {
    fn default() -> Self {
        FioVerify { method: None, do_verify: true, backlog: 0, fatal: false }
    }
}

impl FioVerify {
    /// The flags do_verify and verify_fatal.
    pub(super) fn flag(&mut self, key: &str, on: bool) {
        match key {
            "do_verify" => self.do_verify = on,
            "verify_fatal" => self.fatal = on,
            _ => {}
        }
    }

    /// A verify option with a value; a note when iolens does it its own way.
    pub(super) fn set(&mut self, key: &str, v: &str) -> R<Option<String>> {
        Ok(match key {
            "verify" => match v {
                "0" | "none" => {
                    self.method = None;
                    None
                }
                "null" => {
                    self.method = None;
                    Some("verify=null: fio only pretends to verify; iolens does not check".into())
                }
                m if METHODS.contains(&m) => {
                    self.method = Some(m.to_string());
                    None
                }
                _ => return Err(format!("'{v}' is not a verify method ({} or none)", METHODS.join(", "))),
            },
            "verify_backlog" => {
                self.backlog = v.parse().map_err(|_| format!("'{v}' is not a whole number of blocks"))?;
                None
            }
            "verify_interval" => {
                Some(format!("verify_interval={v}: iolens stamps every 512-byte unit (or the logical block)"))
            }
            "verify_offset" => Some(format!("verify_offset={v}: iolens's stamp sits at the start of each unit")),
            "verify_pattern" => Some(format!("verify_pattern={v}: iolens writes stamped pseudo-random data instead")),
            "verify_async" => None,
            _ => None,
        })
    }

    /// The spec's verification, and the note that says how iolens checks.
    pub(super) fn finish(&self, notes: &mut Vec<String>) -> Option<VerifySpec> {
        let m = self.method.as_deref()?;
        notes.push(format!(
            "verify={m}: iolens checks its own CRC-32C stamps (file, address, write generation) on every unit, \
             which also names lost, torn and misdirected writes"
        ));
        if !self.do_verify && self.backlog == 0 {
            notes.push("do_verify=0: only the job's own reads are checked".into());
        }
        Some(VerifySpec {
            backlog: self.backlog,
            fatal: self.fatal,
            read_back: self.do_verify,
            count_read_backs: true,
            ..VerifySpec::default()
        })
    }
}

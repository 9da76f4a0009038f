//! fio's verification options, mapped onto iolens's one checker: whatever checksum a job file
//! names, iolens stamps every unit with its own CRC-32C, file, address and write generation,
//! which also tells lost, torn and misdirected writes apart from corruption. What fio does
//! around the check (verify_only, the backlog's batches, the write sequence, dumps and the saved
//! write state) is done as fio does it.

use crate::workload::verify::{AsFio, PatternFill, VerifySpec, MIN_UNIT};

use super::error::{JobError, R};

/// fio's verify= methods: all checked the same way by iolens.
/// What fio's JSON options block says ran for a verify method iolens replaces with its stamps:
/// no fio method name fits, and a reader must not take it for fio's own md5 or crc.
const STAMPS: &str = "iolens-crc32c-stamps";

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
    "pattern_hdr",
];

/// What a job's verify options said.
#[derive(Debug, Clone)]
pub(super) struct FioVerify {
    method: Option<String>,
    do_verify: bool,
    backlog: u32,
    batch: u32,
    fatal: bool,
    only: bool,
    dump: bool,
    /// fio's verify_write_sequence; unset: on, except under verify_only (fio's init.c).
    sequence: Option<bool>,
    state_save: bool,
    state_load: bool,
    interval: Option<u64>,
    fsynced: bool,
    /// fio's verify_pattern and verify_pattern_interval.
    pattern: Option<super::pattern::FioPattern>,
    pattern_interval: u64,
    /// fio's continue_on_error covers verify (verify, all, 1): the job goes on past a bad
    /// block; otherwise the first one ends the job as verify_fatal does.
    pub(super) go_on: bool,
}

impl Default for FioVerify {
    fn default() -> Self {
        FioVerify {
            method: None,
            do_verify: true,
            backlog: 0,
            batch: 0,
            fatal: false,
            only: false,
            dump: false,
            sequence: None,
            // fio saves a verifying write job's state unless told not to.
            state_save: true,
            state_load: false,
            interval: None,
            fsynced: false,
            pattern: None,
            pattern_interval: 0,
            go_on: false,
        }
    }
}

fn count(v: &str, what: &str) -> Result<u32, String> {
    v.trim().parse().map_err(|_| format!("'{v}' is not a whole number of {what}"))
}

impl FioVerify {
    /// The verify flags (do_verify, verify_fatal, verify_only, verify_dump, …).
    pub(super) fn flag(&mut self, key: &str, on: bool) {
        match key {
            "do_verify" => self.do_verify = on,
            "verify_fatal" => self.fatal = on,
            "verify_only" => self.only = on,
            "verify_dump" => self.dump = on,
            "verify_write_sequence" => self.sequence = Some(on),
            "verify_state_save" => self.state_save = on,
            "verify_state_load" => self.state_load = on,
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
                _ => return Err(format!("'{v}' is not a verify method ({}, null or none)", METHODS.join(", ")).into()),
            },
            "verify_backlog" => {
                // fio reads it as a number with a size suffix ("1m": 1,048,576 blocks).
                let n = crate::frontends::fio::values::int(v, 1024)?;
                self.backlog = u32::try_from(n).map_err(|_| format!("'{v}' is more blocks than {}", u32::MAX))?;
                None
            }
            "verify_backlog_batch" => {
                self.batch = count(v, "blocks")?;
                None
            }
            "verify_interval" => {
                let n = crate::frontends::fio::values::int(v, 1024)?;
                self.interval = (n > 0).then_some(n);
                None
            }
            "verify_policy" => {
                self.fsynced = match v {
                    "completed" => false,
                    "fsynced" => true,
                    _ => return Err(format!("'{v}' is not a verify policy (completed or fsynced)").into()),
                };
                None
            }
            "verify_offset" => Some(format!("verify_offset={v}: iolens's stamp sits at the start of each unit")),
            "verify_pattern" => {
                self.pattern = Some(super::pattern::parse(v, true)?);
                // As fio: a pattern with no method given is verify=pattern.
                self.method.get_or_insert_with(|| "pattern".into());
                None
            }
            "verify_pattern_interval" => {
                self.pattern_interval = crate::frontends::fio::values::int(v, 1024)?;
                None
            }
            // Checking on the worker's own thread, in order, is what fio's async threads do too.
            "verify_async" | "verify_async_cpus" => None,
            _ => None,
        })
    }

    /// The spec's verification, and the notes that say how iolens checks. `bs`: the job's
    /// smallest and largest write block and smallest read block (the verify interval, each
    /// header's length, follows from them as in fio); `writes`: the job writes (verify_only
    /// then walks those writes without issuing them).
    pub(super) fn finish(
        &self,
        bs: (u64, u64, u64),
        writes: bool,
        said: (&mut Vec<String>, &mut super::Ran),
    ) -> R<Option<VerifySpec>> {
        let (notes, ran) = said;
        let Some(m) = self.method.as_deref() else {
            if self.only {
                return Err(JobError::of(
                    "verify_only",
                    "needs verify= set to a method (it checks what a verifying job wrote)",
                ));
            }
            return Ok(None);
        };
        let pattern = self.pattern_fill(m, notes)?;
        if pattern.is_none() {
            ran.push(("verify", Some(STAMPS.into())));
            notes.push(format!(
                "verify={m}: iolens checks its own CRC-32C stamps (file, address, write generation) on every unit, \
                 which also names lost, torn and misdirected writes"
            ));
        }
        if !self.do_verify && self.backlog == 0 && !self.only {
            notes.push("do_verify=0: only the job's own reads are checked".into());
        }
        let interval = fio_interval(self.interval.unwrap_or(0), bs);
        if interval < MIN_UNIT as u64 || !interval.is_multiple_of(MIN_UNIT as u64) {
            notes.push(format!(
                "verify_interval={interval}: iolens stamps units of a multiple of {MIN_UNIT} bytes; it stamps every \
                 {MIN_UNIT} bytes"
            ));
        }
        let interval = if interval.is_multiple_of(MIN_UNIT as u64) { interval as u32 } else { 0 };
        Ok(Some(VerifySpec {
            backlog: if self.only { 0 } else { self.backlog },
            // fio's verify error is the job's error (EILSEQ), which ends it unless
            // continue_on_error lets it go on: verify_fatal only matters when it does.
            fatal: self.fatal || !self.go_on,
            read_back: self.do_verify || self.only,
            count_read_backs: true,
            fio: Some(AsFio {
                method: m.to_string(),
                backlog_batch: self.batch,
                sequence: self.sequence.unwrap_or(!self.only),
                only: self.only,
                walked_writes: self.only && writes,
                dump: self.dump,
                state_save: self.state_save && writes && !self.only,
                fsynced: self.fsynced,
                state_load: self.state_load,
                interval,
                aux: None,
                state_file: None,
                index: 0,
            }),
            pattern,
            ..VerifySpec::default()
        }))
    }

    /// verify=pattern's fill: fio writes the pattern alone and checks every byte of it. With
    /// another method the pattern would sit beside fio's header, which iolens's stamps replace.
    fn pattern_fill(&self, m: &str, notes: &mut Vec<String>) -> R<Option<PatternFill>> {
        let Some(p) = self.pattern.as_ref() else {
            if m == "pattern" {
                return Err("verify=pattern: needs verify_pattern (the bytes to write and check)".into());
            }
            return Ok(None);
        };
        if m != "pattern" {
            notes.push(format!("verify_pattern with verify={m}: iolens writes stamped pseudo-random data instead"));
            return Ok(None);
        }
        Ok(Some(PatternFill { bytes: p.bytes.clone(), offsets: p.offsets.clone(), interval: self.pattern_interval }))
    }
}

/// fio's verify interval (its init.c): the bytes each header covers and states as its length,
/// so that a read of blocks of another length than the writes' is a bad header length. Unset,
/// the smallest write block when write blocks vary; never above the smallest write (or, in a
/// job that reads, read) block; a common divisor of the smallest and largest write block.
fn fio_interval(set: u64, (min_w, max_w, min_r): (u64, u64, u64)) -> u64 {
    let mut i = if set == 0 && max_w != min_w { min_w } else { set };
    if i > min_w {
        i = min_w;
    } else if i > min_r {
        i = min_r;
    }
    if i == 0 || min_w % i != 0 || max_w % i != 0 {
        let (mut a, mut b) = (min_w, max_w);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        i = a;
    }
    i
}

#[cfg(test)]
mod tests;

//! Where a fio job's I/O goes: `filename` lists, `directory`, `filename_format` (fio's
//! `$jobname.$jobnum.$filenum` naming, which gives each numjobs clone its own file), `nrfiles`
//! and how `size`/`filesize` split over the files.

use super::job::Job;
use crate::workload::{FileService, Pattern, ServiceKind};

use super::error::{JobError, R};

/// The most files one job may name (numjobs clones × nrfiles); as many workers as iolens runs.
const MAX_FILES: u64 = 1024;

impl Job {
    /// Sets the spec's targets, workers per target and sizes from the job's file options.
    pub(super) fn targets(&mut self) -> R<()> {
        let files = self.files.len();
        if self.files.iter().any(|f| f == "-") {
            return Err(JobError::of("filename", "'-' (stdin/stdout) is not supported by iolens"));
        }
        let prefix = self.dirs.first().map(|d| format!("{}/", d.trim_end_matches('/'))).unwrap_or_default();
        if self.size_pct.is_some() && files == 0 {
            return Err(JobError::of(
                "size",
                "a percentage is a share of existing files or devices; name them with filename=",
            ));
        }
        let s = &mut self.spec;
        if files > 0 {
            s.targets = self.files.iter().map(|f| format!("{prefix}{f}")).collect();
        } else if self.nrfiles > 1 || self.filename_format.is_some() {
            if self.dirs.len() > 1 && self.filename_format.is_none() {
                return Err(JobError::of(
                    "nrfiles",
                    "several files per job in several directories is not supported by iolens",
                ));
            }
            let format = self.filename_format.as_deref().unwrap_or("$jobname.$jobnum.$filenum");
            if self.nrfiles > 1 && !format.contains("$filenum") {
                return Err(JobError::of(
                    "nrfiles",
                    format!("{} files need $filenum in filename_format", self.nrfiles),
                ));
            }
            // Clones named apart get files of their own (one worker on each); otherwise they share them.
            let clones = if format.contains("$jobnum") { std::mem::replace(&mut s.threads, 1) } else { 1 };
            let n = self.nrfiles.clamp(1, u32::MAX as u64) as u32;
            // Checked before the names are made: numjobs=1G would otherwise ask for 24 GiB.
            if u64::from(clones) * u64::from(n) > MAX_FILES {
                let why =
                    format!("{clones} clones × {n} files is more than the {MAX_FILES} files iolens opens for one job");
                return Err(JobError::of("numjobs", why));
            }
            let first = self.clone.map_or(0, |c| c.0);
            s.targets = (first..first + clones)
                .flat_map(|c| (0..n).map(move |f| (c, f)))
                .map(|(c, f)| format!("{prefix}{}", expand(format, &self.name, c, f)))
                .collect();
            if self.size.is_none() && self.filesize.is_none() {
                return Err(JobError::of("size", "fio needs size= (or filesize=) when it creates the files"));
            }
        } else {
            let mut dirs = if self.dirs.is_empty() { vec![".".to_string()] } else { self.dirs.clone() };
            // A clone reported apart has its file in the next directory round (fio's round-robin).
            if let Some((k, _)) = self.clone {
                dirs = vec![dirs.swap_remove(k as usize % dirs.len())];
            }
            let n = dirs.len() as u32;
            if !s.threads.is_multiple_of(n) {
                return Err(JobError::of(
                    "directory",
                    format!("{n} directories need numjobs to be a multiple of {n} in iolens"),
                ));
            }
            s.threads /= n;
            // fio's name, JOBNAME.JOBNUM.FILENUM: a later job (a verify, a read) finds the file
            // an earlier one wrote. (Several files per job took the branch above.)
            let (name, num) = (&self.name, self.clone.map_or(0, |c| c.0));
            s.targets = dirs.iter().map(|d| format!("{}/{name}.{num}.0", d.trim_end_matches('/'))).collect();
            if s.threads > 1 {
                self.notes.push("numjobs: fio gives each clone its own file; iolens workers share one file".into());
            }
            if self.size.is_none() && self.filesize.is_none() {
                return Err(JobError::of("size", "fio needs size= (or filesize=) when it creates the files"));
            }
        }
        // fio's size is the job's, shared by its files (filename= lists them, else nrfiles).
        let files = if files > 0 { files } else { self.nrfiles.max(1) as usize };
        let s = &mut self.spec;
        // A clone reported apart sizes its files as its whole job does, and starts at its own place.
        let (clone, clones) = self.clone.unwrap_or((0, s.threads));
        if let Some(per) = self.filesize.or(self.size.map(|z| z / files.max(1) as u64)) {
            if per == 0 {
                return Err(JobError::of("size", "less than a byte per file"));
            }
            // With offset_increment, clone k's region starts k increments further on.
            let reach = s.offset_increment.saturating_mul(clones.saturating_sub(1) as u64);
            if self.filesize.is_none() && (s.offset > 0 || reach > 0) {
                s.range = Some(per);
            }
            s.size = if self.filesize.is_none() { s.offset.saturating_add(reach).saturating_add(per) } else { per };
        }
        s.offset = s.worker_offset(clone);
        self.file_service(files);
        Ok(())
    }

    /// A job over several files spreads each clone's I/O over them, as fio's get_next_file.
    fn file_service(&mut self, files: usize) {
        if files < 2 {
            return;
        }
        if self.spec.verify.is_some() {
            self.notes.push(format!(
                "filename: fio spreads each job over its {files} files; with verification iolens runs numjobs \
                 workers on each file"
            ));
            return;
        }
        let s = &self.spec;
        // As fio: a file is done at the end of a pass, unless time_based or random without its map.
        let ends = !self.time_based && (s.pattern == Pattern::Sequential || s.random_map);
        let (how, every) = self.service;
        self.spec.file_service = Some(FileService { files: files as u32, how, every, ends });
    }
}

/// fio's file_service_type: roundrobin, sequential or random, each with `:N` I/Os per turn;
/// its zipf, pareto and normal draws are made uniform.
pub(super) fn file_service_type(j: &mut Job, v: &str) -> R<()> {
    let (how, n) = v.split_once(':').unwrap_or((v, ""));
    let kind = match how {
        "roundrobin" => ServiceKind::RoundRobin,
        "sequential" => ServiceKind::Sequential,
        "random" => ServiceKind::Random,
        "zipf" | "pareto" | "normal" | "gauss" => {
            j.note(format!("file_service_type={v}: iolens draws the files uniformly (random)"));
            j.service = (ServiceKind::Random, 1);
            return Ok(());
        }
        _ => return Err(format!("'{v}' is not roundrobin, sequential, random, zipf, pareto or normal").into()),
    };
    let every = match n {
        "" => 1,
        n => n.parse::<u32>().ok().filter(|&n| n > 0).ok_or(format!("'{v}': the I/Os per file is a number above 0"))?,
    };
    j.service = (kind, every);
    Ok(())
}

/// fio's filename_format for one clone and file: `$jobname`, `$jobnum` (the clone, from 0),
/// `$filenum` (the file of the clone, from 0); `$clientuid` is empty outside client/server runs.
pub(super) fn expand(format: &str, job: &str, jobnum: u32, filenum: u32) -> String {
    format
        .replace("$jobname", job)
        .replace("$jobnum", &jobnum.to_string())
        .replace("$filenum", &filenum.to_string())
        .replace("$clientuid", "")
}

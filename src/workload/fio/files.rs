//! Where a fio job's I/O goes: `filename` lists, `directory`, `filename_format` (fio's
//! `$jobname.$jobnum.$filenum` naming, which gives each numjobs clone its own file), `nrfiles`
//! and how `size`/`filesize` split over the files.

use super::job::Job;

type R<T> = Result<T, String>;

impl Job {
    /// Sets the spec's targets, workers per target and sizes from the job's file options.
    pub(super) fn targets(&mut self) -> R<()> {
        let files = self.files.len();
        if self.files.iter().any(|f| f == "-") {
            return Err("filename: '-' (stdin/stdout) is not supported by iolens".into());
        }
        let prefix = self.dirs.first().map(|d| format!("{}/", d.trim_end_matches('/'))).unwrap_or_default();
        if self.size_pct.is_some() && files == 0 {
            return Err("size: a percentage is a share of existing files or devices; name them with filename=".into());
        }
        let s = &mut self.spec;
        if files > 0 {
            s.targets = self.files.iter().map(|f| format!("{prefix}{f}")).collect();
            if files > 1 {
                self.notes.push(format!(
                    "filename: fio spreads each job over its {files} files; iolens runs numjobs workers on each file"
                ));
            }
        } else if let Some(format) = &self.filename_format {
            if self.nrfiles != 1 {
                return Err("nrfiles: only 1 file per job is supported by iolens".into());
            }
            // Clones named apart get a file each (one worker on each); otherwise they share it.
            let clones = if format.contains("$jobnum") { std::mem::replace(&mut s.threads, 1) } else { 1 };
            s.targets = (0..clones).map(|n| format!("{prefix}{}", expand(format, &self.name, n, 0))).collect();
            if self.size.is_none() && self.filesize.is_none() {
                return Err("size: fio needs size= (or filesize=) when it creates the files".into());
            }
        } else {
            let dirs = if self.dirs.is_empty() { vec![".".to_string()] } else { self.dirs.clone() };
            let n = dirs.len() as u32;
            if !s.threads.is_multiple_of(n) {
                return Err(format!("directory: {n} directories need numjobs to be a multiple of {n} in iolens"));
            }
            s.threads /= n;
            // fio's name, JOBNAME.JOBNUM.FILENUM: a later job (a verify, a read) finds the file
            // an earlier one wrote.
            let (nr, name) = (self.nrfiles.max(1), &self.name);
            s.targets = dirs
                .iter()
                .flat_map(|d| (0..nr).map(move |k| format!("{}/{name}.0.{k}", d.trim_end_matches('/'))))
                .collect();
            if nr > 1 {
                self.notes.push(format!(
                    "nrfiles={nr}: fio spreads each job over its {nr} files; iolens runs numjobs workers on each file"
                ));
            }
            if s.threads > 1 {
                self.notes.push("numjobs: fio gives each clone its own file; iolens workers share one file".into());
            }
            if self.size.is_none() && self.filesize.is_none() {
                return Err("size: fio needs size= (or filesize=) when it creates the files".into());
            }
        }
        let s = &mut self.spec;
        // fio's size is the job's, shared by its files (filename= lists them, else nrfiles).
        let files = if files > 0 || self.filename_format.is_some() { files } else { self.nrfiles.max(1) as usize };
        if let Some(per) = self.filesize.or(self.size.map(|z| z / files.max(1) as u64)) {
            if per == 0 {
                return Err("size: less than a byte per file".into());
            }
            // With offset_increment, clone k's region starts k increments further on.
            let reach = s.offset_increment.saturating_mul(s.threads.saturating_sub(1) as u64);
            if self.filesize.is_none() && (s.offset > 0 || reach > 0) {
                s.range = Some(per);
            }
            s.size = if self.filesize.is_none() { s.offset.saturating_add(reach).saturating_add(per) } else { per };
        }
        Ok(())
    }
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

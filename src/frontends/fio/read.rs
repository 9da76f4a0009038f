//! Job-file text split into sections as fio's init.c `__parse_jobs_ini` does: comments cut,
//! includes followed (bounded however they nest), `${VAR}` substituted, each option with the
//! place it was written.

use super::place::{at, Place};
use super::values::substitute;
use super::{Section, R};
use crate::error::UsageError;
use std::path::Path;
use std::rc::Rc;

/// What one job file and its includes have taken so far: however they nest, together they read
/// at most `MAX_INCLUDES` files and `JOB_TEXT_LIMIT` bytes.
pub(super) struct Includes {
    files: u32,
    bytes: u64,
}

impl Includes {
    /// The includes of a job file whose own text is `text`.
    pub(super) fn of(text: &str) -> Includes {
        Includes { files: 0, bytes: text.len() as u64 }
    }
}

const MAX_INCLUDES: u32 = 1000;

/// The most a job file and all its includes hold together. Each option line is kept with its
/// place (~180 bytes of memory a line), so this bounds a job file's memory near 100 MB; fio's
/// own examples hold a few KiB, and 4 MiB is some 20,000 jobs.
pub(super) const JOB_TEXT_LIMIT: u64 = 4 << 20;

/// Splits job-file text into sections, following includes (which may not open sections);
/// `file` names the text in the places of its lines.
pub(super) fn read(
    text: &str,
    file: Option<Rc<str>>,
    dir: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    depth: u32,
    inc: &mut Includes,
    out: &mut Vec<Section>,
) -> R<()> {
    for (n, raw) in text.lines().enumerate() {
        let place = file.as_ref().map(|f| Place { file: f.clone(), line: n + 1 });
        let here = |what: &str| at(place.as_ref(), what);
        // fio's strip_blank_end: everything from the first ';' or '#' on is a comment.
        let line = raw.split([';', '#']).next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            if depth > 0 {
                return Err(UsageError::new(
                    here("include"),
                    format!("'{line}': included files may not open sections"),
                ));
            }
            let name = header.strip_suffix(']').unwrap_or(header).trim();
            out.push(Section { header: place, ..Section::new(name, Vec::new()) });
            continue;
        }
        let Some(sec) = out.last_mut() else {
            return Err(UsageError::new(here("job file"), format!("'{line}' is outside any [section]")));
        };
        if let Some(name) = line.strip_prefix("include").filter(|f| f.starts_with(char::is_whitespace)) {
            let name = name.trim();
            let path = if Path::new(name).exists() { Path::new(name).to_path_buf() } else { dir.join(name) };
            if depth >= 16 {
                return Err(UsageError::new(here("include"), format!("{name}: includes nest more than 16 deep")));
            }
            inc.files += 1;
            if inc.files > MAX_INCLUDES {
                let why = format!("{name}: more than {MAX_INCLUDES} includes in one job file");
                return Err(UsageError::new(here("include"), why));
            }
            let left = JOB_TEXT_LIMIT.saturating_sub(inc.bytes);
            let text = crate::input::read_text(&path, &here("include"), left).map_err(|e| {
                if std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() > left) {
                    let why = format!("{name}: the job file and its includes hold more than {JOB_TEXT_LIMIT} bytes together, the most iolens reads");
                    UsageError::new(here("include"), why)
                } else {
                    e
                }
            })?;
            inc.bytes += text.len() as u64;
            let shown = file.is_some().then(|| Rc::from(path.display().to_string()));
            read(&text, shown, path.parent().unwrap_or(Path::new(".")), env, depth + 1, inc, out)?;
            continue;
        }
        let line = substitute(line, env).map_err(|m| UsageError::new(here(&format!("[{}]", sec.name)), m))?;
        let opt = match line.split_once('=') {
            Some((k, v)) => (k.trim().to_string(), Some(v.trim().to_string())),
            None => (line.trim().to_string(), None),
        };
        sec.places.resize(sec.opts.len(), None);
        sec.places.push(place);
        sec.opts.push(opt);
    }
    Ok(())
}

//! Reading what the user hands iolens by name (job files and their includes, JSON imports,
//! catalogs, DiskSpd profiles): only regular files, and never more than a stated size, so a
//! FIFO cannot block a run and /dev/zero cannot exhaust memory. Errors are one line naming the
//! option or file.

use crate::error::UsageError;
use std::io::Read;
use std::path::Path;

/// The most any one text input may hold: far beyond any job file, profile, catalog or fio JSON
/// seen, far below what would strain memory.
pub const TEXT_LIMIT: u64 = 64 << 20;

/// The file at `path` as text, if it is a regular file of at most `limit` bytes in UTF-8;
/// errors name `what` (an option, or the file itself).
pub fn read_text(path: &Path, what: &str, limit: u64) -> Result<String, UsageError> {
    let bytes = read_bytes(path, what, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        UsageError::new(what, format!("{} is not UTF-8 text (byte {})", path.display(), e.utf8_error().valid_up_to()))
    })
}

/// The file at `path`, if it is a regular file of at most `limit` bytes.
pub fn read_bytes(path: &Path, what: &str, limit: u64) -> Result<Vec<u8>, UsageError> {
    let shown = path.display();
    let bad = |why: String| UsageError::new(what, format!("{shown}: {why}"));
    let meta = std::fs::metadata(path).map_err(|e| bad(format!("cannot be read: {e}")))?;
    let kind = meta.file_type();
    if !kind.is_file() {
        return Err(bad(format!("is {}, not a regular file", kind_name(&kind))));
    }
    if meta.len() > limit {
        return Err(bad(format!("holds {} bytes; iolens reads at most {limit}", meta.len())));
    }
    let f = std::fs::File::open(path).map_err(|e| bad(format!("cannot be read: {e}")))?;
    let mut out = Vec::with_capacity(meta.len() as usize);
    // A file that grows while it is read still stops at the limit.
    f.take(limit + 1).read_to_end(&mut out).map_err(|e| bad(format!("cannot be read: {e}")))?;
    if out.len() as u64 > limit {
        return Err(bad(format!("holds more than {limit} bytes, the most iolens reads")));
    }
    Ok(out)
}

/// The first `limit` bytes (or fewer) of the regular file at `path` (a pattern's file, of which
/// fio takes what fits). Errors are the reason alone, for the caller to name the file.
pub fn read_head(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.file_type().is_file() {
        return Err(format!("is {}, not a regular file", kind_name(&meta.file_type())));
    }
    let mut out = Vec::with_capacity(meta.len().min(limit) as usize);
    let f = std::fs::File::open(path).map_err(|e| e.to_string())?;
    f.take(limit).read_to_end(&mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

fn kind_name(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

#[cfg(test)]
mod tests;

//! What a word on the command line names among results: a store id, a label, or a result
//! file (iolens' JSON or fio's), for every command that takes results (`compare`, `explain`).

use crate::error::UsageError;
use crate::result::RunResult;
use crate::store::{Filter, Store};
use std::path::{Path, PathBuf};

/// Which result a word names: a store id, or a file by its canonical path.
#[derive(PartialEq, Debug, Clone)]
pub enum Key {
    Id(i64),
    File(PathBuf),
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Id(id) => write!(f, "{id}"),
            Key::File(p) => write!(f, "{}", p.display()),
        }
    }
}

/// What a word names, without reading the result; and the word.
pub fn key(what: &str, store: &mut Option<Store>, path: &Path) -> anyhow::Result<(Key, String)> {
    if Path::new(what).is_file() {
        let file = std::fs::canonicalize(what).unwrap_or_else(|_| PathBuf::from(what));
        return Ok((Key::File(file), what.to_string()));
    }
    if store.is_none() {
        if !path.exists() {
            return Err(UsageError::new(
                what,
                format!("is neither a file nor in a store ({} does not exist)", path.display()),
            )
            .into());
        }
        *store = Some(Store::open(path)?);
    }
    let s = store.as_ref().expect("opened above");
    let id = match what.parse::<i64>() {
        Ok(id) => id,
        Err(_) => match labelled(s, what)? {
            Some(id) => id,
            None => return Err(UsageError::new(what, "is no file, id or label in the store").into()),
        },
    };
    Ok((Key::Id(id), what.to_string()))
}

/// A result and the name its columns carry.
pub fn resolve(k: &Key, what: &str, store: &Option<Store>, path: &Path) -> anyhow::Result<(String, RunResult)> {
    let id = match k {
        Key::File(f) => {
            let r = crate::frontends::import::read_file(f, None)?;
            return Ok((r.label.clone().unwrap_or_else(|| what.to_string()), r));
        }
        Key::Id(id) => *id,
    };
    let s = store.as_ref().expect("opened by key");
    let r = s.load(id)?.ok_or_else(|| UsageError::new(what, format!("no result {id} in {}", path.display())))?;
    Ok((r.label.clone().map_or_else(|| format!("#{id}"), |l| format!("#{id} {l}")), r))
}

/// Whether `what` names a result rather than a target to measure: an id or a label in the store
/// at `path`, or an existing JSON file that reads as a result. An existing file or directory
/// that is not a result is a target.
pub fn names_result(what: &str, path: &Path) -> bool {
    let p = Path::new(what);
    if p.exists() {
        let json = p.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
        return p.is_file() && json && crate::frontends::import::read_file(p, None).is_ok();
    }
    if what.parse::<i64>().is_ok_and(|n| n > 0) {
        return true;
    }
    path.exists() && Store::open(path).is_ok_and(|s| labelled(&s, what).is_ok_and(|id| id.is_some()))
}

/// The newest result labelled `label`.
fn labelled(s: &Store, label: &str) -> anyhow::Result<Option<i64>> {
    Ok(s.list(&Filter { label: Some(label.to_string()), limit: Some(1), ..Filter::default() })?.first().map(|e| e.id))
}

/// A target that does not exist yet is made only where the user evidently meant a new file:
/// a path with a directory part or an extension, or with `--size` given. A bare word (a label
/// mistyped, a result that is not there) is refused instead of becoming a 1 GiB file.
pub fn meant_as_new_file(target: &str, size_given: bool) -> Result<(), UsageError> {
    let p = Path::new(target);
    // An empty word is refused where targets are read, in its own terms.
    if size_given || target.is_empty() || p.exists() {
        return Ok(());
    }
    let dir_part = p.parent().is_some_and(|d| !d.as_os_str().is_empty());
    let extension = p.extension().is_some_and(|e| !e.is_empty());
    if dir_part || extension {
        return Ok(());
    }
    Err(UsageError::new(
        "TARGET",
        format!(
            "'{target}' is no file, directory, result id or label; to make a new test file, name it with a directory \
             or an extension (./{target}, {target}.dat) or give --size"
        ),
    ))
}

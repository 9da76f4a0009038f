//! A result from the JSON a user hands `import` or `compare`: iolens' own, or fio's output
//! (`--output-format=json` or `json+`), told apart by fio's "fio version" key.

use crate::error::UsageError;
use crate::result::RunResult;
use std::path::Path;

/// Reads an iolens result or fio's JSON output from a file (`host`: where fio ran, as fio does
/// not say).
pub fn read_file(path: &Path, host: Option<&str>) -> Result<RunResult, UsageError> {
    let shown = path.display().to_string();
    let text = crate::input::read_text(path, "import", crate::input::TEXT_LIMIT)?;
    let name = path.file_name().map_or(shown.clone(), |n| n.to_string_lossy().into_owned());
    from_text(&text, &shown, &name, host)
}

/// The result in `text`: `shown` names the input in errors, `name` (its file name) goes into
/// an imported fio result's source; `host` is where fio ran, as fio does not say.
pub fn from_text(text: &str, shown: &str, name: &str, host: Option<&str>) -> Result<RunResult, UsageError> {
    // fio prints notes before its JSON when it has something to say: the JSON starts at '{'.
    let start = if text.trim_start().starts_with('{') { 0 } else { text.find("\n{").map_or(0, |i| i + 1) };
    let v: serde_json::Value =
        serde_json::from_str(&text[start..]).map_err(|e| UsageError::new(shown, format!("is not JSON: {e}")))?;
    let r: RunResult = if v.get("fio version").is_some() {
        super::fio::from_fio_json(&v, name, host).map_err(|e| UsageError::new(shown, e.message))?
    } else {
        serde_json::from_value(v).map_err(|e| UsageError::new(shown, format!("is not an iolens result: {e}")))?
    };
    // What the store would refuse is refused here, so an import never half succeeds.
    crate::result::figures::check(&r).map_err(|e| UsageError::new(shown, e))?;
    Ok(r)
}

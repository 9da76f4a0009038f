//! Errors a user can fix by changing what they typed. They exit with code 2 and print one line
//! naming the option and what it accepts; everything else is an `anyhow` error (exit 1).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError {
    /// The option as typed on the command line, e.g. "--bs", or the target path.
    pub option: String,
    pub message: String,
}

impl UsageError {
    pub fn new(option: impl Into<String>, message: impl Into<String>) -> Self {
        UsageError { option: option.into(), message: message.into() }
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.option, self.message)
    }
}

impl std::error::Error for UsageError {}

/// Shorthand for an `Err(UsageError)`.
pub fn usage<T>(option: &str, message: impl Into<String>) -> Result<T, UsageError> {
    Err(UsageError::new(option, message))
}

//! What is wrong with a rule file: [`RuleError`] names the file, the rule and the key in
//! one sentence; a [`KeyError`] is the key and message before the loader knows (or
//! adds) the file and the rule. Kept apart so the loader and the parts it calls (the
//! `fix:` and resource-test compilers) share them without importing each other.

use std::fmt;

/// A rule file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub path: String,
    pub rule_id: Option<String>,
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path)?;
        if let Some(id) = &self.rule_id {
            write!(f, ": rule '{id}'")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for RuleError {}

/// A rule error without the file and id, which the caller adds.
pub(super) type KeyError = (String, String);

pub(super) fn key_err(key: &str, message: impl Into<String>) -> KeyError {
    (key.to_owned(), message.into())
}

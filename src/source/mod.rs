//! The only layer that touches the outside world: files, stdin, the environment and,
//! in later work, Azure and DNS. It knows nothing about rules or output formats.

pub(crate) mod az_cli;
pub(crate) mod azure;
pub(crate) mod bundle;
pub(crate) mod collect;
pub(crate) mod dns;
pub(crate) mod inputs;
pub(crate) mod json;
pub(crate) mod local;
pub(crate) mod log_analytics;
pub(crate) mod project_files;
pub(crate) mod rehearsal;
pub(crate) mod roots;
pub(crate) mod scoring;

use std::collections::BTreeMap;
use std::path::PathBuf;

/// A text file read whole (only small configuration files are read this way; logs
/// are streamed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedFile {
    pub path: PathBuf,
    pub text: String,
}

/// A snapshot of what the process sees of its surroundings.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    /// Environment variables with UTF-8 names and values.
    pub vars: BTreeMap<String, String>,
    pub stdout_is_terminal: bool,
    /// The terminal's width in columns, when stdout is a terminal.
    pub terminal_columns: Option<usize>,
}

impl Environment {
    /// A variable's value; set-but-empty counts as unset, as the az CLI treats it.
    pub fn var(&self, name: &str) -> Option<&str> {
        self.vars
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    }
}

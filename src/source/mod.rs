//! The only layer that touches the outside world: files, stdin, the environment and,
//! in later work, Azure and DNS. It knows nothing about rules or output formats.

pub mod az_cli;
pub mod inputs;
pub mod json;
pub mod local;

use std::path::PathBuf;

/// A text file read whole (only small configuration files are read this way; logs
/// are streamed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedFile {
    pub path: PathBuf,
    pub text: String,
}

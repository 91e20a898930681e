//! amldoctor diagnoses Azure Machine Learning failures — online deployments that crash
//! or cannot be scored, ParallelRunStep jobs that stall — and prints the cause and the
//! next command to run.
//!
//! Data flows one way: `source` (the only I/O) → `context`/evidence → engine →
//! findings → `report`. `commands` orchestrate one subcommand each; `main` only maps
//! the outcome to an [`exit_code::ExitCode`].

pub(crate) mod analyse;
pub(crate) mod capacity;
pub(crate) mod catalogue;
pub(crate) mod checks;
pub mod cli;
pub mod commands;
pub(crate) mod context;
pub(crate) mod detect;
pub mod engine;
pub mod error;
pub(crate) mod evidence;
pub(crate) mod exit_code;
pub(crate) mod finding;
pub(crate) mod gate;
pub(crate) mod lint;
pub(crate) mod prs;
pub(crate) mod ratio;
pub(crate) mod redact;
pub(crate) mod rehearsal;
pub mod report;
pub mod rules;
pub(crate) mod scoring;
pub(crate) mod setting;
pub(crate) mod source;
pub(crate) mod suggest;
pub(crate) mod yaml_error;

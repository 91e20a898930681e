//! amldoctor diagnoses Azure Machine Learning failures — online deployments that crash
//! or cannot be scored, ParallelRunStep jobs that stall — and prints the cause and the
//! next command to run.
//!
//! Data flows one way: `source` (the only I/O) → `context`/evidence → engine →
//! findings → `report`. `commands` orchestrate one subcommand each; `main` only maps
//! the outcome to an [`exit_code::ExitCode`].

pub mod capacity;
pub mod catalogue;
pub mod checks;
pub mod cli;
pub mod commands;
pub mod context;
pub mod detect;
pub mod engine;
pub mod error;
pub mod evidence;
pub mod exit_code;
pub mod finding;
pub mod gate;
pub mod prs;
pub mod redact;
pub mod report;
pub mod rules;
pub mod setting;
pub mod source;
pub mod yaml_error;

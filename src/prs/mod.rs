//! ParallelRunStep log trees: find them (`tree.rs`), parse their files as they are
//! scanned (`parse.rs` dispatching by file role to a reader per kind of line:
//! `text_logs.rs` and `job_messages.rs`, `mini_batches.rs`, `user_errors.rs`, and
//! `perf.rs` for the resource monitor's files; each line's shape and literals are read
//! in `message.rs`, and every reader leaves what it read in `facts.rs`), build a job
//! summary from the parsed files (`aggregate.rs` into `summary.rs`), and compute the
//! findings that need counting rather than matching (`computed.rs`, with the retry
//! limits in `retry_budget.rs`).

pub(crate) mod aggregate;
mod computed;
mod csv;
mod facts;
mod job_messages;
mod line;
mod message;
mod mini_batches;
mod nodes;
pub(crate) mod parse;
pub(crate) mod perf;
mod resources;
pub(crate) mod retry_budget;
mod run_times;
pub(crate) mod summary;
mod text_logs;
mod time;
pub(crate) mod tree;
mod user_errors;

pub(crate) use computed::COMPUTED_RULES;

/// The ids of the rules computed from a tree rather than matched from text.
pub(crate) fn computed_rule_ids() -> Vec<&'static str> {
    COMPUTED_RULES.to_vec()
}

//! ParallelRunStep log trees: find them (`tree.rs`), parse their files as they are
//! scanned (`parse.rs`, reading each line's shape and literals in `message.rs`), build a job summary from the parsed files (`aggregate.rs` into
//! `summary.rs`), and compute the findings that need counting rather than matching
//! (`computed.rs`, with the retry limits in `retry_budget.rs`). The resource monitor's
//! files are read in `perf.rs`.

mod aggregate;
pub mod analyze;
mod computed;
mod message;
mod nodes;
pub mod parse;
pub mod perf;
mod resources;
pub(crate) mod retry_budget;
pub mod summary;
mod time;
pub mod tree;

pub use computed::COMPUTED_RULES;

/// The ids of the rules computed from a tree rather than matched from text.
pub fn computed_rule_ids() -> Vec<&'static str> {
    COMPUTED_RULES.to_vec()
}

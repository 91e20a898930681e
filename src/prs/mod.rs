//! ParallelRunStep log trees: find them (`tree.rs`), parse their files as they are
//! scanned (`parse.rs`), and turn the parsed files into a job summary and findings that
//! need counting rather than matching (`analyze.rs`).

pub mod analyze;
pub mod parse;
pub mod tree;
